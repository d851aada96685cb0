//! The option table: every option `uci` announces and `setoption` sets, engine settings and
//! rule options alike, in one list.
//!
//! The engine rows are written here; the rule rows are built from [`Rules::OPTIONS`], so a rule
//! option added there appears in `uci` and works with `setoption` without a change here.

use crate::network::EvalMode;
use crate::search::{Settings, SmpMode};
use crate::skill::{self, FULL_STRENGTH};
use konakis_core::rules::RulesError;
use konakis_core::rules::{self, Rules};
use std::sync::OnceLock;

/// Largest `Hash` in MiB: the one limit of every front-end and tool
/// ([`crate::search::MAX_HASH_MIB`]). A size the system refuses is reported, not fatal.
pub const MAX_HASH_MIB: i64 = crate::search::MAX_HASH_MIB as i64;
/// Largest `Threads` ([`crate::search::MAX_THREADS`]).
pub const MAX_THREADS: i64 = crate::search::MAX_THREADS as i64;
/// Largest `MultiPV` (more lines than legal moves are simply not reported).
pub const MAX_MULTIPV: i64 = 256;
/// Largest `Move Overhead` in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 10_000;
/// Largest `Skill Seed` (the largest integer every UCI front-end can hold).
pub const MAX_SKILL_SEED: i64 = i32::MAX as i64;

/// The type, default and range of an option, as `uci` announces it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `true` or `false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// One word of a fixed list.
    Combo {
        /// Default value, one of `values`.
        default: &'static str,
        /// Allowed values, spelled as announced.
        values: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Any text (a file name), `<empty>` for none.
    Text {
        /// Default value.
        default: &'static str,
    },
}

impl From<rules::OptionKind> for Kind {
    fn from(kind: rules::OptionKind) -> Kind {
        match kind {
            rules::OptionKind::Check { default } => Kind::Check { default },
            rules::OptionKind::Spin { default, min, max } => Kind::Spin {
                default: default.into(),
                min: min.into(),
                max: max.into(),
            },
            rules::OptionKind::Combo { default, values } => Kind::Combo { default, values },
        }
    }
}

/// What an option changes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Target {
    Hash,
    Threads,
    MultiPv,
    Ponder,
    ShowWdl,
    MoveOverhead,
    SmpMode,
    ClearHash,
    Eval,
    EvalFile,
    SkillLevel,
    LimitStrength,
    Elo,
    SkillSeed,
    Variant,
    VariantPath,
    /// A rule option of [`Rules::OPTIONS`], set through [`Rules::set`] by its name.
    Rule,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct OptionRow {
    /// Name as announced; `setoption` matches it without regard to case.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: Kind,
    /// One line on what the option does.
    pub help: &'static str,
    target: Target,
}

impl OptionRow {
    /// Whether this is a rule option (a row of [`Rules::OPTIONS`]) rather than an engine
    /// setting.
    pub fn is_rule(&self) -> bool {
        self.target == Target::Rule
    }

    /// Whether this is `UCI_Variant`, whose values are the built-in presets and the variants of
    /// the loaded variants file (`Engine::house_variants`).
    pub fn is_variant(&self) -> bool {
        self.target == Target::Variant
    }

    /// The values allowed, in words, for error messages.
    fn allowed(&self) -> String {
        match self.kind {
            Kind::Check { .. } => "true or false".to_string(),
            Kind::Spin { min, max, .. } => format!("an integer from {min} to {max}"),
            Kind::Combo { values, .. } => format!("one of {}", values.join(", ")),
            Kind::Button => "no value (it is a button)".to_string(),
            Kind::Text { .. } => format!("a file name, or {EMBEDDED_NETWORKS}"),
        }
    }
}

/// Every option, engine options first, then the rule options in [`Rules::OPTIONS`] order.
pub fn table() -> &'static [OptionRow] {
    static TABLE: OnceLock<Vec<OptionRow>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let d = Settings::default();
        let spin = |default: usize, min: i64, max: i64| Kind::Spin {
            default: default as i64,
            min,
            max,
        };
        let mut rows = vec![
            OptionRow {
                name: "Hash",
                kind: spin(d.hash_mib, 1, MAX_HASH_MIB),
                help: "size of the transposition table in MiB; setting it empties the table",
                target: Target::Hash,
            },
            OptionRow {
                name: "Threads",
                kind: spin(d.threads, 1, MAX_THREADS),
                help: "search threads",
                target: Target::Threads,
            },
            OptionRow {
                name: "MultiPV",
                kind: spin(d.multipv, 1, MAX_MULTIPV),
                help: "number of best lines reported, each with its own info line",
                target: Target::MultiPv,
            },
            OptionRow {
                name: "Ponder",
                kind: Kind::Check { default: false },
                help: "tells the engine that the front-end may send go ponder (no other effect)",
                target: Target::Ponder,
            },
            OptionRow {
                name: "UCI_ShowWDL",
                kind: Kind::Check { default: false },
                help: "adds wdl W D L (chances of a win, a draw and a loss for the side to move, \
                       per mille) after the score of info lines",
                target: Target::ShowWdl,
            },
            OptionRow {
                name: "Move Overhead",
                kind: spin(d.move_overhead_ms as usize, 0, MAX_MOVE_OVERHEAD_MS),
                help: "milliseconds kept in reserve per move for communication delays",
                target: Target::MoveOverhead,
            },
            OptionRow {
                name: "SMP Mode",
                kind: Kind::Combo {
                    default: d.smp.name(),
                    values: &SmpMode::NAMES,
                },
                help: "how several threads share the work: Split (one tree, the moves after \
                       the first of each principal-variation node shared among the threads) or \
                       Lazy (every thread searches the whole tree)",
                target: Target::SmpMode,
            },
            OptionRow {
                name: "Clear Hash",
                kind: Kind::Button,
                help: "empties the transposition table and the move histories",
                target: Target::ClearHash,
            },
            OptionRow {
                name: "Eval",
                kind: Kind::Combo {
                    default: d.eval.name(),
                    values: &EvalMode::NAMES,
                },
                help: "the evaluation: Network (the network for the rules where there is one, \
                       else the classical evaluation) or Classical (the hand-made one)",
                target: Target::Eval,
            },
            OptionRow {
                name: "EvalFile",
                kind: Kind::Text {
                    default: EMBEDDED_NETWORKS,
                },
                help: "a network file (docs/nnue.md) that evaluates under the rules it was \
                       trained for, in place of the built-in network; <empty> for the built-in \
                       networks",
                target: Target::EvalFile,
            },
            OptionRow {
                name: "Skill Level",
                kind: spin(d.skill.level.into(), 0, FULL_STRENGTH.into()),
                help: "playing strength from 0 (weakest) to 20 (full strength); \
                       docs/levels.md gives the Elo of each level",
                target: Target::SkillLevel,
            },
            OptionRow {
                name: "UCI_LimitStrength",
                kind: Kind::Check {
                    default: d.skill.limit_strength,
                },
                help: "play at the strength UCI_Elo asks for (Skill Level is then ignored)",
                target: Target::LimitStrength,
            },
            OptionRow {
                name: "UCI_Elo",
                kind: {
                    let (min, max) = skill::curve().elo_range();
                    Kind::Spin {
                        default: d.skill.elo.into(),
                        min: min.into(),
                        max: max.into(),
                    }
                },
                help: "the strength UCI_LimitStrength plays at, on the scale of docs/levels.md \
                       (level 0 at 0; between two levels a mix of both)",
                target: Target::Elo,
            },
            OptionRow {
                name: "Skill Seed",
                kind: spin(d.skill.seed as usize, 0, MAX_SKILL_SEED),
                help: "seed of a weakened level's choices: 0 for new choices every game, any \
                       other value replays the same game against the same moves",
                target: Target::SkillSeed,
            },
        ];
        rows.push(OptionRow {
            name: "UCI_Variant",
            kind: Kind::Combo {
                default: rules::PRESETS[0].id,
                values: preset_ids(),
            },
            help: "the game: a built-in preset of the rule options below (docs/rules.md), or a \
                   variant of the file VariantPath loaded; setting it sets every rule option",
            target: Target::Variant,
        });
        rows.push(OptionRow {
            name: "VariantPath",
            kind: Kind::Text {
                default: EMBEDDED_NETWORKS,
            },
            help: "a variants file (docs/rules.md, \"Variants files\"): named rule sets that \
                   UCI_Variant then offers too; <empty> for none",
            target: Target::VariantPath,
        });
        rows.extend(Rules::OPTIONS.iter().map(|o| OptionRow {
            name: o.name,
            kind: o.kind.into(),
            help: o.help,
            target: Target::Rule,
        }));
        rows
    })
}

/// The values `UCI_Variant` announces: Tablut's built-in presets, then the family's games
/// ([`rules::VARIANTS`], each on its own board).
fn preset_ids() -> &'static [&'static str] {
    static IDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    IDS.get_or_init(|| {
        let presets = rules::PRESETS.iter().map(|p| p.id);
        presets
            .chain(rules::VARIANTS.iter().map(|v| v.id))
            .collect()
    })
}

/// The row named `name`, matched without regard to case or to runs of spaces.
pub fn find(name: &str) -> Option<&'static OptionRow> {
    let wanted: Vec<&str> = name.split_whitespace().collect();
    table().iter().find(|row| {
        let words: Vec<&str> = row.name.split_whitespace().collect();
        words.len() == wanted.len()
            && words
                .iter()
                .zip(&wanted)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
    })
}

/// The `EvalFile` value that means the networks built into the binary (UCI's word for an
/// empty string).
pub const EMBEDDED_NETWORKS: &str = "<empty>";

/// Everything the options decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// The engine settings (Hash, Threads, MultiPV, Move Overhead).
    pub settings: Settings,
    /// The `Ponder` option.
    pub ponder: bool,
    /// The `UCI_ShowWDL` option: the front-ends report win chances ([`crate::wdl`]) with the
    /// score (off by default, as a front-end may refuse a token it does not know).
    pub show_wdl: bool,
    /// The rule options.
    pub rules: Rules,
}

/// What a valid `setoption` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// New values (only the named option differs from before).
    Options(Options),
    /// The `Clear Hash` button.
    ClearHash,
    /// `EvalFile`: load this network file (`None`: the built-in networks again). The file is
    /// read by whoever applies the change (`Engine::set_option`).
    EvalFile(Option<String>),
    /// `UCI_Variant` names no built-in preset: the variant of this name from the loaded
    /// variants file, which whoever applies the change looks up.
    Variant(String),
    /// `VariantPath`: load this variants file (`None`: none). The file is read by whoever
    /// applies the change.
    VariantFile(Option<String>),
}

/// An option that does not exist or a value it does not allow; the message lists what is.
/// Quoted input is kept shortened, as the message shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value is outside the option's type or range.
    InvalidValue {
        /// The option, spelled as the table spells it.
        option: &'static str,
        /// The value given.
        value: String,
    },
    /// The option takes a value and none was given.
    NeedsValue(&'static str),
    /// The rules refuse the value (an option fixed by `Ruleset=Ashton`).
    Rule(RulesError),
    /// The option cannot be set where it was given (it names a file, which is read only by a
    /// running engine's `setoption`).
    NotHere(&'static str),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let allowed = |option: &str| find(option).map(OptionRow::allowed).unwrap_or_default();
        match self {
            OptionError::Unknown(name) => {
                let names: Vec<&str> = table().iter().map(|r| r.name).collect();
                write!(f, "unknown option '{name}' (options: {})", names.join(", "))
            }
            OptionError::InvalidValue { option, value } => write!(
                f,
                "invalid value '{value}' for {option} (allowed: {})",
                allowed(option)
            ),
            OptionError::NeedsValue(option) => write!(
                f,
                "{option} needs a value (setoption name {option} value <{}>)",
                allowed(option)
            ),
            OptionError::Rule(e) => e.fmt(f),
            OptionError::NotHere(option) => write!(
                f,
                "{option} cannot be set here; send it to the engine with setoption"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// Works out what `setoption name <name> [value <value>]` changes, starting from `config`.
/// Names and values are matched without regard to case.
pub fn apply(config: &Options, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    let row = find(name).ok_or_else(|| OptionError::Unknown(quote(name)))?;
    let bad = |v: &str| OptionError::InvalidValue {
        option: row.name,
        value: quote(v),
    };
    if row.kind == Kind::Button {
        return match value {
            None => Ok(Change::ClearHash),
            Some(v) => Err(bad(v)),
        };
    }
    if matches!(row.target, Target::EvalFile | Target::VariantPath) {
        // UCI sends `value <empty>` (or no value) for an empty string.
        let path = value
            .map(str::trim)
            .filter(|v| !v.is_empty() && !v.eq_ignore_ascii_case(EMBEDDED_NETWORKS))
            .map(str::to_string);
        return Ok(match row.target {
            Target::EvalFile => Change::EvalFile(path),
            _ => Change::VariantFile(path),
        });
    }
    if row.target == Target::Variant {
        let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
            return Err(OptionError::NeedsValue(row.name));
        };
        return Ok(match rules::Preset::find(value) {
            Some(preset) => Change::Options(Options {
                rules: preset.rules(),
                ..*config
            }),
            None => Change::Variant(quote(value)),
        });
    }
    let Some(value) = value else {
        return Err(OptionError::NeedsValue(row.name));
    };
    let mut new = *config;
    match row.kind {
        Kind::Check { .. } => {
            let v = konakis_core::rules::parse_check(value).ok_or_else(|| bad(value))?;
            match row.target {
                Target::Ponder => new.ponder = v,
                Target::ShowWdl => new.show_wdl = v,
                Target::LimitStrength => new.settings.skill.limit_strength = v,
                Target::Rule => set_rule(&mut new.rules, row, if v { "true" } else { "false" })?,
                other => unreachable!("check option with target {other:?}"),
            }
        }
        Kind::Spin { min, max, .. } => {
            let v = value
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .ok_or_else(|| bad(value))?;
            match row.target {
                Target::Hash => new.settings.hash_mib = v as usize,
                Target::Threads => new.settings.threads = v as usize,
                Target::MultiPv => new.settings.multipv = v as usize,
                Target::MoveOverhead => new.settings.move_overhead_ms = v as u64,
                Target::SkillLevel => new.settings.skill.level = v as u8,
                Target::Elo => new.settings.skill.elo = v as i32,
                Target::SkillSeed => new.settings.skill.seed = v as u64,
                Target::Rule => set_rule(&mut new.rules, row, &v.to_string())?,
                other => unreachable!("spin option with target {other:?}"),
            }
        }
        Kind::Combo { values, .. } => {
            let canonical = values
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .ok_or_else(|| bad(value))?;
            match row.target {
                Target::SmpMode => {
                    new.settings.smp = SmpMode::parse(canonical).ok_or_else(|| bad(value))?
                }
                Target::Eval => {
                    new.settings.eval = EvalMode::parse(canonical).ok_or_else(|| bad(value))?
                }
                Target::Rule => set_rule(&mut new.rules, row, canonical)?,
                other => unreachable!("combo option with target {other:?}"),
            }
        }
        Kind::Button | Kind::Text { .. } => unreachable!("handled above"),
    }
    Ok(Change::Options(new))
}

/// `config` with each `(name, value)` of `pairs` applied in turn by [`apply`] (a `Clear Hash`
/// changes no value; an `EvalFile` is refused, as no file is read here), or the first error.
pub fn apply_all<'a>(
    config: Options,
    pairs: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> Result<Options, OptionError> {
    let mut config = config;
    for (name, value) in pairs {
        match apply(&config, name, value)? {
            Change::Options(c) => config = c,
            Change::ClearHash => {}
            Change::EvalFile(_) => return Err(OptionError::NotHere("EvalFile")),
            Change::VariantFile(_) => return Err(OptionError::NotHere("VariantPath")),
            Change::Variant(name) => {
                return Err(OptionError::InvalidValue {
                    option: "UCI_Variant",
                    value: name,
                });
            }
        }
    }
    Ok(config)
}

/// Sets a rule option from a value already checked against its row.
fn set_rule(rules: &mut Rules, row: &OptionRow, value: &str) -> Result<(), OptionError> {
    rules.set(row.name, value).map_err(OptionError::Rule)
}

/// A name or value as an [`OptionError`] keeps it: at most 40 characters (then `...`), with
/// control characters and everything outside ASCII escaped, so that the message stays one
/// readable line whatever was sent.
fn quote(text: &str) -> String {
    konakis_core::text::bounded_line(text, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_option_is_in_the_table_with_its_kind() {
        for o in Rules::OPTIONS {
            let row = find(o.name).expect(o.name);
            assert_eq!(row.kind, Kind::from(o.kind));
        }
        assert_eq!(table().len(), 16 + Rules::OPTIONS.len());
    }

    #[test]
    fn names_ignore_case_and_spacing() {
        assert_eq!(find("move   overhead").unwrap().name, "Move Overhead");
        assert_eq!(find("CLEAR HASH").unwrap().name, "Clear Hash");
        assert_eq!(find("kingcapture").unwrap().name, "KingCapture");
        assert!(find("King Capture").is_none());
    }

    #[test]
    fn values_are_checked_and_nothing_changes_on_error() {
        let c = Options::default();
        let Change::Options(n) = apply(&c, "hash", Some("64")).unwrap() else {
            panic!()
        };
        assert_eq!(n.settings.hash_mib, 64);
        let Change::Options(n) = apply(&c, "kingcapture", Some("english")).unwrap() else {
            panic!()
        };
        assert_eq!(n.rules.king_capture, konakis_core::KingCapture::English);
        let e = apply(&c, "Threads", Some("0")).unwrap_err();
        assert!(e.to_string().contains("from 1 to 512"), "{e}");
        let e = apply(&c, "FirstMove", Some("both")).unwrap_err();
        assert!(e.to_string().contains("Attackers, Defenders"), "{e}");
        assert!(apply(&c, "Hash", None).is_err());
        assert!(apply(&c, "Hash", Some("99999999999999999999999")).is_err());
        assert!(apply(&c, "Clear Hash", Some("x")).is_err());
        assert_eq!(apply(&c, "clear hash", None).unwrap(), Change::ClearHash);
        let e = apply(&c, "Hashh", Some("1")).unwrap_err();
        assert!(
            e.to_string().contains("Encirclement") && e.to_string().contains("Move Overhead"),
            "{e}"
        );
    }

    #[test]
    fn show_wdl_is_off_by_default_and_a_check() {
        let c = Options::default();
        assert!(!c.show_wdl);
        assert_eq!(
            find("uci_showwdl").unwrap().kind,
            Kind::Check { default: false }
        );
        let Change::Options(n) = apply(&c, "UCI_ShowWDL", Some("true")).unwrap() else {
            panic!()
        };
        assert!(n.show_wdl);
        assert_eq!(
            Options {
                show_wdl: false,
                ..n
            },
            c
        );
        assert!(apply(&c, "UCI_ShowWDL", Some("yes please")).is_err());
    }

    #[test]
    fn strength_options_are_checked_and_set() {
        let c = Options::default();
        assert_eq!(
            c.settings.skill.strength(),
            None,
            "full strength by default"
        );
        fn set(c: &Options, name: &str, value: &str) -> Result<Options, OptionError> {
            match apply(c, name, Some(value))? {
                Change::Options(n) => Ok(n),
                other => panic!("{other:?}"),
            }
        }
        let n = set(&c, "skill level", "7").unwrap();
        assert_eq!(n.settings.skill.level, 7);
        assert_eq!(n.settings.skill.strength(), Some(7.0));
        for bad in ["21", "-1", "x", "7.5"] {
            let e = set(&c, "Skill Level", bad).unwrap_err();
            assert!(e.to_string().contains("from 0 to 20"), "{e}");
        }
        let (lo, hi) = skill::curve().elo_range();
        let e = set(&c, "UCI_Elo", &(hi + 1).to_string()).unwrap_err();
        assert!(e.to_string().contains(&format!("from {lo} to {hi}")), "{e}");
        assert!(set(&c, "UCI_Elo", &(lo - 1).to_string()).is_err());
        let e3 = skill::curve().points[3].1;
        let e4 = skill::curve().points[4].1;
        let mid = ((e3 + e4) / 2.0).round() as i32;
        let n = set(&c, "UCI_Elo", &mid.to_string()).unwrap();
        assert_eq!(
            n.settings.skill.strength(),
            None,
            "UCI_Elo alone changes nothing"
        );
        let n = set(&n, "uci_limitstrength", "true").unwrap();
        let level = n.settings.skill.strength().unwrap();
        assert!(level > 3.0 && level < 4.0, "{level}");
        let n = set(&c, "Skill Seed", "12345").unwrap();
        assert_eq!(n.settings.skill.seed, 12345);
        assert!(set(&c, "Skill Seed", "-3").is_err());
        assert!(set(&c, "UCI_LimitStrength", "maybe").is_err());
    }
}
