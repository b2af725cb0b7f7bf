//! The exit statuses every command shares: 0 = what was tested holds, 1 = the tool found a problem,
//! 2 = the tool could not do its job. Scripts and CI depend on this split.
use std::io;

/// What a command that ran to the end concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// What was tested holds.
    Holds,
    /// The tool found a problem: double execution, a failed check, an invalid signature, an
    /// undelivered webhook.
    ProblemFound,
}

impl Outcome {
    pub fn code(self) -> i32 {
        match self {
            Outcome::Holds => 0,
            Outcome::ProblemFound => 1,
        }
    }

    /// `Holds` only when every part holds.
    pub fn and(self, other: Outcome) -> Outcome {
        if self == Outcome::Holds && other == Outcome::Holds { Outcome::Holds } else { Outcome::ProblemFound }
    }
}

/// The status for "could not do its job": bad usage, bad input, unreachable host.
pub(crate) const COULD_NOT_RUN: i32 = 2;

/// Turns a command's result into the process exit status, printing an error with its whole cause
/// chain on stderr. A closed stdout (`idem … | head`) is not an error.
pub(crate) fn finish(result: anyhow::Result<Outcome>) -> i32 {
    match result {
        Ok(outcome) => outcome.code(),
        Err(err) if is_broken_pipe(&err) => 0,
        Err(err) => {
            // The last line of defence: a URL some message quoted whole keeps no password.
            eprintln!("error: {}", crate::http::url::redact_password(&format!("{err:#}")));
            COULD_NOT_RUN
        }
    }
}

/// Runs a whole command so that even a bug ends like every other failure: one line on stderr
/// (no backtrace, whatever RUST_BACKTRACE says) and exit status 2, instead of Rust's panic report
/// and status 101.
pub(crate) fn guard(command: impl FnOnce() -> i32 + std::panic::UnwindSafe) -> i32 {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|text| (*text).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        let place = info.location().map(|at| format!(" at {}:{}", at.file(), at.line())).unwrap_or_default();
        eprintln!(
            "error: internal error{place}: {message}\nThis is a bug; please report it with the command that caused it."
        );
    }));
    let status = std::panic::catch_unwind(command).unwrap_or(COULD_NOT_RUN);
    std::panic::set_hook(previous);
    status
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let io_kind = cause.downcast_ref::<io::Error>().map(io::Error::kind);
        // serde_json's writer wraps the io::Error without exposing it as a source.
        let json_kind = || cause.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind);
        io_kind.or_else(json_kind) == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bug_is_exit_2_not_a_panic_report() {
        assert_eq!(guard(|| panic!("boom")), COULD_NOT_RUN);
        assert_eq!(guard(|| 1), 1);
    }

    struct ClosedPipe;

    impl io::Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn broken_pipe_is_a_quiet_success() {
        let err = anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe)).context("writing");
        assert_eq!(finish(Err(err)), 0);
        assert_eq!(finish(Err(anyhow::anyhow!("boom"))), 2);
        let json = serde_json::to_writer(ClosedPipe, &[1, 2, 3]).unwrap_err();
        assert_eq!(
            finish(Err(anyhow::Error::new(json))),
            0,
            "serde_json hides the io::Error; it is still a closed pipe"
        );
        assert_eq!(finish(Ok(Outcome::ProblemFound)), 1);
    }
}
