//! Progress bars on stderr, with rate and ETA, for long commands (`verify`, `stats`, `pull`,
//! `record --bot`).
//!
//! Drawn only when stderr is a terminal: in a pipe, a log file or CI they print nothing, so
//! machine-read output stays clean. Safe to update from several threads.
//!
//! ```text
//! let progress = Progress::counter(files.len() as u64, "verifying", "files");
//! for f in files { check(f); progress.inc(1); }
//! progress.finish();
//! ```

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar (or, with no known total, a spinner) on stderr.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for `total` items: `verifying [=====>    ] 120/400 files  35/s  ETA 8s`.
    pub fn counter(total: u64, verb: &str, unit: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template =
            format!("{verb} [{{bar:30}}] {{pos}}/{{len}} {unit}  {{rate}}  ETA {{eta}}  {{msg}}");
        bar.set_style(
            with_rate(ProgressStyle::with_template(&template).expect("the template is valid"))
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar }
    }

    /// A spinner for an unknown number of items: `pulling ⠋ 12 games  3/s  msg`.
    pub fn spinner(verb: &str, unit: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let template = format!("{verb} {{spinner}} {{pos}} {unit}  {{rate}}  {{msg}}");
        bar.set_style(with_rate(
            ProgressStyle::with_template(&template).expect("the template is valid"),
        ));
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar }
    }

    /// Whether anything is drawn (stderr is a terminal).
    pub fn is_visible(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// Counts `n` more items done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Shows a short message after the counts (for example the current file).
    pub fn message(&self, text: impl Into<String>) {
        self.bar.set_message(text.into());
    }

    /// Prints a line above the bar (or plainly, when the bar is hidden).
    pub fn println(&self, line: impl AsRef<str>) {
        if self.is_visible() {
            self.bar.println(line);
        } else {
            eprintln!("{}", line.as_ref());
        }
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// The `{rate}` key: items a second as a whole number (`100/s`), or with one decimal below
/// 10 (`2.5/s`); indicatif's own `{per_sec}` prints four decimals (`99.5545/s`).
fn with_rate(style: ProgressStyle) -> ProgressStyle {
    style.with_key(
        "rate",
        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&rate_text(state.per_sec()));
        },
    )
}

fn rate_text(per_sec: f64) -> String {
    if per_sec < 10.0 {
        format!("{per_sec:.1}/s")
    } else {
        format!("{per_sec:.0}/s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_when_stderr_is_not_a_terminal() {
        // Tests run with stderr captured or piped: nothing may be drawn.
        use std::io::IsTerminal;
        let p = Progress::counter(10, "verifying", "files");
        p.inc(3);
        assert_eq!(p.is_visible(), std::io::stderr().is_terminal());
        assert_eq!(p.bar.position(), 3);
        p.finish();
    }

    #[test]
    fn rates_are_short() {
        assert_eq!(rate_text(99.5545), "100/s");
        assert_eq!(rate_text(2.54), "2.5/s");
        assert_eq!(rate_text(0.0), "0.0/s");
    }
}
