//! How the workspace's files depend on each other: no two files import each other (issue 44).
//!
//! Every crate of the repository is read from its root (`mod` declarations, `#[path]`
//! included). A file imports what its `use` declarations name (`use a::{b, c::{d, e}}`
//! included), what the paths written out in its code name (`crate::quant::QA`) and what its
//! intra-doc links name (documentation that links to a file depends on it as code does).
//! Each of those paths is resolved to the file that defines the item, through `crate::`,
//! `super::`, `self::` and the crate's own re-exports (`pub use`, globs), so importing a name
//! through `search/mod.rs` counts as importing the file that defines it.
//!
//! Two kinds of link are left out. A file and the files of the modules it declares are one
//! room: a child reaches its parent's items through `super::` and the parent re-exports or
//! uses its children's. And `#[cfg(test)]` modules may use a neighbour to check their own file
//! against; the rule is about the library's structure.
//!
//! A plain reader of the source is enough for this (no `syn`): the grammar of `use` is small,
//! and comments, strings and characters are all the reader has to step over.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// What the reader keeps of Rust source: names (keywords and numbers included), string
/// literals (for `#[path = "…"]`), `::` and single punctuation. Comments, characters and
/// lifetimes are dropped.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Name(String),
    Text(String),
    PathSep,
    Punct(char),
    /// The path of an intra-doc link (`[`Item`](crate::module::Item)`, `[crate::module]`):
    /// documentation that names another file's item depends on it as code does.
    DocLink(Vec<String>),
}

/// The paths the links of one line of documentation point at: `[text](path)`, `[path]` and
/// `` [`path`] ``, without web addresses, disambiguators (`fn@`) or call parentheses.
fn doc_links(line: &str) -> Vec<Vec<String>> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(']') else {
            break;
        };
        let inside = &rest[..close];
        rest = &rest[close + 1..];
        if let Some(after) = rest.strip_prefix('(') {
            if let Some(end) = after.find(')') {
                targets.push(&after[..end]);
                rest = &after[end + 1..];
            }
        } else {
            targets.push(inside);
        }
    }
    // A link whose text began on an earlier line: `…](path)`.
    if let Some(start) = line.find("](")
        && !line[..start].contains('[')
        && let Some(end) = line[start + 2..].find(')')
    {
        targets.push(&line[start + 2..start + 2 + end]);
    }
    targets
        .into_iter()
        .filter_map(|target| {
            let target = target.trim().trim_matches('`');
            let target = target.split_once('@').map_or(target, |(_, path)| path);
            let target = target.trim_end_matches("()").trim_end_matches('!');
            let segments: Vec<String> = target.split("::").map(str::to_string).collect();
            let is_path = segments.len() > 1
                && segments.iter().all(|segment| {
                    !segment.is_empty() && segment.chars().all(|c| c.is_alphanumeric() || c == '_')
                });
            is_path.then_some(segments)
        })
        .collect()
}

fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            let start = i;
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            let comment: String = chars[start..i].iter().collect();
            let documentation = comment.strip_prefix("//!").or_else(|| {
                comment
                    .strip_prefix("///")
                    .filter(|text| !text.starts_with('/'))
            });
            if let Some(text) = documentation {
                out.extend(doc_links(text).into_iter().map(Token::DocLink));
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            let (text, end) = quoted(&chars, i + 1);
            out.push(Token::Text(text));
            i = end;
        } else if c == '\'' {
            // A character ('x', '\n', '\u{1F600}') or a lifetime ('a), which has no closing quote.
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            let after = chars.get(i).copied();
            if matches!(name.as_str(), "r" | "br" | "cr") && matches!(after, Some('"' | '#')) {
                let mut hashes = 0;
                while chars.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                let start = i;
                let closed = |at: usize| {
                    chars[at] == '"' && (1..=hashes).all(|k| chars.get(at + k) == Some(&'#'))
                };
                while i < chars.len() && !closed(i) {
                    i += 1;
                }
                out.push(Token::Text(
                    chars[start..i.min(chars.len())].iter().collect(),
                ));
                i += 1 + hashes;
            } else if matches!(name.as_str(), "b" | "c") && after == Some('"') {
                let (text, end) = quoted(&chars, i + 1);
                out.push(Token::Text(text));
                i = end;
            } else if name == "b" && after == Some('\'') {
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            } else {
                out.push(Token::Name(name));
            }
        } else if c == ':' && next == Some(':') {
            out.push(Token::PathSep);
            i += 2;
        } else {
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

/// The text of a string literal whose body starts at `start`, and the index after its quote.
fn quoted(chars: &[char], start: usize) -> (String, usize) {
    let mut i = start;
    let mut text = String::new();
    while i < chars.len() && chars[i] != '"' {
        if chars[i] == '\\' {
            i += 1;
        }
        if let Some(&c) = chars.get(i) {
            text.push(c);
        }
        i += 1;
    }
    (text, i + 1)
}

/// One name a `use` declaration brings in: the path it names (from the module it is written
/// in) and the name it is known by there, or every public name of a module (a glob).
#[derive(Debug)]
struct Import {
    path: Vec<String>,
    /// `None` for a glob (`path::*`).
    alias: Option<String>,
}

/// A module of a crate: its file, where its children's files live, and its names.
#[derive(Debug)]
struct Module {
    file: usize,
    parent: Option<usize>,
    /// The directory of the files of `mod child;` declared here.
    dir: PathBuf,
    children: BTreeMap<String, usize>,
    /// A `#[cfg(test)]` module, or one inside it.
    test: bool,
    /// Items defined here (types, functions, constants, macros …), by name.
    items: BTreeSet<String>,
    /// The module-level `use` declarations, which other modules' paths may go through.
    imports: Vec<Import>,
}

/// Where a path leads: a module, or an item defined in a module's file.
#[derive(Clone, Copy, Debug)]
enum Target {
    Module(usize),
    Item(usize),
}

/// One crate's module tree and every `use` in it.
struct Crate {
    files: Vec<PathBuf>,
    modules: Vec<Module>,
    /// Each import (a `use` at module level or inside a block, a path in the code, an
    /// intra-doc link): the file it is in, the module it is resolved from and its path.
    uses: Vec<(usize, usize, Vec<String>)>,
}

impl Crate {
    fn read(root: &Path) -> Crate {
        let mut krate = Crate {
            files: Vec::new(),
            modules: Vec::new(),
            uses: Vec::new(),
        };
        krate.read_file(root, None, None, true, false);
        krate
    }

    /// Reads the file of a module (the crate root, or `mod name;` in module `parent`).
    fn read_file(
        &mut self,
        path: &Path,
        parent: Option<usize>,
        name: Option<&str>,
        owns_dir: bool,
        test: bool,
    ) {
        let source = std::fs::read_to_string(path)
            .unwrap_or_else(|error| panic!("{} cannot be read: {error}", path.display()));
        let file = self.files.len();
        self.files.push(path.to_path_buf());
        let here = path.parent().expect("a file has a directory");
        let dir = if owns_dir {
            here.to_path_buf()
        } else {
            here.join(path.file_stem().expect("a file has a name"))
        };
        let module = self.add_module(file, parent, name, dir, test);
        let tokens = tokens(&source);
        let mut at = 0;
        self.read_items(&tokens, &mut at, file, module, false);
    }

    fn add_module(
        &mut self,
        file: usize,
        parent: Option<usize>,
        name: Option<&str>,
        dir: PathBuf,
        test: bool,
    ) -> usize {
        let id = self.modules.len();
        let test = test || parent.is_some_and(|parent| self.modules[parent].test);
        self.modules.push(Module {
            file,
            parent,
            dir,
            children: BTreeMap::new(),
            test,
            items: BTreeSet::new(),
            imports: Vec::new(),
        });
        if let (Some(parent), Some(name)) = (parent, name) {
            self.modules[parent].children.insert(name.to_string(), id);
        }
        id
    }

    /// Reads declarations up to the `}` that closes the current block (or the end of the
    /// file). `in_block` is true inside a function body, an `impl` or any other block that is
    /// not a module: its `use` declarations import for the file but are no path for others.
    fn read_items(
        &mut self,
        tokens: &[Token],
        at: &mut usize,
        file: usize,
        module: usize,
        in_block: bool,
    ) {
        let mut path_attribute: Option<String> = None;
        let mut test_only = false;
        while *at < tokens.len() {
            let token = &tokens[*at];
            *at += 1;
            let name_after = |k: usize| match tokens.get(k) {
                Some(Token::Name(name)) => Some(name.clone()),
                _ => None,
            };
            match token {
                Token::Punct('}') => return,
                Token::Punct('{') => {
                    test_only = false;
                    self.read_items(tokens, at, file, module, true);
                }
                Token::Punct(';') => {
                    path_attribute = None;
                    test_only = false;
                }
                Token::Punct('#') if tokens.get(*at) == Some(&Token::Punct('[')) => {
                    // `#[path = "file.rs"]` and `#[cfg(test)]`, read before the `mod` they
                    // are about.
                    let attribute = &tokens[*at + 1..];
                    if let [Token::Name(path), Token::Punct('='), Token::Text(text), ..] = attribute
                        && path == "path"
                    {
                        path_attribute = Some(text.clone());
                    }
                    if let [
                        Token::Name(cfg),
                        Token::Punct('('),
                        Token::Name(test),
                        Token::Punct(')'),
                        ..,
                    ] = attribute
                        && cfg == "cfg"
                        && test == "test"
                    {
                        test_only = true;
                    }
                }
                Token::Name(word) if word == "mod" => {
                    let Some(name) = name_after(*at) else {
                        continue;
                    };
                    *at += 1;
                    let dir = self.modules[module].dir.clone();
                    match tokens.get(*at) {
                        Some(Token::Punct(';')) => {
                            *at += 1;
                            let path_attribute_used = path_attribute.is_some();
                            let path = match path_attribute.take() {
                                Some(relative) => {
                                    let here = self.files[file].parent().expect("a directory");
                                    here.join(relative)
                                }
                                None => {
                                    let flat = dir.join(format!("{name}.rs"));
                                    if flat.is_file() {
                                        flat
                                    } else {
                                        dir.join(&name).join("mod.rs")
                                    }
                                }
                            };
                            let owns_dir = path_attribute_used
                                || path.file_name().is_some_and(|n| n == "mod.rs");
                            let path = path.canonicalize().unwrap_or_else(|error| {
                                panic!("`mod {name};` in {}: {error}", self.files[file].display())
                            });
                            let test = std::mem::take(&mut test_only);
                            self.read_file(&path, Some(module), Some(&name), owns_dir, test);
                        }
                        Some(Token::Punct('{')) => {
                            *at += 1;
                            let test = std::mem::take(&mut test_only);
                            let dir = dir.join(&name);
                            let inner = self.add_module(file, Some(module), Some(&name), dir, test);
                            self.read_items(tokens, at, file, inner, false);
                        }
                        _ => {}
                    }
                }
                Token::Name(word)
                    if matches!(word.as_str(), "crate" | "super" | "self")
                        && tokens.get(*at) == Some(&Token::PathSep)
                        && !matches!(
                            tokens.get((*at).wrapping_sub(2)),
                            Some(Token::PathSep | Token::Punct('$'))
                        ) =>
                {
                    // A path written out in the code (`crate::quant::FILE_VERSION`): an
                    // import as much as a `use` is.
                    let mut path = vec![word.clone()];
                    while tokens.get(*at) == Some(&Token::PathSep)
                        && let Some(name) = name_after(*at + 1)
                    {
                        path.push(name);
                        *at += 2;
                    }
                    self.uses.push((file, module, path));
                }
                Token::DocLink(path) => {
                    self.uses.push((file, module, path.clone()));
                }
                Token::Name(word) if word == "use" => {
                    // `use<'a>` (precise capturing in `impl Trait + use<'a>`) is no import.
                    if !matches!(
                        tokens.get(*at),
                        Some(Token::Name(_) | Token::PathSep | Token::Punct('{'))
                    ) {
                        continue;
                    }
                    let mut imports = Vec::new();
                    read_use_tree(tokens, at, Vec::new(), &mut imports);
                    while *at < tokens.len() && tokens[*at] != Token::Punct(';') {
                        *at += 1;
                    }
                    for import in imports {
                        self.uses.push((file, module, import.path.clone()));
                        if !in_block {
                            self.modules[module].imports.push(import);
                        }
                    }
                }
                Token::Name(word)
                    if !in_block
                        && matches!(
                            word.as_str(),
                            "struct"
                                | "enum"
                                | "union"
                                | "trait"
                                | "type"
                                | "fn"
                                | "const"
                                | "static"
                        ) =>
                {
                    // `const fn name` and `unsafe fn` name their item after the keyword.
                    let mut k = *at;
                    while let Some(next) = name_after(k) {
                        if matches!(next.as_str(), "fn" | "unsafe" | "async" | "extern" | "mut") {
                            k += 1;
                        } else {
                            self.modules[module].items.insert(next);
                            break;
                        }
                    }
                }
                Token::Name(word) if !in_block && word == "macro_rules" => {
                    if tokens.get(*at) == Some(&Token::Punct('!'))
                        && let Some(name) = name_after(*at + 1)
                    {
                        self.modules[module].items.insert(name);
                    }
                }
                _ => {}
            }
        }
    }

    /// Where `path`, written in module `scope`, leads; `None` outside the crate (another
    /// crate, the standard library). An item the reader does not see defined (one a macro
    /// makes, say) is taken to be in the module the path reaches last.
    fn resolve(
        &self,
        scope: usize,
        path: &[String],
        seen: &mut HashSet<(usize, String)>,
    ) -> Option<Target> {
        let (first, rest) = path.split_first()?;
        let mut current = match first.as_str() {
            "crate" => Target::Module(self.root_of(scope)),
            "self" => Target::Module(scope),
            "super" => Target::Module(self.modules[scope].parent?),
            "::" => return None,
            name => self.lookup(scope, name, seen)?,
        };
        for segment in rest {
            let Target::Module(module) = current else {
                // An enum's variants or a type's associated items: the item's file.
                break;
            };
            current = match segment.as_str() {
                "super" => Target::Module(self.modules[module].parent?),
                "self" => current,
                name => self
                    .lookup(module, name, seen)
                    .unwrap_or(Target::Item(module)),
            };
        }
        Some(current)
    }

    fn root_of(&self, mut module: usize) -> usize {
        while let Some(parent) = self.modules[module].parent {
            module = parent;
        }
        module
    }

    /// What `name` is in `module`: a child module, a name it imports (followed to where it is
    /// defined), an item it defines, or a name one of its globs brings in.
    fn lookup(
        &self,
        module: usize,
        name: &str,
        seen: &mut HashSet<(usize, String)>,
    ) -> Option<Target> {
        if !seen.insert((module, name.to_string())) {
            return None;
        }
        let here = &self.modules[module];
        if let Some(&child) = here.children.get(name) {
            return Some(Target::Module(child));
        }
        if let Some(import) = here
            .imports
            .iter()
            .find(|import| import.alias.as_deref() == Some(name))
        {
            return self.resolve(module, &import.path, seen);
        }
        if here.items.contains(name) {
            return Some(Target::Item(module));
        }
        here.imports
            .iter()
            .filter(|import| import.alias.is_none())
            .find_map(|glob| match self.resolve(module, &glob.path, seen)? {
                Target::Module(from) => self.lookup(from, name, seen),
                Target::Item(_) => None,
            })
    }

    /// The file that declares `file` as a module (`mod name;`).
    fn parent_file(&self, file: usize) -> Option<usize> {
        let module = self.modules.iter().find(|module| module.file == file)?;
        Some(self.modules[module.parent?].file)
    }

    /// Every file → the files it imports from, in this crate, each with the paths (as
    /// written) that import it.
    fn imports_by_file(&self) -> Graph {
        let mut graph = Graph::new();
        for (file, scope, path) in &self.uses {
            let Some(target) = self.resolve(*scope, path, &mut HashSet::new()) else {
                continue;
            };
            let (Target::Module(module) | Target::Item(module)) = target;
            let to = self.modules[module].file;
            // A file and the files of the modules it declares are one room: children reach
            // their parent's items through `super::`, and the parent re-exports theirs.
            let family = self.parent_file(to) == Some(*file) || self.parent_file(*file) == Some(to);
            // A unit test may use a neighbour to check its own file against; what the
            // library's files import of each other is its structure.
            let test = self.modules[*scope].test;
            if to != *file && !family && !test {
                graph
                    .entry(self.files[*file].display().to_string())
                    .or_default()
                    .entry(self.files[to].display().to_string())
                    .or_default()
                    .insert(path.join("::"));
            }
        }
        graph
    }
}

/// File → file it imports from → the paths that import it.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Reads one use tree (`a::b`, `a::b as c`, `a::*`, `a::{b, c::{d, e}}`) after `prefix`.
fn read_use_tree(tokens: &[Token], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Import>) {
    let mut path = prefix;
    if tokens.get(*at) == Some(&Token::PathSep) {
        path.push("::".to_string());
        *at += 1;
    }
    loop {
        match tokens.get(*at) {
            Some(Token::Name(name)) => {
                path.push(name.clone());
                *at += 1;
                if tokens.get(*at) == Some(&Token::PathSep) {
                    *at += 1;
                } else {
                    break;
                }
            }
            Some(Token::Punct('*')) => {
                *at += 1;
                out.push(Import { path, alias: None });
                return;
            }
            Some(Token::Punct('{')) => {
                *at += 1;
                while *at < tokens.len() && tokens[*at] != Token::Punct('}') {
                    let before = *at;
                    read_use_tree(tokens, at, path.clone(), out);
                    if tokens.get(*at) == Some(&Token::Punct(',')) {
                        *at += 1;
                    } else if *at == before {
                        // Not a path (a macro's `$name`, say): stepped over, never read again.
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            _ => return,
        }
    }
    if path.last().is_some_and(|last| last == "self") {
        path.pop();
    }
    let mut alias = path.last().cloned();
    if let Some(Token::Name(word)) = tokens.get(*at)
        && word == "as"
    {
        alias = name_at(tokens, *at + 1);
        *at += 2;
    }
    out.push(Import { path, alias });
}

fn name_at(tokens: &[Token], at: usize) -> Option<String> {
    match tokens.get(at) {
        Some(Token::Name(name)) => Some(name.clone()),
        _ => None,
    }
}

/// The root file of every crate in the repository: each package's library, binaries, tests,
/// benchmarks and examples, and the fuzz targets.
fn crate_roots(repository: &Path) -> Vec<PathBuf> {
    let mut packages = vec![repository.to_path_buf(), repository.join("fuzz")];
    let mut members: Vec<PathBuf> = std::fs::read_dir(repository.join("crates"))
        .expect("crates/ lists")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .collect();
    members.sort();
    packages.extend(members);
    let mut roots = Vec::new();
    for package in packages {
        for root in ["src/lib.rs", "src/main.rs"] {
            roots.push(package.join(root));
        }
        for dir in ["src/bin", "tests", "benches", "examples", "fuzz_targets"] {
            let Ok(entries) = std::fs::read_dir(package.join(dir)) else {
                continue;
            };
            let mut found: Vec<PathBuf> = entries
                .flatten()
                .map(|entry| entry.path())
                .map(|path| {
                    if path.is_dir() {
                        path.join("main.rs")
                    } else {
                        path
                    }
                })
                .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
                .collect();
            found.sort();
            roots.extend(found);
        }
    }
    roots.retain(|root| root.is_file());
    roots
}

/// Every crate's import graph, with the files named from the repository's root.
fn workspace_graphs() -> Vec<Graph> {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .expect("the repository exists");
    let prefix = format!("{}/", repository.display());
    crate_roots(&repository)
        .iter()
        .map(|root| {
            let root = root.canonicalize().expect("the root exists");
            let relative = |file: String| file.strip_prefix(&prefix).unwrap_or(&file).to_string();
            Crate::read(&root)
                .imports_by_file()
                .into_iter()
                .map(|(from, targets)| {
                    let targets = targets
                        .into_iter()
                        .map(|(to, paths)| (relative(to), paths))
                        .collect();
                    (relative(from), targets)
                })
                .collect()
        })
        .collect()
}

/// The pairs of files that import each other, each with the paths that do it.
fn mutual_imports(graph: &Graph) -> BTreeSet<String> {
    let mut pairs = BTreeSet::new();
    for (from, targets) in graph {
        for (to, there) in targets {
            if from < to
                && let Some(back) = graph.get(to).and_then(|targets| targets.get(from))
            {
                let list =
                    |paths: &BTreeSet<String>| paths.iter().cloned().collect::<Vec<_>>().join(", ");
                pairs.insert(format!(
                    "{from} <-> {to}\n    {from}: {}\n    {to}: {}",
                    list(there),
                    list(back)
                ));
            }
        }
    }
    pairs
}

/// The sets of three or more files that import each other in a ring (strongly connected
/// components, Tarjan's algorithm).
fn import_rings(graph: &Graph) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        rings: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, file: &'a str) {
            let number = self.index.len();
            self.index.insert(file, number);
            self.low.insert(file, number);
            self.stack.push(file);
            self.on_stack.insert(file);
            for to in self
                .graph
                .get(file)
                .into_iter()
                .flat_map(|targets| targets.keys())
            {
                if !self.index.contains_key(to.as_str()) {
                    self.visit(to);
                    let low = self.low[file].min(self.low[to.as_str()]);
                    self.low.insert(file, low);
                } else if self.on_stack.contains(to.as_str()) {
                    let low = self.low[file].min(self.index[to.as_str()]);
                    self.low.insert(file, low);
                }
            }
            if self.low[file] == self.index[file] {
                let mut ring = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    ring.push(member.to_string());
                    if member == file {
                        break;
                    }
                }
                if ring.len() > 2 {
                    ring.sort();
                    self.rings.push(ring);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        rings: Vec::new(),
    };
    for file in graph.keys() {
        if !walk.index.contains_key(file.as_str()) {
            walk.visit(file);
        }
    }
    walk.rings
}

#[test]
fn no_two_files_import_each_other() {
    let graphs = workspace_graphs();
    let pairs: BTreeSet<String> = graphs.iter().flat_map(mutual_imports).collect();
    let rings: Vec<String> = graphs
        .iter()
        .flat_map(import_rings)
        .map(|ring| ring.join(", "))
        .collect();
    for ring in &rings {
        println!("files that import each other in a ring: {ring}");
    }
    assert!(
        pairs.is_empty(),
        "these files import each other (move what both need to the file it belongs in):\n{}\n\
         larger rings (for information):\n{}",
        pairs.iter().cloned().collect::<Vec<_>>().join("\n"),
        rings.join("\n")
    );
}

#[test]
fn the_reader_follows_groups_reexports_and_doc_links_but_not_comments_strings_or_tests() {
    let dir = std::env::temp_dir().join(format!("konakis-imports-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let files = [
        ("lib.rs", "mod a;\nmod b;\nmod c;\npub use c::Thing;\n"),
        (
            "a.rs",
            "use crate::{\n    b::{self, Other},\n    Thing,\n};\npub struct A;\n\
             macro_rules! alias { ($name:ident) => { use crate::{b::$name}; }; }\n",
        ),
        (
            "b.rs",
            "// use crate::a::A;\n/// Made from a [`Thing`](crate::Thing).\npub struct Other;\n\
             const S: &str = \"use crate::a::A;\";\nconst C: char = '\"';\n",
        ),
        (
            "c.rs",
            "pub struct Thing;\nfn make() { let _ = crate::b::Other; }\n\
             #[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).unwrap();
    }
    let root = src.join("lib.rs").canonicalize().unwrap();
    let graph = Crate::read(&root).imports_by_file();
    let _ = std::fs::remove_dir_all(&dir);
    let edges: BTreeSet<String> = graph
        .iter()
        .flat_map(|(from, targets)| {
            let name = |path: &str| path.rsplit('/').next().unwrap().to_string();
            targets
                .keys()
                .map(move |to| format!("{} -> {}", name(from), name(to)))
        })
        .collect();
    let expected = [
        "a.rs -> b.rs",
        "a.rs -> c.rs",
        "b.rs -> c.rs",
        "c.rs -> b.rs",
    ];
    assert_eq!(edges, expected.map(str::to_string).into(), "{graph:?}");
    let pairs = mutual_imports(&graph);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert!(
        pairs
            .iter()
            .all(|pair| pair.contains("b.rs <-> ") && pair.contains("c.rs\n")),
        "{pairs:?}"
    );
}
