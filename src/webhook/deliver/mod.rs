//! Delivering one message until the receiver takes it, as providers do: the engine, the retry
//! policy it follows, and the attempt lines `webhook send` and `webhook replay` print.
pub(crate) mod engine;
pub(crate) mod personality;
pub(crate) mod print;
pub(crate) mod retry;
