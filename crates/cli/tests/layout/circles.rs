//! Issue 47: the modules of a crate and the paths between them, read from the sources with
//! no compiler: every module (a file, or an inline `mod x { }` block) is a node, and A → B
//! when A's non-test code names a path into B (`use crate::x::y`, `use super::{a, b::c}`,
//! `super::runs::parts(k)`, ...). A name a parent re-exports leads to the module that defines
//! it; a name the parent defines leads to the parent. `mod child;` is no edge, and items under
//! `#[cfg(test)]` are left out. A circle is a strongly connected set of more than one module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::tokens::{tokens, Token};

/// A name a `use` binds (or a glob), and the path it stands for.
#[derive(Debug)]
struct Import {
    binding: Option<String>,
    path: Vec<String>,
}

/// A path a module's code names, where, and as written.
#[derive(Debug)]
struct Named {
    path: Vec<String>,
    line: usize,
    text: String,
}

/// One module: its file (and its name inside the file when it is an inline block).
#[derive(Debug)]
pub struct Module {
    pub file: PathBuf,
    pub inline: Option<String>,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    items: BTreeSet<String>,
    imports: Vec<Import>,
    named: Vec<Named>,
}

impl Module {
    /// The module as a reader finds it: its file, and `mod x` inside it for an inline one.
    pub fn place(&self, root: &Path) -> String {
        // With `/` on every platform, as the map and the messages name files.
        let file = self
            .file
            .strip_prefix(root)
            .unwrap_or(&self.file)
            .display()
            .to_string()
            .replace('\\', "/");
        match &self.inline {
            Some(m) => format!("{file} (mod {m})"),
            None => file,
        }
    }
}

/// The modules of one crate, the first its root.
#[derive(Debug, Default)]
pub struct Crate {
    pub modules: Vec<Module>,
}

/// The crate whose root file is `root`, its files read by `read`.
pub fn read_crate(root: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Crate {
    let mut krate = Crate::default();
    if let Some(text) = read(root) {
        let dir = root.parent().unwrap().to_path_buf();
        krate.file(root, &text, dir, None, read);
    }
    krate
}

impl Crate {
    fn new_module(&mut self, file: &Path, inline: Option<String>, parent: Option<usize>) -> usize {
        self.modules.push(Module {
            file: file.to_path_buf(),
            inline,
            parent,
            children: BTreeMap::new(),
            items: BTreeSet::new(),
            imports: Vec::new(),
            named: Vec::new(),
        });
        self.modules.len() - 1
    }

    /// Reads one file as a module under `parent`; `dir` is where its `mod x;` files are.
    fn file(
        &mut self,
        file: &Path,
        text: &str,
        dir: PathBuf,
        parent: Option<usize>,
        read: &dyn Fn(&Path) -> Option<String>,
    ) -> usize {
        let id = self.new_module(file, None, parent);
        let t = tokens(text);
        let test_only = t.len() >= 7
            && ["#", "!", "[", "cfg", "(", "test", ")"]
                .iter()
                .zip(&t)
                .all(|(s, tok)| tok.is(s));
        if !test_only {
            let mut i = 0;
            self.body(id, &t, &mut i, &dir, read);
        }
        id
    }

    /// Reads a module's body from `t[*i]` to its closing brace (or the end of the file).
    fn body(
        &mut self,
        id: usize,
        t: &[Token],
        i: &mut usize,
        dir: &Path,
        read: &dyn Fn(&Path) -> Option<String>,
    ) {
        let mut depth = 0usize;
        while *i < t.len() {
            let tok = &t[*i];
            if tok.is("#") && is_test_attribute(t, *i) {
                *i = skip_item(t, attribute_end(t, *i));
                continue;
            }
            if tok.is("pub")
                && t.get(*i + 1).is_some_and(|x| x.is("("))
                && t.get(*i + 2).is_some_and(|x| x.is("in"))
            {
                // `pub(in crate::pull)`: who may see an item, not a path its code uses.
                while *i < t.len() && !t[*i].is(")") {
                    *i += 1;
                }
                *i += 1;
                continue;
            }
            if tok.is("{") {
                depth += 1;
            } else if tok.is("}") {
                if depth == 0 {
                    *i += 1;
                    return;
                }
                depth -= 1;
            } else if tok.is("mod") && t.get(*i + 1).is_some_and(Token::is_word) {
                let name = t[*i + 1].text.clone();
                *i += 2;
                if t.get(*i).is_some_and(|x| x.is("{")) {
                    *i += 1;
                    let file = self.modules[id].file.clone();
                    let inline = match &self.modules[id].inline {
                        Some(outer) => format!("{outer}::{name}"),
                        None => name.clone(),
                    };
                    let child = self.new_module(&file, Some(inline), Some(id));
                    self.modules[id].children.insert(name.clone(), child);
                    self.body(child, t, i, &dir.join(&name), read);
                } else {
                    let candidates = [
                        dir.join(format!("{name}.rs")),
                        dir.join(&name).join("mod.rs"),
                    ];
                    if let Some((path, text)) =
                        candidates.iter().find_map(|p| Some((p.clone(), read(p)?)))
                    {
                        let child = self.file(&path, &text, dir.join(&name), Some(id), read);
                        self.modules[id].children.insert(name, child);
                    }
                }
                continue;
            } else if tok.is("use") {
                *i = self.use_declaration(id, t, *i + 1, depth == 0);
                continue;
            } else if depth == 0 && is_item_keyword(&tok.text) {
                if let Some(name) = t.get(*i + 1).filter(|n| n.is_word()) {
                    self.modules[id].items.insert(name.text.clone());
                }
            } else if depth == 0
                && tok.is("macro_rules")
                && t.get(*i + 1).is_some_and(|x| x.is("!"))
            {
                if let Some(name) = t.get(*i + 2) {
                    self.modules[id].items.insert(name.text.clone());
                }
            } else if let Some(end) = self.inline_path(id, t, *i) {
                *i = end;
                continue;
            }
            *i += 1;
        }
    }

    /// A path in code (`super::runs::parts(k)`), recorded if it starts where it may lead
    /// into another module; returns where it ends.
    fn inline_path(&mut self, id: usize, t: &[Token], i: usize) -> Option<usize> {
        let tok = &t[i];
        if !tok.is_word() || !t.get(i + 1).is_some_and(|x| x.is("::")) {
            return None;
        }
        if i > 0 && (t[i - 1].is("::") || t[i - 1].is(".")) {
            return None;
        }
        let mut path = vec![tok.text.clone()];
        if i > 0 && t[i - 1].is("$") && tok.is("crate") {
            path[0] = "crate".into();
        }
        let mut j = i + 1;
        while t.get(j).is_some_and(|x| x.is("::")) && t.get(j + 1).is_some_and(Token::is_word) {
            path.push(t[j + 1].text.clone());
            j += 2;
        }
        let text = path.join("::");
        self.modules[id].named.push(Named {
            path,
            line: tok.line,
            text,
        });
        Some(j)
    }

    /// Reads `use ...;` from just after `use`; returns the index after its `;`.
    fn use_declaration(&mut self, id: usize, t: &[Token], start: usize, top: bool) -> usize {
        let mut end = start;
        while end < t.len() && !t[end].is(";") {
            end += 1;
        }
        let line = t.get(start).map_or(0, |x| x.line);
        let text: String = t[start..end]
            .iter()
            .map(|x| if x.is(",") { ", " } else { x.text.as_str() })
            .collect();
        let mut leaves = Vec::new();
        let mut j = start;
        use_tree(&t[..end], &mut j, Vec::new(), &mut leaves);
        for (path, binding) in leaves {
            let module = &mut self.modules[id];
            module.named.push(Named {
                path: path.clone(),
                line,
                text: format!("use {text}"),
            });
            if top {
                module.imports.push(Import { binding, path });
            }
        }
        end + 1
    }

    /// The module or item a path written in module `id` leads to.
    fn resolve(&self, id: usize, path: &[String], depth: usize) -> Target {
        if depth > 16 || path.is_empty() {
            return Target::Outside;
        }
        let mut at = match path[0].as_str() {
            "crate" => Target::Module(0),
            "super" => self.modules[id]
                .parent
                .map_or(Target::Outside, Target::Module),
            "self" => Target::Module(id),
            "" => Target::Outside,
            first => self.lookup(id, first, depth + 1),
        };
        for segment in &path[1..] {
            let Target::Module(m) = at else {
                break;
            };
            at = match segment.as_str() {
                "super" => self.modules[m]
                    .parent
                    .map_or(Target::Outside, Target::Module),
                "self" => at,
                name => match self.lookup(m, name, depth + 1) {
                    // A name the sources do not show (made by a macro): it is still there.
                    Target::Outside => Target::Item(m),
                    found => found,
                },
            };
        }
        at
    }

    /// What `name` stands for inside module `id`: a child, an item, or what a `use` binds.
    fn lookup(&self, id: usize, name: &str, depth: usize) -> Target {
        let m = &self.modules[id];
        if let Some(&child) = m.children.get(name) {
            return Target::Module(child);
        }
        if m.items.contains(name) {
            return Target::Item(id);
        }
        for import in &m.imports {
            if import.binding.as_deref() == Some(name) {
                return self.resolve(id, &import.path, depth + 1);
            }
        }
        for import in m.imports.iter().filter(|x| x.binding.is_none()) {
            if let Target::Module(g) = self.resolve(id, &import.path, depth + 1) {
                if g != id {
                    if let found @ (Target::Module(_) | Target::Item(_)) =
                        self.lookup(g, name, depth + 1)
                    {
                        return found;
                    }
                }
            }
        }
        Target::Outside
    }

    /// Every edge between two modules, with the paths that make it (line and text).
    pub fn edges(&self) -> BTreeMap<(usize, usize), BTreeSet<(usize, String)>> {
        let mut edges: BTreeMap<(usize, usize), BTreeSet<(usize, String)>> = BTreeMap::new();
        for (id, m) in self.modules.iter().enumerate() {
            for named in &m.named {
                let to = match self.resolve(id, &named.path, 0) {
                    Target::Module(to) | Target::Item(to) => to,
                    Target::Outside => continue,
                };
                if to != id {
                    edges
                        .entry((id, to))
                        .or_default()
                        .insert((named.line, named.text.clone()));
                }
            }
        }
        edges
    }

    /// The circles: strongly connected sets of more than one module (Tarjan's algorithm).
    pub fn circles(&self) -> Vec<Vec<usize>> {
        let n = self.modules.len();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in self.edges().keys() {
            next[a].push(b);
        }
        let mut s = Tarjan {
            next,
            index: vec![None; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            counter: 0,
            sets: Vec::new(),
        };
        for v in 0..n {
            if s.index[v].is_none() {
                s.visit(v);
            }
        }
        s.sets.into_iter().filter(|c| c.len() > 1).collect()
    }

    /// A circle as a reader fixes it: its files, and each edge inside it with its paths.
    pub fn describe(&self, circle: &[usize], root: &Path) -> String {
        let mut out = String::from("a circle between:\n");
        for &m in circle {
            out += &format!("    {}\n", self.modules[m].place(root));
        }
        for ((a, b), paths) in self.edges() {
            if circle.contains(&a) && circle.contains(&b) {
                out += &format!(
                    "  {} -> {}:\n",
                    self.modules[a].place(root),
                    self.modules[b].place(root)
                );
                for (line, text) in paths {
                    out += &format!("      line {line}: {text}\n");
                }
            }
        }
        out
    }
}

#[derive(Debug, Clone, Copy)]
enum Target {
    Module(usize),
    Item(usize),
    Outside,
}

struct Tarjan {
    next: Vec<Vec<usize>>,
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    counter: usize,
    sets: Vec<Vec<usize>>,
}

impl Tarjan {
    fn visit(&mut self, v: usize) {
        self.index[v] = Some(self.counter);
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for w in self.next[v].clone() {
            match self.index[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut set = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                set.push(w);
                if w == v {
                    break;
                }
            }
            set.sort();
            self.sets.push(set);
        }
    }
}

fn is_item_keyword(word: &str) -> bool {
    matches!(
        word,
        "struct" | "enum" | "union" | "trait" | "type" | "fn" | "const" | "static"
    )
}

/// Whether the attribute at `t[i]` is `#[cfg(test)]` or `#[cfg(all(test, ..))]`.
fn is_test_attribute(t: &[Token], i: usize) -> bool {
    let words: Vec<&str> = t[i..t.len().min(i + 7)]
        .iter()
        .map(|x| x.text.as_str())
        .collect();
    words.starts_with(&["#", "[", "cfg", "(", "test", ")", "]"])
        || words.starts_with(&["#", "[", "cfg", "(", "all", "(", "test"])
}

/// The index just after the attribute starting at `t[i]` (`#[ ... ]`).
fn attribute_end(t: &[Token], i: usize) -> usize {
    let mut depth = 0;
    for (j, tok) in t.iter().enumerate().skip(i + 1) {
        if tok.is("[") {
            depth += 1;
        } else if tok.is("]") {
            depth -= 1;
            if depth == 0 {
                return j + 1;
            }
        }
    }
    t.len()
}

/// The index just after the item starting at `t[i]`: its `;`, or its body's closing brace.
fn skip_item(t: &[Token], mut i: usize) -> usize {
    // Further attributes of the same item.
    while t.get(i).is_some_and(|x| x.is("#")) {
        i = attribute_end(t, i);
    }
    let mut depth = 0i32;
    while i < t.len() {
        match t[i].text.as_str() {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            ";" if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// The leaves of a use tree from `t[*j]`: each path and the name it binds (`None` for `*`).
fn use_tree(
    t: &[Token],
    j: &mut usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    if t.get(*j).is_some_and(|x| x.is("::")) {
        // `::name`: an outside crate.
        prefix.push(String::new());
        *j += 1;
    }
    while let Some(tok) = t.get(*j) {
        if tok.is("{") {
            *j += 1;
            while t.get(*j).is_some_and(|x| !x.is("}")) {
                use_tree(t, j, prefix.clone(), out);
                if t.get(*j).is_some_and(|x| x.is(",")) {
                    *j += 1;
                }
            }
            *j += 1;
            return;
        }
        if tok.is("*") {
            *j += 1;
            out.push((prefix, None));
            return;
        }
        if !tok.is_word() {
            return;
        }
        let name = tok.text.clone();
        *j += 1;
        if t.get(*j).is_some_and(|x| x.is("::")) {
            prefix.push(name);
            *j += 1;
            continue;
        }
        let mut binding = if name == "self" {
            prefix.last().cloned().unwrap_or_default()
        } else {
            name.clone()
        };
        if name != "self" {
            prefix.push(name);
        }
        if t.get(*j).is_some_and(|x| x.is("as")) {
            binding = t.get(*j + 1).map_or(binding, |x| x.text.clone());
            *j += 2;
        }
        out.push((prefix, Some(binding)));
        return;
    }
}

/// Reads sample sources: `files` maps each path to its text.
pub fn in_memory(files: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> {
    let files: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    move |p: &Path| files.get(p).cloned()
}
