//! `twenty48 share`: a link that opens a game in the web page, the game itself in the link's
//! fragment (`#g=` and the file's bytes in base64url; docs/web.md).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
#[cfg(not(windows))]
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use clap::Args;
use twenty48_movelog::MAGIC;
use twenty48_web::{link, VerdictKind, Viewer};

use crate::input;
use crate::style::Ui;

/// The environment variable naming the page's address when --base is not given.
pub const BASE_VARIABLE: &str = "TWENTY48_WEB";

/// The largest file a link carries: 1 MiB (about 4 million moves), 1.4 MB of link text,
/// under the 2 MB that browsers take in an address; the page writes links in its address up
/// to the same size.
pub const MAX_SHARED_BYTES: usize = twenty48_web::MAX_LINKED_BYTES;

/// Print a link that opens a game in the web page (nothing is uploaded: the game is in the
/// link itself).
///
/// The page's address is --base, else $TWENTY48_WEB, else the local build's
/// target/web/index.html (made by `just web`). A move log that does not verify is still
/// shared: the page shows the same verdict as `twenty48 verify`. Files of up to 1 MiB.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 share game.t48
  twenty48 share game.t48 --open
  twenty48 share game.t48 --move 5        # opens at move 5 (say, a blunder analyse found)
  twenty48 share game.t48 --base https://example.org/twenty48/
  TWENTY48_WEB=https://example.org/twenty48/ twenty48 share game.t48

A 1000-move game makes a link of about 440 characters after the address. The address must
be absolute (https://..., file://...); a fragment in it gives way to the game's. --open hands
the link to the system's opener (xdg-open; open on macOS, waiting for it at most 5 seconds;
the shell's default browser on Windows).")]
pub struct ShareArgs {
    /// The game to share, `-` for standard input
    pub file: PathBuf,
    /// The web page's address [default: $TWENTY48_WEB, else the local build's
    /// target/web/index.html]
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,
    /// Also open the link in the browser
    #[arg(long)]
    pub open: bool,
    /// Open the game at move N (0: the opening; at most the game's moves): `&m=N` in the link
    #[arg(long = "move", value_name = "N")]
    pub move_number: Option<u32>,
}

pub fn run(args: ShareArgs, ui: &Ui) -> Result<ExitCode> {
    // The page's address first: a bad one is said before any file is read.
    let base = base(args.base.as_deref())?;
    // One byte past the most a link carries tells a larger file without reading it all.
    let bytes = input::read_log_file_within(&args.file, MAX_SHARED_BYTES as u64 + 1)?;
    let name = input::name(&args.file);
    if !bytes.starts_with(&MAGIC) {
        bail!("{name} is not a twenty48 move log (it does not start with the magic T48\\x1a); there is no game to share");
    }
    if bytes.len() > MAX_SHARED_BYTES {
        bail!(
            "{name} is larger than {MAX_SHARED_BYTES} bytes, the most a link carries (about 4 million moves): open the file in the page instead"
        );
    }
    if let Some(n) = args.move_number {
        let moves = twenty48_movelog::PackedLog::decode(&bytes)
            .map_err(|e| anyhow::anyhow!("{name} is not a valid move log: {e}"))?
            .move_count();
        if n > moves {
            bail!("--move {n} is past the end of {name}: its moves are 0 (the opening) to {moves}");
        }
    }
    let verdict = Viewer::open(&bytes).verdict;
    if verdict.kind != VerdictKind::Ok && !ui.quiet {
        eprintln!("note: {name}: {verdict} (the page shows the same verdict)");
    }
    let at = match args.move_number {
        Some(n) if n > 0 => format!("&m={n}"),
        _ => String::new(),
    };
    let url = format!("{base}#{}{at}", link::fragment(&bytes));
    println!("{url}");
    if args.open {
        open(&url)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The page's address: `--base`, else the environment variable, else the local build.
fn base(flag: Option<&str>) -> Result<String> {
    if let Some(base) = flag {
        return checked_base(base, "--base");
    }
    if let Some(base) = std::env::var_os(BASE_VARIABLE).filter(|b| !b.is_empty()) {
        let base = base
            .into_string()
            .map_err(|_| anyhow::anyhow!("${BASE_VARIABLE} is not UTF-8 text"))?;
        return checked_base(&base, &format!("${BASE_VARIABLE}"));
    }
    let candidates = local_pages();
    match candidates.iter().find(|p| p.is_file()) {
        Some(page) => {
            let page = page
                .canonicalize()
                .with_context(|| format!("cannot read {}", input::shown(page)))?;
            Ok(file_url(&page))
        }
        None => bail!(
            "no web page to link to: the local build ({}) is missing; build it with `just web`, or give the page's address with --base URL or ${BASE_VARIABLE}",
            candidates
                .iter()
                .map(|p| input::shown(p))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

/// `base` (named `source` in errors) when it is an absolute URL that a link can follow:
/// a scheme (`https:`, `file:`, ...) first, and no character a URL cannot hold as it is
/// (spaces, control characters, quotes, `<>\\^`{|}`). A fragment it has is dropped: the
/// game's takes its place.
fn checked_base(base: &str, source: &str) -> Result<String> {
    let scheme = base.split_once(':').map_or("", |(s, _)| s);
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !scheme_ok {
        bail!("{source} {base:?} is not an absolute URL: give the page's address with its scheme, e.g. https://example.org/twenty48/ or file:///path/to/index.html");
    }
    if let Some((at, c)) = base
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_whitespace() || c.is_control() || "\"<>\\^`{|}".contains(*c))
    {
        bail!("{source} {base:?} has {c:?} at character {}, which a URL cannot hold as it is: percent-encode it", at + 1);
    }
    Ok(base.split('#').next().unwrap_or(base).to_string())
}

/// Where `just web` puts the page: target/web/index.html beside the directory of this
/// binary (target/debug or target/release), else in the source tree it was built from.
fn local_pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        pages.push(dir.join("../web/index.html"));
    }
    pages.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/web/index.html"));
    pages
}

/// A `file://` URL of an absolute path, every byte outside the unreserved set and `/`
/// percent-encoded.
pub fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    let text = path.to_string_lossy();
    let text = text.replace('\\', "/");
    if !text.starts_with('/') {
        url.push('/');
    }
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => {
                url.push(b as char)
            }
            b => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

/// How long the opener is waited for: one that fails does so at once, and one that is still
/// running by then has started the browser (some openers run until the browser closes).
#[cfg(not(windows))]
const OPENER_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Opens `url` with Windows' shell (ShellExecuteW, as a double click would): no `cmd /C
/// start`, which would read the `&` of a link's `&m=` as a command separator.
#[cfg(windows)]
fn open(url: &str) -> Result<()> {
    use windows_sys::Win32::UI::Shell::ShellExecuteW;
    use windows_sys::Win32::UI::WindowsAndMessaging::SW_SHOWNORMAL;
    let wide = |s: &str| -> Vec<u16> { s.encode_utf16().chain([0]).collect() };
    let (verb, file) = (wide("open"), wide(url));
    // SAFETY: NUL-terminated wide strings that live through the call; null where optional.
    let code = unsafe {
        ShellExecuteW(
            std::ptr::null_mut(),
            verb.as_ptr(),
            file.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            SW_SHOWNORMAL,
        )
    } as isize;
    // Above 32 is success; at most 32 is an error code.
    if code <= 32 {
        bail!("cannot open the link: Windows' shell refused it (code {code}); open the link printed above yourself");
    }
    Ok(())
}

/// Opens `url` with the platform's opener, failing clearly when there is none or it fails.
/// The opener writes nowhere of ours (a browser it starts could otherwise hold a pipe that
/// our caller reads to its end) and is waited for at most [`OPENER_WAIT`].
#[cfg(not(windows))]
fn open(url: &str) -> Result<()> {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else {
        ("xdg-open", vec![url])
    };
    let child = Command::new(program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "cannot open the link: {program} is not installed (on Debian: apt-get install xdg-utils); open the link printed above yourself"
        ),
        Err(e) => bail!("cannot open the link: {program} failed to start: {e}"),
        Ok(child) => child,
    };
    let deadline = std::time::Instant::now() + OPENER_WAIT;
    loop {
        match child.try_wait() {
            Ok(Some(s)) if !s.success() => bail!(
                "cannot open the link: {program} failed ({s}); open the link printed above yourself"
            ),
            Ok(Some(_)) => return Ok(()),
            // Still running: it has the link, and it is the user's browser now.
            Ok(None) if std::time::Instant::now() >= deadline => return Ok(()),
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(20)),
            Err(e) => bail!("cannot open the link: waiting for {program} failed: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_escape_what_a_url_cannot_hold() {
        assert_eq!(
            file_url(Path::new("/a b/c#d/é.html")),
            "file:///a%20b/c%23d/%C3%A9.html"
        );
    }
}
