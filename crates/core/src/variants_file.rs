//! A variants file: named rule sets of a user's own, as Fairy-Stockfish's `variants.ini` holds
//! a chess variant site's games, so that a club's house rules need no new build. The engine
//! loads one with its `VariantPath` option and offers its names beside the built-in presets in
//! `UCI_Variant`; `konakis variants check FILE` reports every mistake in one with its line.
//!
//! ```text
//! # A comment (also after ';').
//! [club-tablut]
//! base = taflhub          # a preset, a game of the family (copenhagen-11, ...), or a variant
//!                         # earlier in the file (default: original)
//! KingArmed = false       # any rule option, as setoption names it
//! MoveLimit = 300
//! ```
//!
//! A section starts a variant; its name is lower-case ASCII letters, digits, `-`, `_` and `.`
//! (a word a protocol can carry), not a preset's or a family game's id, and not used twice.
//! `base`, if given, comes first in its section; a variant based on a game of the tafl family
//! is played on that game's board from its start ([`HouseVariant::game`]). Option names and values are matched without regard to case,
//! as `setoption` matches them, and `Ruleset=Ashton`'s fixed options keep Ashton's values.

use crate::rules::{BoardSize, PRESETS, Preset, Rules, RulesError, Variant};
use std::fmt;

/// The largest variants file read, in bytes (a file of house rules is a few lines).
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// One variant of a variants file.
#[derive(Clone, Debug)]
pub struct HouseVariant {
    /// Its name, as its section gives it.
    pub name: String,
    /// Its rules.
    pub rules: Rules,
    /// The game of the tafl family it is based on (through `base`, directly or through a
    /// variant above), whose board and start it is played on; `None` for Tablut's board.
    pub game: Option<&'static Variant>,
    /// The line of its section (from 1).
    pub line: usize,
}

impl PartialEq for HouseVariant {
    fn eq(&self, other: &HouseVariant) -> bool {
        self.name == other.name
            && self.rules == other.rules
            && self.game.map(|v| v.id) == other.game.map(|v| v.id)
            && self.line == other.line
    }
}

impl Eq for HouseVariant {}

impl HouseVariant {
    /// The board it is played on.
    pub fn size(&self) -> BoardSize {
        self.game.map_or(BoardSize::Nine, |v| v.size)
    }
}

/// A parsed variants file: its variants, in file order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct VariantsFile {
    variants: Vec<HouseVariant>,
}

/// A mistake in a variants file, and its line (from 1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantsFileError {
    /// The line, from 1 (0 for the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub kind: VariantsFileErrorKind,
}

/// What is wrong with a line of a variants file. Quoted text is kept shortened and ASCII.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VariantsFileErrorKind {
    /// Neither a `[name]` section, a `Name = value` setting, a comment nor blank.
    NotALine(String),
    /// A setting before the first section.
    OutsideSection,
    /// A section name with characters other than lower-case letters, digits, `-`, `_`, `.`.
    BadName(String),
    /// A section name that a built-in preset or game of the family has.
    PresetName(String),
    /// A section name used before, on the line given.
    Duplicate {
        /// The name.
        name: String,
        /// The line of its first section.
        first: usize,
    },
    /// `base` names neither a preset, a game of the family nor a variant earlier in the file.
    UnknownBase(String),
    /// `base` after other settings of the section (it would undo them).
    LateBase,
    /// A rule option that does not exist, a value it does not take, or one `Ruleset=Ashton`
    /// fixes.
    Rule(RulesError),
    /// The file is longer than [`MAX_FILE_BYTES`]; its length.
    TooLong(usize),
    /// The file has no variant.
    Empty,
}

impl fmt::Display for VariantsFileErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantsFileErrorKind::NotALine(text) => write!(
                f,
                "'{text}' is not a [name] section, a Name = value setting or a comment"
            ),
            VariantsFileErrorKind::OutsideSection => {
                f.write_str("a setting before the first [name] section")
            }
            VariantsFileErrorKind::BadName(name) => write!(
                f,
                "'{name}' is not a variant name (lower-case letters, digits, '-', '_' and '.')"
            ),
            VariantsFileErrorKind::PresetName(name) => {
                write!(f, "'{name}' is a built-in variant's name; choose another")
            }
            VariantsFileErrorKind::Duplicate { name, first } => {
                write!(f, "'{name}' is defined already, on line {first}")
            }
            VariantsFileErrorKind::UnknownBase(name) => write!(
                f,
                "base '{name}' is neither a preset ({}), a game of `konakis variants` nor a \
                 variant above",
                preset_ids()
            ),
            VariantsFileErrorKind::LateBase => {
                f.write_str("base must come first in its section, before any option")
            }
            VariantsFileErrorKind::Rule(e) => e.fmt(f),
            VariantsFileErrorKind::TooLong(n) => {
                write!(f, "{n} bytes; a variants file may hold {MAX_FILE_BYTES}")
            }
            VariantsFileErrorKind::Empty => f.write_str("no [name] section: no variant"),
        }
    }
}

impl fmt::Display for VariantsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            self.kind.fmt(f)
        } else {
            write!(f, "line {}: {}", self.line, self.kind)
        }
    }
}

impl std::error::Error for VariantsFileError {}

/// The built-in presets' ids, comma-separated, for messages.
fn preset_ids() -> String {
    PRESETS.iter().map(|p| p.id).collect::<Vec<_>>().join(", ")
}

/// Whether `name` may name a variant.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 40
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
}

/// `text` cut to a readable excerpt for a message.
fn quote(text: &str) -> String {
    crate::text::bounded_line(text, 40)
}

/// Why a variants file was not loaded ([`VariantsFile::load`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// It could not be read: the path (shortened, ASCII) and why.
    Unreadable {
        /// The path, as given (shortened, ASCII).
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// Its mistakes, each with its line.
    Mistakes(Vec<VariantsFileError>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Unreadable { path, reason } => write!(f, "cannot read {path}: {reason}"),
            LoadError::Mistakes(errors) => {
                // The first few (`konakis variants check FILE` lists them all).
                let shown: Vec<String> = errors.iter().take(3).map(|e| e.to_string()).collect();
                f.write_str(&shown.join("; "))?;
                if errors.len() > 3 {
                    write!(f, "; and {} more", errors.len() - 3)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

impl VariantsFile {
    /// Reads and parses the variants file at `path`: at most [`MAX_FILE_BYTES`] and one more
    /// byte are read, so that a huge file is refused without reading it all.
    pub fn load(path: &std::path::Path) -> Result<VariantsFile, LoadError> {
        use std::io::Read;
        let unreadable = |e: std::io::Error| LoadError::Unreadable {
            path: crate::text::bounded_line(&path.to_string_lossy(), 60),
            reason: crate::text::bounded_line(&e.to_string(), 80),
        };
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(unreadable)?
            .take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        VariantsFile::parse(&String::from_utf8_lossy(&bytes)).map_err(LoadError::Mistakes)
    }

    /// Reads a variants file's text. On mistakes, returns every one found, in line order
    /// (a section with a mistake is still read, so that later lines are checked too).
    pub fn parse(text: &str) -> Result<VariantsFile, Vec<VariantsFileError>> {
        if text.len() > MAX_FILE_BYTES {
            return Err(vec![VariantsFileError {
                line: 0,
                kind: VariantsFileErrorKind::TooLong(text.len()),
            }]);
        }
        let mut variants: Vec<HouseVariant> = Vec::new();
        let mut errors = Vec::new();
        // The section being read: its index in `variants` (None before the first, or for a
        // section whose name was refused) and whether it has had an option yet.
        let mut current: Option<usize> = None;
        let mut in_section = false;
        let mut has_option = false;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let mut error = |kind| errors.push(VariantsFileError { line, kind });
            let content = raw.split(['#', ';']).next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            if let Some(name) = content
                .strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
            {
                let name = name.trim();
                in_section = true;
                has_option = false;
                current = None;
                if !valid_name(name) {
                    error(VariantsFileErrorKind::BadName(quote(name)));
                } else if Preset::find(name).is_some() || Variant::find(name).is_some() {
                    error(VariantsFileErrorKind::PresetName(name.to_string()));
                } else if let Some(first) = variants.iter().find(|v| v.name == name) {
                    error(VariantsFileErrorKind::Duplicate {
                        name: name.to_string(),
                        first: first.line,
                    });
                } else {
                    variants.push(HouseVariant {
                        name: name.to_string(),
                        rules: Rules::default(),
                        game: None,
                        line,
                    });
                    current = Some(variants.len() - 1);
                }
                continue;
            }
            let Some((key, value)) = content.split_once('=') else {
                error(VariantsFileErrorKind::NotALine(quote(content)));
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            if !in_section {
                error(VariantsFileErrorKind::OutsideSection);
                continue;
            }
            if key.eq_ignore_ascii_case("base") {
                if has_option {
                    error(VariantsFileErrorKind::LateBase);
                    continue;
                }
                let above = &variants[..current.unwrap_or(variants.len())];
                let base = match (Preset::find(value), Variant::find(value)) {
                    (Some(preset), _) => Some((preset.rules(), None)),
                    (None, Some(game)) => Some((game.rules(), Some(game))),
                    (None, None) => above
                        .iter()
                        .find(|v| v.name == value)
                        .map(|v| (v.rules, v.game)),
                };
                match (base, current) {
                    (Some((rules, game)), Some(index)) => {
                        variants[index].rules = rules;
                        variants[index].game = game;
                    }
                    (Some(_), None) => {}
                    (None, _) => error(VariantsFileErrorKind::UnknownBase(quote(value))),
                }
                continue;
            }
            has_option = true;
            // A section whose name was refused: its settings are still checked.
            let mut scratch = Rules::default();
            let target = match current {
                Some(index) => &mut variants[index].rules,
                None => &mut scratch,
            };
            // Quoted, so that a message naming them is ASCII (a valid name or value is unchanged).
            if let Err(e) = target.set(&quote(key), &quote(value)) {
                error(VariantsFileErrorKind::Rule(e));
            }
        }
        if variants.is_empty() && errors.is_empty() {
            errors.push(VariantsFileError {
                line: 0,
                kind: VariantsFileErrorKind::Empty,
            });
        }
        if errors.is_empty() {
            Ok(VariantsFile { variants })
        } else {
            Err(errors)
        }
    }

    /// The variants, in file order.
    pub fn variants(&self) -> &[HouseVariant] {
        &self.variants
    }

    /// The variant named `name` (matched without regard to case).
    pub fn find(&self, name: &str) -> Option<&HouseVariant> {
        let name = name.trim();
        self.variants
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::KingCapture;

    fn kinds(text: &str) -> Vec<(usize, VariantsFileErrorKind)> {
        VariantsFile::parse(text)
            .expect_err("mistakes")
            .into_iter()
            .map(|e| (e.line, e.kind))
            .collect()
    }

    #[test]
    fn a_file_of_two_variants_gives_their_rules_on_top_of_their_bases() {
        let file = VariantsFile::parse(
            "# house rules\n\n[club]\nbase = taflhub\nKingArmed = false ; no fighting king\n\
             [club-long]\nbase = club\nmovelimit = 400\n",
        )
        .expect("a valid file");
        let names: Vec<&str> = file.variants().iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["club", "club-long"]);
        let club = Rules {
            king_armed: false,
            ..Rules::tafl_hub()
        };
        assert_eq!(file.find("CLUB").unwrap().rules, club);
        assert_eq!(file.find("club").unwrap().line, 3);
        assert_eq!(
            file.find("club-long").unwrap().rules,
            Rules {
                move_limit: 400,
                ..club
            }
        );
        assert!(file.find("taflhub").is_none(), "presets are not the file's");
    }

    #[test]
    fn a_section_without_base_starts_from_the_reference_rules() {
        let file = VariantsFile::parse("[english-long]\nKingCapture = English\n").unwrap();
        assert_eq!(
            file.variants()[0].rules,
            Rules {
                king_capture: KingCapture::English,
                ..Rules::default()
            }
        );
    }

    #[test]
    fn every_mistake_is_reported_with_its_line() {
        let text = "KingArmed = false\n\
                    [Club]\n\
                    [ashton]\n\
                    [a]\n\
                    KingArmed = maybe\n\
                    Castling = true\n\
                    just words\n\
                    [a]\n\
                    [b]\n\
                    KingArmed = false\n\
                    base = english\n\
                    [c]\n\
                    base = nowhere\n\
                    [d]\n\
                    base = ashton\n\
                    FirstMove = Attackers\n";
        let got = kinds(text);
        let lines: Vec<usize> = got.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [1, 2, 3, 5, 6, 7, 8, 11, 13, 16]);
        assert_eq!(got[0].1, VariantsFileErrorKind::OutsideSection);
        assert!(matches!(got[1].1, VariantsFileErrorKind::BadName(_)));
        assert_eq!(
            got[2].1,
            VariantsFileErrorKind::PresetName("ashton".to_string())
        );
        assert!(matches!(
            got[3].1,
            VariantsFileErrorKind::Rule(RulesError::InvalidValue { .. })
        ));
        assert!(matches!(
            got[4].1,
            VariantsFileErrorKind::Rule(RulesError::UnknownOption(_))
        ));
        assert!(matches!(got[5].1, VariantsFileErrorKind::NotALine(_)));
        assert_eq!(
            got[6].1,
            VariantsFileErrorKind::Duplicate {
                name: "a".to_string(),
                first: 4
            }
        );
        assert_eq!(got[7].1, VariantsFileErrorKind::LateBase);
        assert!(matches!(got[8].1, VariantsFileErrorKind::UnknownBase(_)));
        assert!(matches!(
            got[9].1,
            VariantsFileErrorKind::Rule(RulesError::FixedByAshton { .. })
        ));
        let message = VariantsFile::parse(text).unwrap_err()[4].to_string();
        assert!(
            message.starts_with("line 6: unknown rule option 'Castling'"),
            "{message}"
        );
    }

    #[test]
    fn a_base_must_be_above_its_section_and_an_empty_file_has_no_variant() {
        assert!(matches!(
            kinds("[a]\nbase = b\n[b]\n")[..],
            [(2, VariantsFileErrorKind::UnknownBase(_))]
        ));
        assert_eq!(kinds("# nothing\n"), [(0, VariantsFileErrorKind::Empty)]);
        assert!(matches!(
            kinds(&"#".repeat(MAX_FILE_BYTES + 1))[..],
            [(0, VariantsFileErrorKind::TooLong(_))]
        ));
    }

    #[test]
    fn messages_are_one_ascii_line_whatever_the_file_holds() {
        let text = "[caf\u{e9}]\nK\u{f6}ng = \u{1F600}\n\u{7}\u{1b}[2J = x\n";
        for e in VariantsFile::parse(text).unwrap_err() {
            let m = e.to_string();
            assert!(m.is_ascii() && !m.contains('\n'), "{m:?}");
        }
    }
}
