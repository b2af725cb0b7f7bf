//! Delivering one message until the receiver takes it, as providers do: the engine, the retry
//! policy it follows, and the attempt lines `webhook send` and `webhook replay` print.
pub mod engine;
pub mod print;
pub mod retry;
