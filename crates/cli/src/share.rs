//! `twenty48 share`: a link that opens a game in the web page, the game itself in the link's
//! fragment (`#g=` and the file's bytes in base64url; docs/web.md).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{bail, Context, Result};
use clap::Args;
use twenty48_movelog::MAGIC;
use twenty48_web::{link, VerdictKind, Viewer};

use crate::input;
use crate::style::Ui;

/// The environment variable naming the page's address when --base is not given.
pub const BASE_VARIABLE: &str = "TWENTY48_WEB";

/// The largest file a link carries: 1 MiB (about 4 million moves), 1.4 MB of link text,
/// under the 2 MB that browsers take in an address.
pub const MAX_SHARED_BYTES: usize = 1 << 20;

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
  twenty48 share game.t48 --base https://example.org/twenty48/
  TWENTY48_WEB=https://example.org/twenty48/ twenty48 share game.t48

A 1000-move game makes a link of about 440 characters after the address. --open hands the
link to the system's opener (xdg-open; open on macOS; start on Windows).")]
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
}

pub fn run(args: ShareArgs, ui: &Ui) -> Result<ExitCode> {
    let bytes = input::read_log_file(&args.file)?;
    let name = input::name(&args.file);
    if !bytes.starts_with(&MAGIC) {
        bail!("{name} is not a twenty48 move log (it does not start with the magic T48\\x1a); there is no game to share");
    }
    if bytes.len() > MAX_SHARED_BYTES {
        bail!(
            "{name} is {} bytes; a link carries at most {MAX_SHARED_BYTES} (about 4 million moves): open the file in the page instead",
            bytes.len()
        );
    }
    let base = base(args.base.as_deref())?;
    let verdict = Viewer::open(&bytes).verdict;
    if verdict.kind != VerdictKind::Ok && !ui.quiet {
        eprintln!("note: {name}: {verdict} (the page shows the same verdict)");
    }
    let address = base.split('#').next().unwrap_or(&base);
    let url = format!("{address}#{}", link::fragment(&bytes));
    println!("{url}");
    if args.open {
        open(&url)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The page's address: `--base`, else the environment variable, else the local build.
fn base(flag: Option<&str>) -> Result<String> {
    if let Some(base) = flag {
        return Ok(base.to_string());
    }
    if let Some(base) = std::env::var_os(BASE_VARIABLE).filter(|b| !b.is_empty()) {
        return base
            .into_string()
            .map_err(|_| anyhow::anyhow!("${BASE_VARIABLE} is not UTF-8 text"));
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

/// Opens `url` with the platform's opener, failing clearly when there is none.
fn open(url: &str) -> Result<()> {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let status = Command::new(program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status();
    match status {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "cannot open the link: {program} is not installed (on Debian: apt-get install xdg-utils); open the link printed above yourself"
        ),
        Err(e) => bail!("cannot open the link: {program} failed to start: {e}"),
        Ok(s) if !s.success() => bail!(
            "cannot open the link: {program} failed ({s}); open the link printed above yourself"
        ),
        Ok(_) => Ok(()),
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
