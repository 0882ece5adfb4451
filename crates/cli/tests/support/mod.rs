//! What the CLI's test files share: running a process with a time limit, so that a test
//! that hangs fails instead, and no process outlives its test.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long one run may take before its test fails. It only catches hangs: a debug build
/// recording a long 8x8 game on a loaded 2-core machine has taken over half a minute.
pub const LIMIT: Duration = Duration::from_secs(300);

/// What [`Command::output`] gives (standard input empty, standard output and error
/// captured), within [`LIMIT`]; see [`finish`].
pub fn output(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    finish(cmd.start().expect("start the command"))
}

/// [`Command::spawn`], tried again when Wine's CreateProcess fails with
/// ERROR_INTERNAL_ERROR (1359), as it now and then does while other processes start
/// (`just windows-test`): the start, not the command, is tried again. Every test that
/// starts a process under Wine starts it so.
pub trait Start {
    /// Starts the command.
    fn start(&mut self) -> std::io::Result<Child>;
}

impl Start for Command {
    fn start(&mut self) -> std::io::Result<Child> {
        let mut tries = 0;
        loop {
            match self.spawn() {
                Err(e) if cfg!(windows) && e.raw_os_error() == Some(1359) && tries < 5 => {
                    tries += 1
                }
                started => return started,
            }
        }
    }
}

/// Writes `input` to the child's standard input (piped) from a thread of its own, then
/// closes it: a child that stops reading never blocks the test, and a closed pipe is no
/// error (a command may refuse its input after the first bytes).
pub fn feed(child: &mut Child, input: Vec<u8>) {
    let mut stdin = child.stdin.take().expect("standard input piped");
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
}

/// Waits for `child` and gathers whatever of its standard output and error was piped; if it
/// has not ended within [`LIMIT`], it is killed and the test fails.
pub fn finish(child: Child) -> Output {
    finish_as(child, "a command")
}

/// [`finish`], naming the run `what` if it hangs.
pub fn finish_as(mut child: Child, what: &str) -> Output {
    let deadline = Instant::now() + LIMIT;
    let gather = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = gather(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = gather(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    loop {
        if let Some(status) = child.try_wait().expect("wait for the command") {
            return Output {
                status,
                stdout: stdout.join().expect("standard output read"),
                stderr: stderr.join().expect("standard error read"),
            };
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not end within {LIMIT:?} (it hangs; it was killed)");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Gives the file at `path` a new inode with the same bytes. A journal a test writes in its
/// own process is locked (`flock`) while open; a child that another test thread starts in
/// that moment shares the lock until it has started its program, which under load can
/// outlast the journal's closing, and `recover` then finds it "in use". The lock is the
/// inode's: a fresh copy has none.
pub fn unlocked(path: &std::path::Path) {
    let bytes = std::fs::read(path).expect("read the file");
    std::fs::remove_file(path).expect("remove the file");
    std::fs::write(path, bytes).expect("write the file again");
}

/// A path the binary prints, written with `/` here: with `\` on Windows, where the binary
/// joins a directory and its entries with the platform's separator.
pub fn native(path: &str) -> String {
    if cfg!(windows) {
        path.replace('/', "\\")
    } else {
        path.to_string()
    }
}
