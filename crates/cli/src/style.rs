//! How the commands print: in colour or not (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`), and
//! how much (`-q`).
//!
//! The rule is the one ripgrep, fd and bat follow: `--color always` and `--color never` win;
//! with `auto` (the default) a non-empty `NO_COLOR` turns colour off, a `CLICOLOR_FORCE`
//! other than `0` turns it on, and otherwise standard output gets colour only when it is a
//! terminal whose `TERM` is not `dumb`.

use clap::ValueEnum;

/// `--color`: when to colour the output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it)
    #[default]
    Auto,
    /// Always colour
    Always,
    /// Never colour
    Never,
}

/// What every command is told about its output.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ui {
    /// The `--color` choice as given.
    pub choice: ColorChoice,
    /// Whether standard output is coloured.
    pub color: bool,
    /// `-q`: print nothing on success; failures and errors still are.
    pub quiet: bool,
}

impl Ui {
    /// The settings for this process: `--color` and `-q` with the environment and whether
    /// standard output is a terminal.
    pub fn new(choice: ColorChoice, quiet: bool) -> Ui {
        use std::io::IsTerminal;
        let color = colored(
            choice,
            |name| std::env::var(name).ok(),
            std::io::stdout().is_terminal(),
        );
        Ui {
            choice,
            color,
            quiet,
        }
    }

    /// The play screens' colours: `never` or NO_COLOR give none; `always` or CLICOLOR_FORCE
    /// give at least the 16 basic colours even where TERM says less.
    pub fn screen_colors(&self) -> twenty48_tui::ColorMode {
        use twenty48_tui::ColorMode;
        let env = |name: &str| std::env::var(name).ok();
        let detected = ColorMode::detect(env);
        let forced = match self.choice {
            ColorChoice::Never => return ColorMode::None,
            ColorChoice::Always => true,
            ColorChoice::Auto => {
                if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                    return ColorMode::None;
                }
                env("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0")
            }
        };
        if forced && detected == ColorMode::None {
            ColorMode::Ansi16
        } else {
            detected
        }
    }

    /// `text` in green (a verdict that holds).
    pub fn good(&self, text: &str) -> String {
        self.paint("32", text)
    }

    /// `text` in bold red (a failure).
    pub fn bad(&self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// `text` in yellow (a difference, a warning).
    pub fn notice(&self, text: &str) -> String {
        self.paint("33", text)
    }

    fn paint(&self, sgr: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// Whether output is coloured under `choice`, an environment and a terminal or not.
fn colored(choice: ColorChoice, var: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                false
            } else if var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
                true
            } else {
                terminal && var("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// `1 move`, `2 moves`: a count with its noun, singular or plural.
pub fn count(n: impl Into<u64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_colour_rules_of_ripgrep_and_bat() {
        use ColorChoice::*;
        assert!(colored(Auto, env(&[("TERM", "xterm")]), true));
        assert!(!colored(Auto, env(&[("TERM", "xterm")]), false));
        assert!(!colored(Auto, env(&[("TERM", "dumb")]), true));
        assert!(!colored(Auto, env(&[("NO_COLOR", "1")]), true));
        assert!(colored(Auto, env(&[("NO_COLOR", "")]), true));
        assert!(colored(Auto, env(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!colored(Auto, env(&[("CLICOLOR_FORCE", "0")]), false));
        assert!(!colored(
            Auto,
            env(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]),
            true
        ));
        assert!(colored(Always, env(&[("NO_COLOR", "1")]), false));
        assert!(!colored(Never, env(&[("CLICOLOR_FORCE", "1")]), true));
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1u32, "move", "moves"), "1 move");
        assert_eq!(count(0u32, "move", "moves"), "0 moves");
        assert_eq!(count(71u64, "byte", "bytes"), "71 bytes");
    }
}
