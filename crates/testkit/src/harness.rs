//! An emulator harness run as a child process and driven a line at a time: its standard
//! output read line by line into a channel, its standard error kept (its last few KiB) for
//! the error that names what went wrong, in a process group of its own so that it can be
//! killed whole.

use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

/// How much of the harness's standard error is kept: its last 4 to 8 KiB.
const KEPT_ERRORS: usize = 8192;

/// A harness started by [`Harness::spawn`].
#[derive(Debug)]
pub struct Harness {
    /// The process (its own process group: `kill(-pid)` stops it and its children).
    pub child: Child,
    /// Its standard input, for commands.
    pub stdin: ChildStdin,
    /// Its standard output, a line at a time, as it comes; closed when it ends.
    pub lines: Receiver<String>,
    /// The end of its standard error (its last 4 to 8 KiB).
    pub stderr: Arc<Mutex<String>>,
}

impl Harness {
    /// Starts `command` with its standard streams piped, in a process group of its own,
    /// and the threads that read its output.
    ///
    /// # Errors
    /// When it cannot be started.
    pub fn spawn(command: &mut Command) -> io::Result<Harness> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut err = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n @ 1..) = err.read(&mut buf) {
                let mut s = kept.lock().unwrap_or_else(|e| e.into_inner());
                s.push_str(&String::from_utf8_lossy(&buf[..n]));
                if s.len() > KEPT_ERRORS {
                    let cut = s.len() - KEPT_ERRORS / 2;
                    let cut = (cut..s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                    s.drain(..cut);
                }
            }
        });
        Ok(Harness {
            child,
            stdin,
            lines,
            stderr,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Lines come one by one, standard error is kept to its end, and the channel closes
    /// when the harness ends.
    #[test]
    fn lines_come_in_order_and_errors_are_kept_to_their_end() {
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "echo one; echo two; head -c 20000 /dev/zero | tr '\\0' x >&2; echo end >&2",
        ]);
        let mut h = Harness::spawn(&mut command).unwrap();
        let wait = Duration::from_secs(30);
        assert_eq!(h.lines.recv_timeout(wait).unwrap(), "one");
        assert_eq!(h.lines.recv_timeout(wait).unwrap(), "two");
        assert!(h.lines.recv_timeout(wait).is_err(), "closed at the end");
        assert!(h.child.wait().unwrap().success());
        // The reader thread may still be appending the last bytes.
        let deadline = std::time::Instant::now() + wait;
        while !h.stderr.lock().unwrap().ends_with("end\n") {
            assert!(std::time::Instant::now() < deadline);
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(h.stderr.lock().unwrap().len() <= KEPT_ERRORS);
    }
}
