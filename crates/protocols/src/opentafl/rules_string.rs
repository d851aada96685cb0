//! OpenTafl's rules strings, read into [`Rules`] and a start position, and written from them
//! (docs/rules.md, "OpenTafl's rules strings", has the table for users).
//!
//! A rules string is a list of `key:value` pairs separated by spaces, `dim:` first and the
//! start position (`start:`, rank 1 first, or `starti:`, rank 9 first) last. Keys left out take
//! OpenTafl's defaults, which are those of a corner-escape game: a string that leaves out `esc`
//! or `cor` describes a game Konakis does not play.
//!
//! The reader accepts exactly the games Konakis plays: 9×9, edge escape, no corner squares or
//! forts, a throne on e5 that only the king may ever stop on, `t`/`T`/`K` pieces only. Every
//! other key or value is refused with an error that names it, so that an engine never plays
//! under rules it does not know. Keys that cannot change a game without the pieces or squares
//! they are about (knight and commander jumps, corner and fort properties when there are no
//! corners or forts) are accepted.
//!
//! The mapping onto [`Rules`]:
//!
//! | keys | option |
//! |---|---|
//! | `ks:c` / `ks:s` (or `y`) | `KingCapture=Original` / `English` |
//! | `atkf:y` / `n` | `FirstMove=Attackers` / `Defenders` |
//! | `ka:y` / `n` | `KingArmed` |
//! | `cenhe` holding `t` and `T` / neither | `ThroneHostile` true / false |
//! | `cens` and `cenre` both holding `K` | `KingReentersThrone` |
//! | `cenp` holding `t`, `T`, `K` / neither soldier | `ThronePassable` true / false |
//! | `linc:y` / `n` | `ThroneGuardCapture` |
//! | `tfr:d` | `RepetitionDraw=3` |
//! | `surf:y` / `n` | `Encirclement` |
//!
//! OpenTafl has no move limit, so a parsed string gives `MoveLimit=0`: an engine that stopped
//! at a ply count OpenTafl does not know would have no move to give when asked for one.

use super::notation::{
    NotationError, TAFLMAN_LETTERS, invert_record, parse_position_record, position_record,
};
use crate::text::{bounded_line, excerpt};
use konakis_core::board::Board;
use konakis_core::geometry::SIDE;
use konakis_core::rules::{KingCapture, Rules, Ruleset};
use konakis_core::types::Side;
use std::fmt;

/// Why a rules string was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RulesStringError {
    /// A rule Konakis does not play.
    Unsupported {
        /// The offending pair as `key:value` (for a key left out, OpenTafl's default).
        key_value: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// Text that is not a rules string.
    Malformed(Malformation),
}

/// How a text fails to be a rules string ([`RulesStringError::Malformed`]). Quoted input is
/// kept shortened, as the message shows it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Malformation {
    /// A token without `:`.
    NotAPair(String),
    /// A key given twice.
    Twice(String),
    /// No `dim:` key.
    NoDim,
    /// Both `start:` and `starti:`.
    BothStarts,
    /// No `start:` or `starti:` key.
    NoStart,
    /// A `dim:` that is not a number.
    DimNotNumber(String),
    /// A value that is none of those the key takes.
    Expected {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// A piece list with a letter that is no taflman's.
    PieceLetter {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// The letter.
        found: char,
    },
    /// A square list with an item that is not a square.
    Square {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// The item.
        item: String,
    },
    /// A start position that cannot be read.
    Start(NotationError),
}

impl fmt::Display for Malformation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Malformation::NotAPair(token) => write!(f, "'{token}' is not a key:value pair"),
            Malformation::Twice(key) => write!(f, "key '{key}' is given twice"),
            Malformation::NoDim => f.write_str("no dim: key (the board size)"),
            Malformation::BothStarts => f.write_str("both start: and starti: are given"),
            Malformation::NoStart => f.write_str("no start: (or starti:) position"),
            Malformation::DimNotNumber(value) => write!(f, "dim:{value}: not a number"),
            Malformation::Expected {
                key,
                value,
                expected,
            } => write!(f, "{key}:{value}: expected {expected}"),
            Malformation::PieceLetter { key, value, found } => write!(
                f,
                "{key}:{value}: '{}' is not a piece letter ({TAFLMAN_LETTERS})",
                found.escape_default()
            ),
            Malformation::Square { key, value, item } => {
                write!(f, "{key}:{value}: '{item}' is not a square")
            }
            Malformation::Start(e) => write!(f, "start: {e}"),
        }
    }
}

impl RulesStringError {
    fn expected(key: &str, value: &str, expected: &'static str) -> RulesStringError {
        RulesStringError::Malformed(Malformation::Expected {
            key: key.to_string(),
            value: excerpt(value),
            expected,
        })
    }

    fn unsupported(key: &str, value: &str, reason: impl Into<String>) -> RulesStringError {
        // The pair comes from the peer and goes back to it: anything but printable ASCII is
        // escaped.
        let printable = |text: &str| bounded_line(text, usize::MAX);
        RulesStringError::Unsupported {
            key_value: format!("{}:{}", printable(key), printable(value)),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for RulesStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesStringError::Unsupported { key_value, reason } => {
                write!(f, "unsupported rule: {key_value} ({reason})")
            }
            RulesStringError::Malformed(m) => write!(f, "bad rules string: {m}"),
        }
    }
}

impl std::error::Error for RulesStringError {}

/// A parsed rules string: the rules, the start position (with the side that moves first to
/// move) and the game's name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesString {
    /// The rules, with `MoveLimit=0` (OpenTafl has none).
    pub rules: Rules,
    /// The start position.
    pub start: Board,
    /// The `name:` value, if given (`_` stands for a space).
    pub name: Option<String>,
}

/// Letters of a piece list: which of the pieces Tablut has it names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pieces {
    attacker: bool,
    defender: bool,
    king: bool,
}

/// The piece list OpenTafl writes for "every piece" (taflman, commander, knight, king, for
/// each side); its variant editor also writes mercenaries and guards (`m`, `g`), which
/// [`TAFLMAN_LETTERS`] holds.
const ALL_PIECES: &str = "tcnkTCNK";

/// A piece list: any of OpenTafl's twelve letters, of which only `t`, `T` and `K` stand for
/// pieces Tablut has (the others change nothing, since a start position holding them is
/// refused).
fn piece_list(key: &str, value: &str) -> Result<Pieces, RulesStringError> {
    if let Some(c) = value.chars().find(|c| !TAFLMAN_LETTERS.contains(*c)) {
        return Err(RulesStringError::Malformed(Malformation::PieceLetter {
            key: key.to_string(),
            value: excerpt(value),
            found: c,
        }));
    }
    Ok(Pieces {
        attacker: value.contains('t'),
        defender: value.contains('T'),
        king: value.contains('K'),
    })
}

fn yes_no(key: &str, value: &str) -> Result<bool, RulesStringError> {
    match value {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(RulesStringError::expected(key, value, "y or n")),
    }
}

/// The squares of a coordinate list (`a1,b2,`), checked.
fn square_list(key: &str, value: &str) -> Result<Vec<String>, RulesStringError> {
    let items: Vec<String> = value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    for item in &items {
        if item.parse::<konakis_core::types::Square>().is_err() {
            return Err(RulesStringError::Malformed(Malformation::Square {
                key: key.to_string(),
                value: excerpt(value),
                item: excerpt(item),
            }));
        }
    }
    Ok(items)
}

/// Splits a rules string into its `key:value` pairs, in the order given, and checks its
/// structure: every token a pair, no key twice, a `dim:`, at most one start.
fn tokenize(text: &str) -> Result<Vec<(&str, &str)>, RulesStringError> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for token in text.split_whitespace() {
        let Some((key, value)) = token.split_once(':') else {
            return Err(RulesStringError::Malformed(Malformation::NotAPair(
                excerpt(token),
            )));
        };
        if pairs.iter().any(|(k, _)| *k == key) {
            return Err(RulesStringError::Malformed(Malformation::Twice(excerpt(
                key,
            ))));
        }
        pairs.push((key, value));
    }
    let get = |key: &str| pairs.iter().any(|(k, _)| *k == key);
    if !get("dim") {
        return Err(RulesStringError::Malformed(Malformation::NoDim));
    }
    if get("start") && get("starti") {
        return Err(RulesStringError::Malformed(Malformation::BothStarts));
    }
    Ok(pairs)
}

/// Parses a rules string. See the module documentation for what is accepted.
pub fn parse_rules(text: &str) -> Result<RulesString, RulesStringError> {
    let pairs = tokenize(text)?;
    let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let unsupported = RulesStringError::unsupported;

    // OpenTafl's defaults for the keys left out: a strong (English) armed king, attackers
    // first, encirclement on, no rule 10, a draw on the third repetition. The throne's options
    // are worked out below.
    let mut rules = Rules {
        ruleset: Ruleset::Linnaeus,
        king_capture: KingCapture::English,
        first_move: Side::Attackers,
        king_armed: true,
        throne_guard_capture: false,
        repetition_draw: 3,
        move_limit: 0,
        encirclement: true,
        ..Rules::default()
    };
    for &(key, value) in &pairs {
        read_pair(&mut rules, key, value)?;
    }
    // Keys left out that would give a game Konakis does not play.
    if get("esc").is_none() {
        return Err(unsupported(
            "esc",
            "c",
            "left out, so OpenTafl's default: corner escape",
        ));
    }
    if get("cor").is_none() {
        return Err(unsupported(
            "cor",
            "a1,i1,a9,i9",
            "left out, so OpenTafl's default corner squares; write cor: for none",
        ));
    }

    read_throne(&mut rules, get)?;

    let name = get("name").map(|value| value.replace('_', " "));
    let record = match (get("start"), get("starti")) {
        (Some(value), _) => Some(value.to_string()),
        (None, Some(value)) => Some(invert_record(value)),
        (None, None) => None,
    };
    let Some(record) = record else {
        return Err(RulesStringError::Malformed(Malformation::NoStart));
    };
    let start = parse_position_record(&record, rules.first_move).map_err(|e| match e {
        NotationError::ForeignPiece { .. } => {
            RulesStringError::unsupported("start", &record, e.to_string())
        }
        _ => RulesStringError::Malformed(Malformation::Start(e)),
    })?;
    Ok(RulesString { rules, start, name })
}

/// Reads the throne's keys (`cens`, `cenre`, `cenp`, `cenh`, `cenhe`) together into `rules`,
/// whose `KingArmed` is already read; `get` gives a key's value.
fn read_throne<'a>(
    rules: &mut Rules,
    get: impl Fn(&str) -> Option<&'a str>,
) -> Result<(), RulesStringError> {
    let unsupported = RulesStringError::unsupported;
    // OpenTafl's defaults for the keys left out.
    let list = |key: &str, default: &'static str| {
        let value = get(key).unwrap_or(default);
        piece_list(key, value).map(|p| (value, p))
    };
    let (cens_v, cens) = list("cens", "K")?;
    let (_, cenre) = list("cenre", ALL_PIECES)?;
    let (cenp_v, cenp) = list("cenp", ALL_PIECES)?;
    let (cenh_v, cenh) = list("cenh", "tcnk")?;
    let (cenhe_v, cenhe) = list("cenhe", ALL_PIECES)?;
    if cens.attacker || cens.defender {
        return Err(unsupported(
            "cens",
            cens_v,
            "soldiers may stop on the throne; in Konakis only the king may",
        ));
    }
    rules.king_reenters_throne = cens.king && cenre.king;
    rules.throne_passable = if cenp.attacker && cenp.defender && cenp.king {
        true
    } else if !cenp.attacker && !cenp.defender && cenp.king == rules.king_reenters_throne {
        false
    } else {
        return Err(unsupported(
            "cenp",
            cenp_v,
            "Konakis lets all pieces cross the empty throne, or only a king who may stop on it",
        ));
    };
    if !cenhe.king {
        return Err(unsupported(
            "cenhe",
            cenhe_v,
            "the empty throne must count against the king beside it",
        ));
    }
    if cenhe.attacker != cenhe.defender {
        return Err(unsupported(
            "cenhe",
            cenhe_v,
            "the empty throne is hostile to both sides' soldiers or to neither",
        ));
    }
    rules.throne_hostile = cenhe.attacker;
    if cenh.defender {
        return Err(unsupported(
            "cenh",
            cenh_v,
            "the king's throne captures defenders only under linc:y (Linnaeus' rule 10)",
        ));
    }
    if cenh.attacker && !rules.king_armed {
        return Err(unsupported(
            "cenh",
            cenh_v,
            "the throne of an unarmed king does not capture attackers",
        ));
    }
    Ok(())
}

/// Reads one `key:value` pair into `rules` (the throne's keys are read together by
/// [`read_throne`]; `name`, `start` and `starti` by [`parse_rules`]).
fn read_pair(rules: &mut Rules, key: &str, value: &str) -> Result<(), RulesStringError> {
    let unsupported = RulesStringError::unsupported;
    match key {
        "dim" => match value.parse::<usize>() {
            Ok(SIDE) => {}
            Ok(_) => return Err(unsupported(key, value, "Konakis plays on a 9x9 board")),
            Err(_) => {
                return Err(RulesStringError::Malformed(Malformation::DimNotNumber(
                    excerpt(value),
                )));
            }
        },
        // Read by parse_rules.
        "name" | "start" | "starti" => {}
        "esc" => match value {
            "e" => {}
            "c" => {
                return Err(unsupported(
                    key,
                    value,
                    "corner escape; Konakis plays edge escape",
                ));
            }
            _ => {
                return Err(RulesStringError::expected("esc", value, "e or c"));
            }
        },
        "atkf" => {
            rules.first_move = if yes_no(key, value)? {
                Side::Attackers
            } else {
                Side::Defenders
            }
        }
        "ka" => match value {
            "y" | "n" => rules.king_armed = value == "y",
            "a" | "h" => {
                return Err(unsupported(
                    key,
                    value,
                    "a king armed only as anvil or only as hammer",
                ));
            }
            _ => {
                return Err(RulesStringError::expected("ka", value, "y, n, a or h"));
            }
        },
        "ks" => match value {
            "c" => rules.king_capture = KingCapture::Original,
            "s" | "y" => rules.king_capture = KingCapture::English,
            "w" | "n" => {
                return Err(unsupported(
                    key,
                    value,
                    "a king taken by two attackers on and beside the throne too",
                ));
            }
            "m" => return Err(unsupported(key, value, "a middleweight king")),
            _ => {
                return Err(RulesStringError::expected("ks", value, "s, c, m or w"));
            }
        },
        "surf" => rules.encirclement = yes_no(key, value)?,
        "tfr" => match value {
            "d" => {}
            "w" | "l" | "i" => {
                return Err(unsupported(
                    key,
                    value,
                    "Konakis draws on the third repetition",
                ));
            }
            _ => {
                return Err(RulesStringError::expected("tfr", value, "d, w, l or i"));
            }
        },
        "kj" => match value {
            "n" => {}
            "c" | "j" | "r" => return Err(unsupported(key, value, "a jumping king")),
            _ => {
                return Err(RulesStringError::expected("kj", value, "n, c, j or r"));
            }
        },
        // Knights, commanders, mercenaries and guards: the start position may not hold any,
        // so their moves change nothing.
        "nj" | "cj" | "mj" | "gj" => {
            if !["n", "c", "j", "r"].contains(&value) {
                return Err(RulesStringError::expected(key, value, "n, c, j or r"));
            }
        }
        "cor" => {
            if !square_list(key, value)?.is_empty() {
                return Err(unsupported(key, value, "corner squares"));
            }
        }
        "cen" => {
            let squares = square_list(key, value)?;
            if squares.is_empty() {
                return Err(unsupported(key, value, "a board without a throne"));
            }
            if squares != ["e5"] {
                return Err(unsupported(key, value, "Konakis' throne is e5 alone"));
            }
        }
        "afor" | "dfor" => {
            if !square_list(key, value)?.is_empty() {
                return Err(unsupported(key, value, "fort squares"));
            }
        }
        // Properties of corner and fort squares, which the game does not have (a missing
        // or non-empty cor, afor or dfor is refused).
        "corp" | "cors" | "corh" | "corre" | "aforp" | "afors" | "aforh" | "aforre" | "dforp"
        | "dfors" | "dforh" | "dforre" => {
            piece_list(key, value)?;
        }
        // Throne properties: checked together below.
        "cenp" | "cens" | "cenh" | "cenhe" | "cenre" => {
            piece_list(key, value)?;
        }
        "linc" => rules.throne_guard_capture = yes_no(key, value)?,
        "sw" => match value {
            "n" => {}
            "s" | "w" => return Err(unsupported(key, value, "shieldwall captures")),
            _ => {
                return Err(RulesStringError::expected("sw", value, "n, s or w"));
            }
        },
        // Flanking for shieldwalls (off) and escape through edge forts (there are none).
        "swf" | "efe" => {
            yes_no(key, value)?;
        }
        "ber" => match value {
            "n" => {}
            "m" | "c" => return Err(unsupported(key, value, "berserk moves")),
            _ => {
                return Err(RulesStringError::expected("ber", value, "n, m or c"));
            }
        },
        "spd" => {
            let limits: Vec<&str> = value.split(',').filter(|s| !s.is_empty()).collect();
            if limits.iter().any(|s| s.parse::<i32>().is_err()) {
                return Err(RulesStringError::expected("spd", value, "numbers"));
            }
            if limits.iter().any(|s| *s != "-1") {
                return Err(unsupported(key, value, "speed limits"));
            }
        }
        _ => {
            return Err(unsupported(
                key,
                value,
                "a key Konakis does not know, so it cannot tell what it changes",
            ));
        }
    }
    Ok(())
}

/// Whether OpenTafl's rules strings can say exactly what `rules` are (the move limit aside:
/// OpenTafl has none, and a referee enforces it on its own). `Err` names what cannot be said.
pub fn check_expressible(rules: &Rules) -> Result<(), Inexpressible> {
    if rules.ruleset != Ruleset::Linnaeus {
        return Err(Inexpressible::Ashton);
    }
    if rules.repetition_draw != 3 {
        return Err(Inexpressible::RepetitionDraw(rules.repetition_draw));
    }
    Ok(())
}

/// Rules that no OpenTafl rules string can say ([`check_expressible`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Inexpressible {
    /// `Ruleset=Ashton`.
    Ashton,
    /// A `RepetitionDraw` other than 3; the value.
    RepetitionDraw(u32),
}

impl fmt::Display for Inexpressible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inexpressible::Ashton => f.write_str("Ruleset=Ashton has no OpenTafl rules string"),
            Inexpressible::RepetitionDraw(n) => write!(
                f,
                "RepetitionDraw={n}: OpenTafl draws on the third repetition"
            ),
        }
    }
}

impl std::error::Error for Inexpressible {}

/// Where a rules string puts its start position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StartKey {
    /// `start:`, rank 1 first, as in OTEP's `rules` line.
    Start,
    /// `starti:`, rank 9 first, as in the `rules` tag of OpenTafl's `.otg` records.
    StartI,
}

/// The rules string for `rules` from `start`, whose side to move is the side that moves first,
/// in OpenTafl's key order and with its habit of leaving out `ka`, `surf` and `tfr` at their
/// defaults, so that OpenTafl's Tablut comes out exactly as OpenTafl writes it. The move limit
/// is left out (OpenTafl has none); rules that [`check_expressible`] refuses get the nearest
/// string. [`parse_rules`] reads it back.
///
/// ```
/// use konakis_core::{Board, Rules};
/// use konakis_protocols::opentafl::rules_string::{StartKey, format_rules, parse_rules};
/// let rules = Rules::opentafl();
/// let text = format_rules(&rules, &Board::start(&rules), StartKey::Start);
/// assert!(text.starts_with("dim:9 name:Tablut esc:e atkf:y ks:c"));
/// let back = parse_rules(&text).unwrap();
/// assert_eq!(back.rules, Rules { move_limit: 0, ..rules });
/// ```
pub fn format_rules(rules: &Rules, start: &Board, key: StartKey) -> String {
    let yn = |b: bool| if b { 'y' } else { 'n' };
    let mut s = String::with_capacity(200);
    s.push_str("dim:9 name:Tablut esc:e ");
    s.push_str(&format!(
        "atkf:{} ",
        yn(start.side_to_move() == Side::Attackers)
    ));
    if !rules.king_armed {
        s.push_str("ka:n ");
    }
    if !rules.encirclement {
        s.push_str("surf:n ");
    }
    s.push_str(match rules.king_capture {
        KingCapture::Original => "ks:c ",
        KingCapture::English => "ks:s ",
        // The family's king captures (crates/core); this 9x9 writer has no use for them yet.
        KingCapture::TwoAwayFromThrone | KingCapture::Two => "ks:w ",
        KingCapture::Surrounded => "ks:m ",
    });
    let cenp = if rules.throne_passable {
        ALL_PIECES
    } else if rules.king_reenters_throne {
        "K"
    } else {
        ""
    };
    let cens = if rules.king_reenters_throne { "K" } else { "" };
    let cenhe = if rules.throne_hostile {
        ALL_PIECES
    } else {
        "K"
    };
    s.push_str(&format!(
        "nj:n cor: cenp:{cenp} cens:{cens} cenh: cenhe:{cenhe} linc:{} ",
        yn(rules.throne_guard_capture)
    ));
    let record = position_record(start);
    match key {
        StartKey::Start => s.push_str(&format!("start:{record}")),
        StartKey::StartI => s.push_str(&format!("starti:{}", invert_record(&record))),
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    const TABLUT: &str = "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: \
                          cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/\
                          t3T3t/4T4/4t4/3ttt3/";

    fn unsupported_key(text: &str) -> String {
        match parse_rules(text) {
            Err(RulesStringError::Unsupported { key_value, .. }) => key_value,
            other => panic!("{text}: expected an unsupported rule, got {other:?}"),
        }
    }

    #[test]
    fn opentafls_tablut_is_written_as_opentafl_writes_it() {
        let rules = Rules::opentafl();
        let start = Board::start(&rules);
        assert_eq!(format_rules(&rules, &start, StartKey::Start), TABLUT);
        assert_eq!(
            format_rules(&rules, &start, StartKey::StartI),
            TABLUT.replace("start:", "starti:")
        );
    }

    #[test]
    fn opentafl_tablut_gives_the_listed_options_and_no_move_limit() {
        let r = parse_rules(TABLUT).unwrap();
        assert_eq!(
            r.rules,
            Rules {
                move_limit: 0,
                ..Rules::opentafl()
            }
        );
        assert_eq!(r.name.as_deref(), Some("Tablut"));
        assert_eq!(r.start, Board::start(&Rules::opentafl()));
    }

    #[test]
    fn every_expressible_rule_set_round_trips() {
        for bits in 0..128u32 {
            let rules = Rules {
                king_capture: if bits & 1 != 0 {
                    KingCapture::English
                } else {
                    KingCapture::Original
                },
                first_move: if bits & 2 != 0 {
                    Side::Defenders
                } else {
                    Side::Attackers
                },
                king_armed: bits & 4 != 0,
                throne_hostile: bits & 8 != 0,
                king_reenters_throne: bits & 16 != 0,
                throne_passable: bits & 32 != 0,
                throne_guard_capture: bits & 64 != 0,
                encirclement: bits & 3 == 1,
                move_limit: 0,
                ..Rules::default()
            };
            let key = if bits & 1 != 0 {
                StartKey::StartI
            } else {
                StartKey::Start
            };
            let text = format_rules(&rules, &Board::start(&rules), key);
            let back = parse_rules(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.rules, rules, "{text}");
            assert_eq!(back.start, Board::start(&rules), "{text}");
        }
    }

    #[test]
    fn left_out_keys_take_opentafls_defaults() {
        // Only what must be said: edge escape, no corners, a start.
        let r = parse_rules(&format!("dim:9 esc:e cor: start:{START}")).unwrap();
        // Defaults: strong king (English), armed, attackers first, encirclement, a hostile
        // empty throne, the king alone stops on it and may come back, anyone crosses it.
        let want = Rules {
            king_capture: KingCapture::English,
            throne_hostile: true,
            king_reenters_throne: true,
            throne_passable: true,
            throne_guard_capture: false,
            encirclement: true,
            move_limit: 0,
            ..Rules::default()
        };
        assert_eq!(r.rules, want);
        assert_eq!(
            unsupported_key(&format!("dim:9 cor: start:{START}")),
            "esc:c"
        );
        assert_eq!(
            unsupported_key(&format!("dim:9 esc:e start:{START}")),
            "cor:a1,i1,a9,i9"
        );
    }

    #[test]
    fn unplayable_rules_name_the_offending_pair() {
        let base = "dim:9 esc:e cor:";
        let cases = [
            ("dim:11", "dim:11"),
            ("esc:c", "esc:c"),
            ("ka:a", "ka:a"),
            ("ka:h", "ka:h"),
            ("ks:w", "ks:w"),
            ("ks:m", "ks:m"),
            ("tfr:w", "tfr:w"),
            ("kj:j", "kj:j"),
            ("cen:", "cen:"),
            ("cen:d4", "cen:d4"),
            ("afor:a4,", "afor:a4,"),
            ("dfor:e4", "dfor:e4"),
            ("sw:s", "sw:s"),
            ("ber:m", "ber:m"),
            ("spd:3", "spd:3"),
            ("cens: cenp:K", "cenp:K"),
            ("cens:tK", "cens:tK"),
            ("cenp:tT", "cenp:tT"),
            ("cenhe:tK", "cenhe:tK"),
            ("cenhe:tT", "cenhe:tT"),
            ("cenh:T", "cenh:T"),
            ("ka:n", "cenh:tcnk"),
            ("wibble:y", "wibble:y"),
        ];
        for (extra, want) in cases {
            let text = match extra {
                // These replace a key of the base instead of adding one.
                "dim:11" => format!("dim:11 esc:e cor: start:{START}"),
                "esc:c" => format!("dim:9 esc:c cor: start:{START}"),
                _ => format!("{base} {extra} start:{START}"),
            };
            assert_eq!(unsupported_key(&text), want, "{text}");
        }
        let knights = START.replacen("3ttt3/", "3tnt3/", 1);
        assert!(unsupported_key(&format!("{base} start:{knights}")).starts_with("start:"));
    }

    #[test]
    fn malformed_strings_are_refused_as_such() {
        for text in [
            "",
            "esc:e cor: start:/9/",
            &format!("dim:9 esc:e cor: surf:maybe start:{START}"),
            &format!("dim:9 esc:e esc:e cor: start:{START}"),
            &format!("dim:9 esc:e cor: cenp:xyz start:{START}"),
            &format!("dim:9 esc:e cor: junk start:{START}"),
            "dim:9 esc:e cor:",
            "dim:9 esc:e cor: start:/3ttt3/",
        ] {
            match parse_rules(text) {
                Err(RulesStringError::Malformed(_)) => {}
                other => panic!("{text:?}: expected malformed, got {other:?}"),
            }
        }
    }

    #[test]
    fn opentafls_whole_piece_alphabet_is_accepted() {
        // As OpenTafl's variant editor writes the lists: all twelve letters.
        let text = format!(
            "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cj:n mj:n gj:j cor: \
             cenp:tcnkmgTCNKMG cens: cenh: cenhe:tcnkmgTCNKMG cenre:tcnkmgTCNKMG linc:y \
             start:{START}"
        );
        let r = parse_rules(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.rules, parse_rules(TABLUT).unwrap().rules);
        // A letter for a piece Tablut lacks changes nothing; what would change the game is
        // still refused by name, and a mercenary on the board is a piece Tablut does not have.
        assert!(parse_rules(&text.replace("cens:", "cens:mgMG")).is_ok());
        assert_eq!(
            unsupported_key(&text.replace("cens:", "cens:mt")),
            "cens:mt"
        );
        let mercenary = START.replacen("3ttt3/", "3tmt3/", 1);
        assert!(
            unsupported_key(&format!("dim:9 esc:e cor: start:{mercenary}")).starts_with("start:")
        );
        assert!(matches!(
            parse_rules(&text.replace("mj:n", "mj:x")),
            Err(RulesStringError::Malformed(_))
        ));
    }

    #[test]
    fn harmless_keys_are_accepted() {
        let text = format!(
            "dim:9 name:My_Tablut esc:e cor: nj:c cj:r corh:tT aforp: swf:n efe:y spd:-1 \
             cen:e5, start:{START}"
        );
        let r = parse_rules(&text).unwrap();
        assert_eq!(r.name.as_deref(), Some("My Tablut"));
    }

    #[test]
    fn starti_lists_rank_nine_first() {
        // The king on e2 (rank 2 from the bottom) is the 8th rank of an inverted record.
        let record = "/3ttt3/4t4/4T4/t3T3t/tt1T1Tt1t/t3T3t/4T4/4K4/3ttt3/";
        let r = parse_rules(&format!("dim:9 esc:e cor: starti:{record}")).unwrap();
        assert_eq!(r.start.king(), Some("e2".parse().unwrap()));
        let r = parse_rules(&format!("dim:9 esc:e cor: start:{record}")).unwrap();
        assert_eq!(r.start.king(), Some("e8".parse().unwrap()));
    }

    #[test]
    fn expressible_rules() {
        assert!(check_expressible(&Rules::opentafl()).is_ok());
        assert!(check_expressible(&Rules::ashton()).is_err());
        let r = Rules {
            repetition_draw: 2,
            ..Rules::default()
        };
        assert!(
            check_expressible(&r)
                .unwrap_err()
                .to_string()
                .contains("RepetitionDraw=2")
        );
    }

    #[test]
    fn a_refused_pair_is_written_in_ascii() {
        let text = "dim:9 esc:e cor: na\u{e9}me:x\u{0} start:/9/9/9/9/4K4/9/9/9/9/";
        let e = parse_rules(text).unwrap_err().to_string();
        assert!(
            e.is_ascii() && !e.chars().any(|c| c.is_ascii_control()),
            "{e:?}"
        );
        assert!(
            e.starts_with("unsupported rule: na\\u{e9}me:x\\u{0} ("),
            "{e:?}"
        );
    }
}
