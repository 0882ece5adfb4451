//! Writing to a standard stream that fails: one sentence and exit 2, never a backtrace.
//!
//! The commands print with the `print!` family, which panics when a write to stdout or
//! stderr fails (a full disk, `> /dev/full`, a closed terminal). [`install`] sets a panic
//! hook that recognises those panics, keeps their message instead of printing a backtrace,
//! and lets the panic unwind (so a terminal in raw mode is restored by its guard); [`guard`]
//! runs a command, catches that unwinding and turns it into one sentence and exit status 2.
//! A closed pipe (EPIPE) stays quiet: SIGPIPE ends the process as for any Unix filter, and
//! where the write error arrives instead, nothing is printed.

use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::Mutex;

use crate::input::EXIT_BAD_INPUT;

/// The message of the first failed write to a standard stream, when one panicked.
static FAILED_WRITE: Mutex<Option<String>> = Mutex::new(None);

/// What std's `print!` family, and clap_complete's generator, panic with when a write to
/// stdout or stderr fails.
const WRITE_PANICS: [&str; 2] = ["failed printing to std", "failed to write completion file"];

/// Installs the panic hook that keeps failed writes to stdout and stderr quiet.
pub fn install() {
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if WRITE_PANICS.iter().any(|p| message.starts_with(p)) {
            let mut slot = FAILED_WRITE.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert_with(|| message.to_string());
        } else {
            default(info);
        }
    }));
}

/// Runs a command; a failed write to stdout or stderr becomes one sentence and exit 2.
pub fn guard(command: impl FnOnce() -> ExitCode) -> ExitCode {
    let outcome = panic::catch_unwind(AssertUnwindSafe(command));
    let code = match outcome {
        Ok(code) => code,
        Err(payload) => {
            let failed = FAILED_WRITE
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            match failed {
                Some(message) => return report(&message),
                None => panic::resume_unwind(payload),
            }
        }
    };
    // Output still buffered (a `print!` without a newline) is written now, so its error is
    // seen rather than dropped at exit.
    match io::stdout().flush() {
        Ok(()) => code,
        Err(err) => report(&format!("failed printing to stdout: {err}")),
    }
}

/// Whether a failed write's message is a reader that went away: EPIPE on Unix (32), on
/// Windows ERROR_BROKEN_PIPE (109) or ERROR_NO_DATA (232), "the pipe is being closed".
fn closed_pipe(message: &str) -> bool {
    let codes: &[&str] = if cfg!(windows) {
        &["(os error 109)", "(os error 232)"]
    } else {
        &["(os error 32)"]
    };
    message.contains("Broken pipe") || codes.iter().any(|c| message.contains(c))
}

/// Reports a failed write to a standard stream: one sentence on stderr (if stderr still
/// works), nothing for a closed pipe; exit 2.
pub fn report(message: &str) -> ExitCode {
    if !closed_pipe(message) {
        let stream = if message.contains("stderr") {
            "standard error"
        } else {
            "standard output"
        };
        let cause = message.split_once(": ").map_or(message, |(_, c)| c);
        // clap_complete's panic shows the error's Debug form: keep only its message.
        let cause = cause
            .split_once("message: \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map_or(cause, |(m, _)| m);
        let _ = writeln!(
            io::stderr(),
            "twenty48: error: cannot write to {stream}: {cause}"
        );
    }
    EXIT_BAD_INPUT.into()
}

/// Standard output for a command that returns its write errors rather than panicking
/// (`write!` and `?`), buffered. A failed write is kept, as a failed `print!` is, so that
/// the error the command returns is reported by [`returned_failure`] as one sentence that
/// names standard output.
pub fn stdout() -> io::BufWriter<Stdout> {
    io::BufWriter::new(Stdout(io::stdout().lock()))
}

/// Standard output, locked, keeping the first write that fails (see [`stdout`]).
pub struct Stdout(io::StdoutLock<'static>);

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).inspect_err(keep_stdout_failure)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().inspect_err(keep_stdout_failure)
    }
}

fn keep_stdout_failure(err: &io::Error) {
    let mut slot = FAILED_WRITE.lock().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert_with(|| format!("failed printing to stdout: {err}"));
}

/// When a command returned an error after a write to [`stdout`] failed: that failure,
/// reported as one sentence (the error returned is its consequence).
pub fn returned_failure() -> Option<ExitCode> {
    let failed = FAILED_WRITE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    failed.map(|message| report(&message))
}

/// Reports a failed write to stdout or stderr that a command returned as an error.
pub fn io_error(err: &io::Error, stream: &str) -> ExitCode {
    report(&format!("failed printing to {stream}: {err}"))
}

/// An error when standard output is closed (started with `>&-`): Rust's runtime opens
/// `/dev/null` in its place, so a command would print nothing and exit 0. Told from an
/// output sent to `/dev/null` on purpose (`> /dev/null`, opened write-only) by how it was
/// opened: read-write, as the runtime opens it.
pub fn require_stdout() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        if stdout_is_closed() {
            anyhow::bail!("standard output is closed: nothing could be written");
        }
    }
    Ok(())
}

#[cfg(unix)]
fn stdout_is_closed() -> bool {
    // SAFETY: fcntl(F_GETFL) and fstat only read the descriptor's state into memory owned
    // here; a closed descriptor answers -1.
    unsafe {
        let flags = libc::fcntl(1, libc::F_GETFL);
        if flags == -1 {
            return true;
        }
        if flags & libc::O_ACCMODE != libc::O_RDWR {
            return false;
        }
        let mut out: libc::stat = core::mem::zeroed();
        let mut null: libc::stat = core::mem::zeroed();
        libc::fstat(1, &mut out) == 0
            && libc::stat(c"/dev/null".as_ptr(), &mut null) == 0
            && (out.st_dev, out.st_ino) == (null.st_dev, null.st_ino)
    }
}
