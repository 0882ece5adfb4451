//! Rust source as tokens, for the circle check (circles.rs): no compiler, no dependency.

/// A word, a `::`, a one-character mark, or a literal (its text left out), and its line.
#[derive(Debug, Clone)]
pub struct Token {
    pub text: String,
    pub line: usize,
}

impl Token {
    pub fn new(text: &str, line: usize) -> Token {
        Token {
            text: text.to_string(),
            line,
        }
    }

    pub fn is(&self, s: &str) -> bool {
        self.text == s
    }

    pub fn is_word(&self) -> bool {
        self.text
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    }
}

/// Rust source as tokens, without comments, and with strings and characters as `""`.
pub fn tokens(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let word = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let start_line = line;
        let ch = c[i];
        let next = c.get(i + 1).copied().unwrap_or(' ');
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if let Some(len) = raw_string_start(&c[i..]) {
            // r"..", r#".."#, br#".."#: ends at a quote followed by as many hashes.
            let hashes = c[i..i + len].iter().filter(|&&h| h == '#').count();
            i += len;
            while i < c.len() {
                if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                line += usize::from(c[i] == '\n');
                i += 1;
            }
            out.push(Token::new("\"\"", start_line));
        } else if ch == '"' || ((ch == 'b' || ch == 'c') && next == '"') {
            i += if ch == '"' { 1 } else { 2 };
            while i < c.len() && c[i] != '"' {
                line += usize::from(c[i] == '\n');
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Token::new("\"\"", start_line));
        } else if ch == '\'' || (ch == 'b' && next == '\'') {
            let q = if ch == '\'' { i } else { i + 1 };
            let after = c.get(q + 1).copied().unwrap_or(' ');
            if after == '\\' {
                // An escape: its first character may be a quote (`'\''`).
                i = q + 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(Token {
                    text: "\"\"".into(),
                    line,
                });
            } else if c.get(q + 2) == Some(&'\'') {
                i = q + 3;
                out.push(Token {
                    text: "\"\"".into(),
                    line,
                });
            } else {
                // A lifetime or a label.
                i = q + 1;
                while i < c.len() && word(c[i]) {
                    i += 1;
                }
            }
        } else if ch == 'r' && next == '#' && c.get(i + 2).is_some_and(|&n| word(n)) {
            let s = i + 2;
            i = s;
            while i < c.len() && word(c[i]) {
                i += 1;
            }
            out.push(Token::new(&c[s..i].iter().collect::<String>(), line));
        } else if word(ch) {
            let s = i;
            while i < c.len() && word(c[i]) {
                i += 1;
            }
            out.push(Token::new(&c[s..i].iter().collect::<String>(), line));
        } else if ch == ':' && next == ':' {
            out.push(Token::new("::", line));
            i += 2;
        } else {
            out.push(Token::new(&ch.to_string(), line));
            i += 1;
        }
    }
    out
}

/// The length of a raw string's opening (`r#"` is 3), if one starts here.
fn raw_string_start(c: &[char]) -> Option<usize> {
    let mut i = usize::from(c.first() == Some(&'b'));
    if c.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    while c.get(i) == Some(&'#') {
        i += 1;
    }
    (c.get(i) == Some(&'"')).then_some(i + 1)
}
