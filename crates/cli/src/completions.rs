//! `twenty48 completions` and `twenty48 man`: shell completions and a man page, generated
//! from the same clap definitions as `--help`.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use clap_complete::Shell;

/// Print a shell completion script.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  twenty48 completions bash > ~/.local/share/bash-completion/completions/twenty48
  mkdir -p ~/.zfunc
  twenty48 completions zsh > ~/.zfunc/_twenty48
  mkdir -p ~/.config/fish/completions
  twenty48 completions fish > ~/.config/fish/completions/twenty48.fish

zsh also needs the folder on its function path, before compinit, in ~/.zshrc:
  fpath=(~/.zfunc $fpath)
  autoload -Uz compinit && compinit")]
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
  twenty48 man > twenty48.1                      (then: man -l twenty48.1)
  twenty48 man play > twenty48-play.1
  twenty48 man --dir ~/.local/share/man/man1     (then: man twenty48-play)")]
pub struct ManArgs {
    /// A subcommand's page instead of the main one
    pub subcommand: Option<String>,
    /// Write all pages (twenty48.1, twenty48-play.1, ...) into this directory
    #[arg(
        short = 'o',
        long,
        alias = "output",
        value_name = "DIR",
        conflicts_with = "subcommand"
    )]
    pub dir: Option<PathBuf>,
    /// With --dir: overwrite pages that exist as regular files (otherwise nothing is written
    /// if one exists)
    #[arg(long, requires = "dir")]
    pub force: bool,
}

/// Prints the completions of `cmd`, the whole command line's definition.
pub fn completions(args: CompletionsArgs, mut cmd: clap::Command) -> Result<ExitCode> {
    clap_complete::generate(args.shell, &mut cmd, "twenty48", &mut io::stdout());
    Ok(ExitCode::SUCCESS)
}

/// One man page: clap_mangen's sections, then the text after `--help`'s options as sections
/// of their own (EXIT STATUS, EXAMPLES, JSON, FILES, NOTES) instead of one "EXTRA", and SEE
/// ALSO naming the other pages.
fn render(cmd: clap::Command, see_also: &[String]) -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut out)?;
    }
    if let Some(after) = cmd.get_after_help() {
        out.extend_from_slice(after_help_roff(&after.to_string()).as_bytes());
    }
    if !see_also.is_empty() {
        let pages: Vec<String> = see_also
            .iter()
            .map(|p| format!("{}(1)", roff_text(p)))
            .collect();
        out.extend_from_slice(format!(".SH \"SEE ALSO\"\n{}\n", pages.join(", ")).as_bytes());
    }
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// Text for roff: backslashes and minus signs escaped, no line starting with a control
/// character.
fn roff_text(line: &str) -> String {
    let text = line.replace('\\', "\\e").replace('-', "\\-");
    if text.starts_with(['.', '\'']) {
        format!("\\&{text}")
    } else {
        text
    }
}

/// `--help`'s closing text as man sections: each paragraph that opens with `Examples:`,
/// `Exit status:`, `JSON shape` or `Files:` becomes that section; any other is a note.
fn after_help_roff(text: &str) -> String {
    let mut out = String::new();
    for paragraph in text.split("\n\n") {
        let (title, body) = match paragraph.split_once('\n') {
            Some((first, rest)) if first.ends_with(':') => (first.trim_end_matches(':'), rest),
            _ => ("", paragraph),
        };
        let section = match title {
            "Examples" => "EXAMPLES",
            "Exit status" => "\"EXIT STATUS\"",
            "Files" => "FILES",
            _ if paragraph.starts_with("JSON shape") => "JSON",
            _ if paragraph.starts_with("Exit status") => "\"EXIT STATUS\"",
            _ => "NOTES",
        };
        let body = if section == "NOTES" || section == "JSON" || title.is_empty() {
            paragraph
        } else {
            body
        };
        out.push_str(&format!(".SH {section}\n.nf\n"));
        for line in body.lines() {
            out.push_str(&roff_text(line.strip_prefix("  ").unwrap_or(line)));
            out.push('\n');
        }
        out.push_str(".fi\n");
    }
    out
}

/// Every page of `cmd`, the whole command line's definition: (file stem, roff), the main
/// page first.
pub fn man_pages(cmd: clap::Command) -> Result<Vec<(String, Vec<u8>)>> {
    let mut pages = Vec::new();
    let names: Vec<String> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| format!("twenty48-{}", s.get_name()))
        .collect();
    let out = render(cmd.clone(), &names).context("cannot render the man page")?;
    pages.push(("twenty48".to_string(), out));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("twenty48-{}", sub.get_name());
        // clap names are &'static str without its `string` feature; a man page run is short.
        let leaked: &'static str = Box::leak(name.clone().into_boxed_str());
        let sub = sub.clone().name(leaked).version(env!("CARGO_PKG_VERSION"));
        let out = render(sub, &["twenty48".to_string()])
            .with_context(|| format!("cannot render the man page of {name}"))?;
        pages.push((name, out));
    }
    Ok(pages)
}

pub fn man(args: ManArgs, cmd: clap::Command) -> Result<ExitCode> {
    let pages = man_pages(cmd)?;
    if let Some(dir) = &args.dir {
        // The error names the directory.
        twenty48_movelog::create_dirs(dir)?;
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
    let mut out = crate::output::stdout();
    out.write_all(page)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

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
        let pages = man_pages(crate::Cli::command()).unwrap();
        let main = String::from_utf8(pages[0].1.clone()).unwrap();
        assert!(main.starts_with(".ie"), "{}", &main[..40]);
        assert!(main.contains(".TH twenty48 1"), "{main}");
        assert!(main.contains(".SH \"EXIT STATUS\""), "{main}");
        assert!(main.contains(".SH EXAMPLES"));
        assert!(
            !main.contains("EXTRA") && !main.contains("twenty48\\-help"),
            "{main}"
        );
        for (name, page) in &pages {
            let page = String::from_utf8(page.clone()).unwrap();
            assert!(!page.contains(".SH EXTRA"), "{name}");
        }
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
