//! `twenty48 completions` and `twenty48 man`: shell completions and a man page, generated
//! from the same clap definitions as `--help`.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, CommandFactory};
use clap_complete::Shell;

/// Print a shell completion script.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 completions bash > ~/.local/share/bash-completion/completions/twenty48
  twenty48 completions zsh > ~/.zfunc/_twenty48
  twenty48 completions fish > ~/.config/fish/completions/twenty48.fish")]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Print a man page (roff), generated from the same definitions as --help.
///
/// `twenty48 man` is twenty48(1); `twenty48 man play` is twenty48-play(1); `--dir DIR`
/// writes every page into DIR.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 man | man -l -
  twenty48 man play > twenty48-play.1
  twenty48 man --dir /usr/local/share/man/man1")]
pub struct ManArgs {
    /// A subcommand's page instead of the main one
    pub subcommand: Option<String>,
    /// Write all pages (twenty48.1, twenty48-play.1, ...) into this directory
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub dir: Option<PathBuf>,
    /// With --dir: overwrite pages that exist as regular files (otherwise nothing is written
    /// if one exists)
    #[arg(long, requires = "dir")]
    pub force: bool,
}

pub fn completions(args: CompletionsArgs) -> Result<ExitCode> {
    let mut cmd = crate::Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "twenty48", &mut io::stdout());
    Ok(ExitCode::SUCCESS)
}

/// Every page: (file stem, roff), the main page first.
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>> {
    let cmd = crate::Cli::command();
    let mut pages = Vec::new();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut out)
        .context("cannot render the man page")?;
    pages.push(("twenty48".to_string(), out));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("twenty48-{}", sub.get_name());
        // clap names are &'static str without its `string` feature; a man page run is short.
        let leaked: &'static str = Box::leak(name.clone().into_boxed_str());
        let sub = sub.clone().name(leaked).version(env!("CARGO_PKG_VERSION"));
        let mut out = Vec::new();
        clap_mangen::Man::new(sub)
            .render(&mut out)
            .with_context(|| format!("cannot render the man page of {name}"))?;
        pages.push((name, out));
    }
    Ok(pages)
}

pub fn man(args: ManArgs) -> Result<ExitCode> {
    let pages = man_pages()?;
    if let Some(dir) = &args.dir {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let paths: Vec<PathBuf> = pages
            .iter()
            .map(|(name, _)| dir.join(format!("{name}.1")))
            .collect();
        // Every page is checked before any is written: a refusal leaves DIR as it was.
        for path in &paths {
            crate::destination::check_output(path, args.force)?;
        }
        for (path, (_, page)) in paths.iter().zip(&pages) {
            crate::destination::write_output(path, page, args.force)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let wanted = match &args.subcommand {
        None => "twenty48".to_string(),
        Some(s) => format!("twenty48-{s}"),
    };
    let Some((_, page)) = pages.iter().find(|(n, _)| *n == wanted) else {
        bail!(
            "there is no subcommand {:?} (see twenty48 --help)",
            args.subcommand.unwrap_or_default()
        );
    };
    io::stdout().write_all(page)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_know_every_subcommand() {
        let names: Vec<String> = crate::Cli::command()
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        assert!(names.iter().any(|n| n == "play") && names.iter().any(|n| n == "recover"));
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut crate::Cli::command(), "twenty48", &mut out);
            let text = String::from_utf8(out).unwrap();
            for name in &names {
                assert!(text.contains(name.as_str()), "{shell}: {name} missing");
            }
            assert!(
                text.contains("seed") && text.contains("data-dir"),
                "{shell}: flags missing"
            );
        }
    }

    #[test]
    fn man_pages_are_roff_with_the_exit_codes() {
        let pages = man_pages().unwrap();
        let main = String::from_utf8(pages[0].1.clone()).unwrap();
        assert!(main.starts_with(".ie"), "{}", &main[..40]);
        assert!(main.contains(".TH twenty48 1"), "{main}");
        assert!(main.contains("Exit status"));
        let play = pages.iter().find(|(n, _)| n == "twenty48-play").unwrap();
        let play = String::from_utf8(play.1.clone()).unwrap();
        assert!(
            play.contains(".TH twenty48\\-play 1") || play.contains(".TH twenty48-play 1"),
            "{play}"
        );
        assert!(play.contains("data\\-dir") || play.contains("data-dir"));
        assert_eq!(
            pages.len(),
            1 + crate::Cli::command().get_subcommands().count()
        );
    }
}
