//! The best score of each rule set, kept in a small text file in the user's data directory.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use twenty48_engine::Rules;
use twenty48_movelog::write_atomic;

/// The file name of the best-score store inside the data directory.
pub const BEST_FILE: &str = "best-scores.txt";

const HEADER: &str = "# twenty48 best scores: score, a tab, then the rule set";

/// The data directory: `$TWENTY48_DATA_DIR`, else, on Windows, `%APPDATA%\twenty48`;
/// elsewhere `$XDG_DATA_HOME/twenty48`, else `$HOME/.local/share/twenty48` (relative paths in
/// these variables are ignored, as the XDG specification says). `None` when none of them is
/// set ([`DATA_DIR_VARS`] names them for an error).
///
/// ```
/// # #[cfg(unix)] {
/// use std::path::PathBuf;
/// let env = |name: &str| (name == "HOME").then(|| "/home/ann".to_string());
/// assert_eq!(twenty48_tui::data_dir(env), Some(PathBuf::from("/home/ann/.local/share/twenty48")));
/// # }
/// ```
pub fn data_dir(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    if let Some(dir) = set("TWENTY48_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    let absolute = |name: &str| set(name).filter(|v| Path::new(v).is_absolute());
    if cfg!(windows) {
        return absolute("APPDATA").map(|appdata| Path::new(&appdata).join("twenty48"));
    }
    if let Some(xdg) = absolute("XDG_DATA_HOME") {
        return Some(Path::new(&xdg).join("twenty48"));
    }
    set("HOME").map(|home| Path::new(&home).join(".local/share/twenty48"))
}

/// The environment variables [`data_dir`] reads on this platform, in words for an error.
pub const DATA_DIR_VARS: &str = if cfg!(windows) {
    "TWENTY48_DATA_DIR or APPDATA"
} else {
    "TWENTY48_DATA_DIR, XDG_DATA_HOME or HOME"
};

/// Why the best scores could not be read or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The file exists but cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not a best-score file (it will be replaced on the next save).
    Damaged {
        /// The file.
        path: PathBuf,
        /// The first line (1-based) that makes no sense.
        line: usize,
    },
    /// The file cannot be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Read { path, source } => {
                write!(f, "cannot read the best scores in {}: {source}", path.display())
            }
            StoreError::Damaged { path, line } => write!(
                f,
                "the best scores in {} are damaged (line {line}); starting afresh, the file will be replaced",
                path.display()
            ),
            StoreError::Write { path, source } => {
                write!(f, "cannot save the best scores to {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Read { source, .. } | StoreError::Write { source, .. } => Some(source),
            StoreError::Damaged { .. } => None,
        }
    }
}

/// Best scores by rule set. The key is the rule set's one-line description
/// (`4x4, four 1/10, ...`), so custom rules get their own best score.
///
/// ```
/// use twenty48_engine::Rules;
/// use twenty48_tui::BestScores;
///
/// let dir = std::env::temp_dir().join(format!("t48-best-doc-{}", std::process::id()));
/// let (mut best, problem) = BestScores::load(&dir);
/// assert!(problem.is_none());
/// assert!(best.record(&Rules::CLASSIC, 500));
/// assert!(!best.record(&Rules::CLASSIC, 400));
/// best.save().unwrap();
/// let (again, _) = BestScores::load(&dir);
/// assert_eq!(again.best(&Rules::CLASSIC), 500);
/// assert_eq!(again.best(&Rules::ARDUINO), 0);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct BestScores {
    path: PathBuf,
    scores: BTreeMap<String, u64>,
}

impl BestScores {
    /// Reads the store in `dir`. A missing file is an empty store; an unreadable or damaged
    /// one is an empty store plus the problem, to report (never a failure: the game goes on
    /// and the next save replaces the file).
    pub fn load(dir: &Path) -> (BestScores, Option<StoreError>) {
        let path = dir.join(BEST_FILE);
        let mut store = BestScores {
            path: path.clone(),
            scores: BTreeMap::new(),
        };
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (store, None),
            Err(source) => return (store, Some(StoreError::Read { path, source })),
        };
        let damaged = |line| {
            Some(StoreError::Damaged {
                path: path.clone(),
                line,
            })
        };
        let Ok(text) = String::from_utf8(bytes) else {
            return (store, damaged(1));
        };
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let parsed = line
                .split_once('\t')
                .and_then(|(score, rules)| Some((score.parse::<u64>().ok()?, rules)));
            match parsed {
                Some((score, rules)) if !rules.is_empty() => {
                    let entry = store.scores.entry(rules.to_string()).or_insert(0);
                    *entry = (*entry).max(score);
                }
                _ => {
                    store.scores.clear();
                    return (store, damaged(i + 1));
                }
            }
        }
        (store, None)
    }

    /// The file this store is kept in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The best score under `rules` (0 if none yet).
    pub fn best(&self, rules: &Rules) -> u64 {
        self.scores.get(&rules.to_string()).copied().unwrap_or(0)
    }

    /// Notes a score; returns whether it beats the best so far.
    pub fn record(&mut self, rules: &Rules, score: u64) -> bool {
        let entry = self.scores.entry(rules.to_string()).or_insert(0);
        if score > *entry {
            *entry = score;
            true
        } else {
            false
        }
    }

    /// Writes the store atomically (creating the directory if needed).
    pub fn save(&self) -> Result<(), StoreError> {
        let write = |source| StoreError::Write {
            path: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent() {
            twenty48_movelog::create_dirs(dir).map_err(|e| write(e.into_cause()))?;
        }
        let mut text = String::from(HEADER);
        text.push('\n');
        for (rules, score) in &self.scores {
            text.push_str(&format!("{score}\t{rules}\n"));
        }
        write_atomic(&self.path, text.as_bytes()).map_err(|e| write(e.into_cause()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("t48-best-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn damaged_file_is_reported_and_replaced() {
        let dir = temp("damaged");
        fs::write(dir.join(BEST_FILE), "# ok\n12\tclassic\nnot a score line\n").unwrap();
        let (mut store, problem) = BestScores::load(&dir);
        let problem = problem.expect("damage reported");
        assert!(matches!(problem, StoreError::Damaged { line: 3, .. }));
        assert!(
            problem.to_string().contains("damaged (line 3)"),
            "{problem}"
        );
        assert_eq!(store.best(&Rules::CLASSIC), 0);
        store.record(&Rules::CLASSIC, 64);
        store.save().unwrap();
        let (again, problem) = BestScores::load(&dir);
        assert!(problem.is_none());
        assert_eq!(again.best(&Rules::CLASSIC), 64);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn binary_garbage_is_damage_not_a_crash() {
        let dir = temp("binary");
        fs::write(dir.join(BEST_FILE), [0xff, 0xfe, 0x00, 0x80]).unwrap();
        let (store, problem) = BestScores::load(&dir);
        assert!(matches!(problem, Some(StoreError::Damaged { line: 1, .. })));
        assert_eq!(store.best(&Rules::ARDUINO), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scores_are_kept_per_rule_set() {
        let dir = temp("per-rules");
        let (mut store, _) = BestScores::load(&dir.join("sub"));
        store.record(&Rules::CLASSIC, 10);
        store.record(&Rules::CONSOLE, 30);
        store.save().unwrap();
        let (again, _) = BestScores::load(&dir.join("sub"));
        assert_eq!(again.best(&Rules::CLASSIC), 10);
        assert_eq!(again.best(&Rules::CONSOLE), 30);
        assert_eq!(again.best(&Rules::ARDUINO), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(windows)]
    #[test]
    fn data_dir_is_the_override_then_appdata_on_windows() {
        let env = crate::test_env;
        assert_eq!(
            data_dir(env(&[("TWENTY48_DATA_DIR", "D:\\x"), ("APPDATA", "C:\\a")])),
            Some(PathBuf::from("D:\\x"))
        );
        assert_eq!(
            data_dir(env(&[
                ("APPDATA", "C:\\Users\\ann\\AppData\\Roaming"),
                ("HOME", "/h")
            ])),
            Some(PathBuf::from("C:\\Users\\ann\\AppData\\Roaming\\twenty48"))
        );
        assert_eq!(
            data_dir(env(&[("APPDATA", "rel"), ("HOME", "C:\\h")])),
            None
        );
        assert_eq!(data_dir(env(&[])), None);
    }

    #[cfg(not(windows))]
    #[test]
    fn data_dir_prefers_the_override_then_xdg() {
        let env = crate::test_env;
        assert_eq!(
            data_dir(env(&[("TWENTY48_DATA_DIR", "/x"), ("HOME", "/h")])),
            Some(PathBuf::from("/x"))
        );
        assert_eq!(
            data_dir(env(&[("XDG_DATA_HOME", "/d"), ("HOME", "/h")])),
            Some(PathBuf::from("/d/twenty48"))
        );
        assert_eq!(
            data_dir(env(&[("XDG_DATA_HOME", "rel"), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.local/share/twenty48"))
        );
        assert_eq!(data_dir(env(&[])), None);
    }
}
