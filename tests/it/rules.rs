//! Every rule of the README's "The rules", each rule option on and off, checked on hand-built
//! positions through the library's public API.
//!
//! The cases are data: tests/data/rules/*.txt, one file per topic, in the format of
//! tests/data/rules/README.md (a start board drawn as a picture, the rule options as
//! `setoption` names them, the moves, and what must follow). [`every_rule_case_holds`] reads
//! every file, runs every case under each of its rule sets and reports every failing case by
//! file, line and name; a file that does not parse fails the test with the line at fault.
//!
//! What stays in Rust is not a board, a move and an expectation: the start position under
//! `FirstMove` (every generated move of the start belongs to the side to move, for each
//! preset) and under the Ashton rules, and the runner's own tests.

use konakis::perft::perft;
use konakis::rules::Preset;
use konakis::{
    Bitboard, Board, DrawReason, Game, IllegalReason, Piece, Rules, Side, Status, WinReason,
};
use konakis_core::board::{BoardOf, GameErrorOf, GameOf, IllegalMoveOf, MoveErrorOf};
use konakis_core::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use konakis_core::rules::{BoardSize, Repetition, Variant};
use konakis_core::{BitboardOf, MoveOf, SquareOf};
use std::fmt::Write as _;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The fixture format
// ---------------------------------------------------------------------------------------------

/// One case of a fixture file.
#[derive(Debug)]
struct Case<G: Geometry> {
    /// Its name, from its `case` line.
    name: String,
    /// The line of its `case` line.
    line: usize,
    /// Each rule set it runs under, with the words that made it.
    rules: Vec<(String, Rules)>,
    /// The board it starts from.
    start: BoardOf<G>,
    /// What is done and checked, in order, each with its line.
    steps: Vec<(usize, Step<G>)>,
}

/// Which status a status line checks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Judge {
    /// The game's and the board's alike (`status`).
    Both,
    /// The game's only: it sees repetition (`game-status`).
    Game,
    /// The board's only (`board-status`).
    Board,
}

/// One line after the start board.
#[derive(Debug)]
enum Step<G: Geometry> {
    /// `play M…`: each move legal, played on the board and in the game.
    Play(Vec<MoveOf<G>>),
    /// `captures S…|none`: what the last move took.
    Captures(BitboardOf<G>),
    /// `board: [side [plies]]` and a row per rank: the placement (and side, plies) now.
    Board {
        placement: String,
        side: Option<Side>,
        plies: Option<u32>,
    },
    /// `status`, `game-status`, `board-status`.
    Status(Judge, Status),
    /// `legal M…`: each move legal here (given as written, `d1d3` or `d1-d3`).
    Legal(Vec<String>),
    /// `illegal M kind ["words"]`: refused for that reason, by the board and the game.
    Illegal {
        mv: MoveOf<G>,
        kind: &'static str,
        words: Option<String>,
    },
    /// `over M`: the game is over and refuses the move.
    Over(MoveOf<G>),
    /// `game-illegal M repetition`: the board allows the move, the game refuses it under its
    /// repetition rule (hnefatafl.org's), and does not list it.
    GameIllegal(MoveOf<G>),
    /// `moves N`: the number of legal moves; `moves some`: at least one.
    Moves(Option<usize>),
    /// `targets S S…|none`: exactly the squares the piece on the first square may move to.
    Targets(SquareOf<G>, BitboardOf<G>),
    /// `king S|none`.
    King(Option<SquareOf<G>>),
    /// `attackers S…|none`, `defenders S…|none` (the king not counted).
    Soldiers(Side, BitboardOf<G>),
    /// `piece S b|w|K|.`.
    Piece(SquareOf<G>, Option<Piece>),
    /// `encircled yes|no`.
    Encircled(bool),
    /// `open-lines N`: `BoardOf::king_open_lines`.
    OpenLines(u32),
    /// `occurrences N`: `GameOf::occurrences`.
    Occurrences(usize),
    /// `plies N`: the board's ply count.
    Plies(u32),
}

/// The word for each reason `check_move` gives, as `illegal` lines write it.
fn reason_word(reason: IllegalReason) -> &'static str {
    match reason {
        IllegalReason::GameOver => "game-over",
        IllegalReason::NoPiece => "no-piece",
        IllegalReason::WrongSide(_) => "wrong-side",
        IllegalReason::SameSquare => "same-square",
        IllegalReason::Occupied => "occupied",
        IllegalReason::Throne => "throne",
        IllegalReason::Camp => "camp",
        IllegalReason::NotStraight => "not-straight",
        IllegalReason::Blocked => "blocked",
        IllegalReason::Corner => "corner",
        IllegalReason::Repetition => "repetition",
    }
}

const REASON_WORDS: [&str; 11] = [
    "game-over",
    "no-piece",
    "wrong-side",
    "same-square",
    "occupied",
    "throne",
    "camp",
    "not-straight",
    "blocked",
    "corner",
    "repetition",
];

/// A status as status lines write it: `ongoing`, the winner and `Status::ending`
/// (`defenders escape`), or `draw` and the ending (`draw repetition`).
fn status_words(status: Status) -> String {
    match status {
        Status::Ongoing => "ongoing".to_string(),
        Status::Win(side, _) => format!("{side} {}", status.ending().unwrap_or_default()),
        Status::Draw(_) => format!("draw {}", status.ending().unwrap_or_default()),
    }
}

/// Every status there is, so that a status line is read by matching its words.
fn all_statuses() -> Vec<Status> {
    let mut all = vec![
        Status::Ongoing,
        Status::Draw(DrawReason::Repetition),
        Status::Draw(DrawReason::MoveLimit),
    ];
    for side in Side::BOTH {
        for why in [
            WinReason::KingEscaped,
            WinReason::KingCaptured,
            WinReason::Encircled,
            WinReason::NoMoves,
            WinReason::ExitFort,
            WinReason::Repetition,
            WinReason::CannotEscape,
        ] {
            all.push(Status::Win(side, why));
        }
    }
    all
}

fn parse_status(text: &str) -> Result<Status, String> {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    all_statuses()
        .into_iter()
        .find(|&s| status_words(s) == words)
        .ok_or_else(|| {
            format!(
                "'{text}' is not a status (e.g. 'ongoing', 'defenders escape', 'draw repetition')"
            )
        })
}

fn parse_square<G: Geometry>(text: &str) -> Result<SquareOf<G>, String> {
    text.parse().map_err(|e| format!("{e}"))
}

fn parse_move<G: Geometry>(text: &str) -> Result<MoveOf<G>, String> {
    MoveOf::<G>::parse(text).map_err(|e| format!("{e}"))
}

/// Squares separated by spaces, or `none`.
fn parse_squares<G: Geometry>(text: &str) -> Result<BitboardOf<G>, String> {
    if text.trim() == "none" {
        return Ok(BitboardOf::<G>::EMPTY);
    }
    if text.trim().is_empty() {
        return Err("no squares (write 'none' for none)".to_string());
    }
    text.split_whitespace().map(parse_square).collect()
}

fn parse_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number", text.trim()))
}

fn parse_yes_no(text: &str) -> Result<bool, String> {
    match text.trim() {
        "yes" => Ok(true),
        "no" => Ok(false),
        other => Err(format!("'{other}' is neither yes nor no")),
    }
}

/// `side [plies]` as a position string ends: `b` or `w`, then the plies played.
fn parse_side_plies(text: &str) -> Result<(Option<Side>, Option<u32>), String> {
    let mut words = text.split_whitespace();
    let side = match words.next() {
        None => None,
        Some("b") => Some(Side::Attackers),
        Some("w") => Some(Side::Defenders),
        Some(other) => return Err(format!("'{other}' is not a side (b or w)")),
    };
    let plies = words.next().map(parse_number).transpose()?;
    if let Some(extra) = words.next() {
        return Err(format!("unexpected '{extra}'"));
    }
    Ok((side, plies))
}

/// One picture row (nine cells: `b`, `w`, `K`, `.`, `+` for the empty throne, `*` for an empty
/// camp square) as a rank of a position string's placement. In a picture that marks the camps
/// (`camps`: it has a `*`), every empty camp square is `*`, so that it shows where they are.
fn picture_rank<G: Geometry>(row: &str, rank: u8, camps: bool) -> Result<String, String> {
    let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != G::SIDE {
        return Err(format!(
            "a picture row has {} cells, this one {}",
            G::SIDE,
            cells.len()
        ));
    }
    let mut out = String::new();
    let mut empty = 0u8;
    for (file, &c) in cells.iter().enumerate() {
        let here = SquareOf::<G>::from_coords(file as u8, rank).expect("on the board");
        match c {
            '.' | '+' | '*' => {
                if (c == '+') != (here == SquareOf::<G>::THRONE) {
                    return Err(format!("'{c}' on {here}: '+' marks the empty throne, e5"));
                }
                let camp = BitboardOf::<G>::CAMPS.has(here);
                if c == '*' && !camp {
                    return Err(format!("'*' on {here}, which is no camp square"));
                }
                if c == '.' && camps && camp {
                    return Err(format!(
                        "'.' on the camp square {here}: a picture with '*' marks every empty \
                         camp square"
                    ));
                }
                empty += 1;
            }
            'b' | 'w' | 'K' => {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
            other => return Err(format!("'{other}' is not a picture cell")),
        }
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    Ok(out)
}

/// A case being read: name, line, rule sets, start board, steps.
type Draft<G> = (
    String,
    usize,
    Vec<(String, Rules)>,
    Option<BoardOf<G>>,
    Vec<(usize, Step<G>)>,
);

/// Reads a fixture file: its cases, or the first error with its line.
fn parse_fixture<G: Geometry>(text: &str) -> Result<Vec<Case<G>>, (usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut cases: Vec<Case<G>> = Vec::new();
    // The case being read: name, line, rule sets, start board, steps, whether a move was played.
    let mut current: Option<Draft<G>> = None;
    let mut played = false;
    let mut i = 0;
    // The placement drawn in the rows (one a rank) after line `at`.
    let picture = |at: usize| -> Result<String, (usize, String)> {
        let rows = (0..G::SIDE)
            .map(|k| {
                let n = at + 1 + k;
                lines
                    .get(n)
                    .map(|row| (n, *row))
                    .ok_or((n + 1, format!("the picture stops before its row {}", k + 1)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let camps = rows.iter().any(|(_, row)| row.contains('*'));
        let mut ranks = Vec::new();
        for (k, (n, row)) in rows.into_iter().enumerate() {
            ranks.push(picture_rank::<G>(row, (G::LAST - k) as u8, camps).map_err(|e| (n + 1, e))?);
        }
        Ok(ranks.join("/"))
    };
    let finish =
        |case: Option<Draft<G>>, cases: &mut Vec<Case<G>>| -> Result<(), (usize, String)> {
            if let Some((name, line, mut rules, start, steps)) = case {
                let start = start.ok_or((line, format!("case '{name}' has no start board")))?;
                if steps.is_empty() {
                    return Err((line, format!("case '{name}' checks nothing")));
                }
                if rules.is_empty() {
                    rules.push(("original".to_string(), Rules::default()));
                }
                cases.push(Case {
                    name,
                    line,
                    rules,
                    start,
                    steps,
                });
            }
            Ok(())
        };
    while i < lines.len() {
        let n = i + 1;
        let line = lines[i].trim();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = match line.split_once(char::is_whitespace) {
            Some((k, r)) => (k, r.trim()),
            None => (line, ""),
        };
        if key == "case" {
            if rest.is_empty() {
                return Err((n, "a case needs a name".to_string()));
            }
            finish(current.take(), &mut cases)?;
            current = Some((rest.to_string(), n, Vec::new(), None, Vec::new()));
            played = false;
            continue;
        }
        let Some((_, _, rules, start, steps)) = current.as_mut() else {
            return Err((n, format!("'{line}' comes before the first 'case'")));
        };
        let err = |e: String| (n, e);
        match key {
            "rules:" => {
                if start.is_some() {
                    return Err(err("'rules:' comes before the start board".to_string()));
                }
                rules.extend(parse_rules(rest).map_err(err)?);
            }
            "start:" | "position:" => {
                if start.is_some() {
                    return Err(err("a second start board".to_string()));
                }
                let fen = if key == "start:" {
                    let (side, plies) = parse_side_plies(rest).map_err(err)?;
                    let side = side.ok_or_else(|| {
                        err("'start:' needs the side to move, b or w".to_string())
                    })?;
                    let fen = format!(
                        "{} {} {}",
                        picture(i - 1)?,
                        side.letter(),
                        plies.unwrap_or(0)
                    );
                    i += G::SIDE;
                    fen
                } else {
                    rest.to_string()
                };
                *start =
                    Some(BoardOf::<G>::from_fen(&fen).map_err(|e| err(format!("{fen}: {e}")))?);
            }
            _ if start.is_none() => {
                return Err(err(format!("'{key}' comes before the start board")));
            }
            "board:" => {
                let (side, plies) = parse_side_plies(rest).map_err(err)?;
                let placement = picture(i - 1)?;
                i += G::SIDE;
                steps.push((
                    n,
                    Step::Board {
                        placement,
                        side,
                        plies,
                    },
                ));
            }
            "play" => {
                let moves = rest
                    .split_whitespace()
                    .map(parse_move)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(err)?;
                if moves.is_empty() {
                    return Err(err("'play' needs a move".to_string()));
                }
                played = true;
                steps.push((n, Step::Play(moves)));
            }
            "captures" => {
                if !played {
                    return Err(err("'captures' before any 'play'".to_string()));
                }
                steps.push((n, Step::Captures(parse_squares(rest).map_err(err)?)));
            }
            "status" | "game-status" | "board-status" => {
                let judge = match key {
                    "status" => Judge::Both,
                    "game-status" => Judge::Game,
                    _ => Judge::Board,
                };
                steps.push((n, Step::Status(judge, parse_status(rest).map_err(err)?)));
            }
            "legal" => {
                let texts: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
                for t in &texts {
                    parse_move::<G>(t).map_err(err)?;
                }
                if texts.is_empty() {
                    return Err(err("'legal' needs a move".to_string()));
                }
                steps.push((n, Step::Legal(texts)));
            }
            "illegal" => {
                let (head, words) = match rest.split_once('"') {
                    Some((h, w)) => {
                        let w = w.strip_suffix('"').ok_or_else(|| {
                            err("the quoted words do not end with '\"'".to_string())
                        })?;
                        (h, Some(w.to_string()))
                    }
                    None => (rest, None),
                };
                let parts: Vec<&str> = head.split_whitespace().collect();
                let [m, kind] = parts[..] else {
                    return Err(err("'illegal' takes a move and a reason".to_string()));
                };
                let kind = REASON_WORDS
                    .into_iter()
                    .find(|&w| w == kind)
                    .ok_or_else(|| {
                        err(format!(
                            "'{kind}' is not a reason ({})",
                            REASON_WORDS.join(", ")
                        ))
                    })?;
                steps.push((
                    n,
                    Step::Illegal {
                        mv: parse_move(m).map_err(err)?,
                        kind,
                        words,
                    },
                ));
            }
            "over" => steps.push((n, Step::Over(parse_move(rest).map_err(err)?))),
            "game-illegal" => {
                let parts: Vec<&str> = rest.split_whitespace().collect();
                let [m, "repetition"] = parts[..] else {
                    return Err(err(
                        "'game-illegal' takes a move and the reason 'repetition'".to_string(),
                    ));
                };
                steps.push((n, Step::GameIllegal(parse_move(m).map_err(err)?)));
            }
            "moves" => {
                let count = match rest {
                    "some" => None,
                    count => Some(parse_number(count).map_err(err)?),
                };
                steps.push((n, Step::Moves(count)));
            }
            "targets" => {
                let (from, to) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                steps.push((
                    n,
                    Step::Targets(
                        parse_square(from).map_err(err)?,
                        parse_squares(to).map_err(err)?,
                    ),
                ));
            }
            "king" => {
                let king = match rest {
                    "none" => None,
                    s => Some(parse_square(s).map_err(err)?),
                };
                steps.push((n, Step::King(king)));
            }
            "attackers" | "defenders" => {
                let side = if key == "attackers" {
                    Side::Attackers
                } else {
                    Side::Defenders
                };
                steps.push((n, Step::Soldiers(side, parse_squares(rest).map_err(err)?)));
            }
            "piece" => {
                let (s, p) = rest
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| err("'piece' takes a square and b, w, K or '.'".to_string()))?;
                let piece = match p.trim() {
                    "b" => Some(Piece::Attacker),
                    "w" => Some(Piece::Defender),
                    "K" => Some(Piece::King),
                    "." => None,
                    other => return Err(err(format!("'{other}' is not b, w, K or '.'"))),
                };
                steps.push((n, Step::Piece(parse_square(s).map_err(err)?, piece)));
            }
            "encircled" => steps.push((n, Step::Encircled(parse_yes_no(rest).map_err(err)?))),
            "open-lines" => steps.push((n, Step::OpenLines(parse_number(rest).map_err(err)?))),
            "occurrences" => steps.push((n, Step::Occurrences(parse_number(rest).map_err(err)?))),
            "plies" => steps.push((n, Step::Plies(parse_number(rest).map_err(err)?))),
            other => return Err(err(format!("unknown line '{other}'"))),
        }
    }
    finish(current, &mut cases)?;
    Ok(cases)
}

/// A case's run under one of its rule sets: the rules' label, and the failure (line, what) if
/// any.
type Run = (String, Result<(), (usize, String)>);

/// A case of a board of any size: the preset its `rules:` lines name says which.
enum AnyCase {
    Seven(Case<Seven>),
    Nine(Case<Nine>),
    Eleven(Case<Eleven>),
    Thirteen(Case<Thirteen>),
}

impl AnyCase {
    /// Its name and the line of its `case` line.
    fn name_and_line(&self) -> (&str, usize) {
        match self {
            AnyCase::Seven(c) => (&c.name, c.line),
            AnyCase::Nine(c) => (&c.name, c.line),
            AnyCase::Eleven(c) => (&c.name, c.line),
            AnyCase::Thirteen(c) => (&c.name, c.line),
        }
    }

    /// Runs the case under each of its rule sets: the label of each, and the failure if any.
    fn run_all(&self) -> Vec<Run> {
        fn all<G: Geometry>(case: &Case<G>) -> Vec<Run> {
            case.rules
                .iter()
                .map(|(label, rules)| (label.clone(), run_case(case, rules)))
                .collect()
        }
        match self {
            AnyCase::Seven(c) => all(c),
            AnyCase::Nine(c) => all(c),
            AnyCase::Eleven(c) => all(c),
            AnyCase::Thirteen(c) => all(c),
        }
    }
}

/// The board size of a preset id of a `rules:` line: a variant's, or 9x9 for Tablut's presets
/// (and for an unknown id, which the parse then reports).
fn preset_size(id: &str) -> BoardSize {
    Variant::find(id).map_or(BoardSize::Nine, |v| v.size)
}

/// Reads a fixture file whose cases may be of any board size: each case is read on the board of
/// the presets its `rules:` lines name (which must all be of one size).
fn parse_fixture_any(text: &str) -> Result<Vec<AnyCase>, (usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].split_whitespace().next() == Some("case"))
        .collect();
    // Anything before the first case: the 9x9 reader reports it as it always has.
    let first = starts.first().copied().unwrap_or(lines.len());
    parse_fixture::<Nine>(&lines[..first].join("\n"))?;
    let mut cases = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        let mut sizes = Vec::new();
        for line in &lines[start..end] {
            let mut words = line.split_whitespace();
            if words.next() == Some("rules:") {
                for id in words.next().unwrap_or_default().split(',') {
                    sizes.push(preset_size(id));
                }
            }
        }
        let size = sizes.first().copied().unwrap_or(BoardSize::Nine);
        if let Some(other) = sizes.iter().find(|&&s| s != size) {
            return Err((
                start + 1,
                format!("the case's presets are of two sizes ({size:?}, {other:?})"),
            ));
        }
        // Blank lines in front keep the line numbers of the file.
        let chunk = "\n".repeat(start) + &lines[start..end].join("\n");
        match size {
            BoardSize::Seven => cases.extend(
                parse_fixture::<Seven>(&chunk)?
                    .into_iter()
                    .map(AnyCase::Seven),
            ),
            BoardSize::Nine => cases.extend(
                parse_fixture::<Nine>(&chunk)?
                    .into_iter()
                    .map(AnyCase::Nine),
            ),
            BoardSize::Eleven => cases.extend(
                parse_fixture::<Eleven>(&chunk)?
                    .into_iter()
                    .map(AnyCase::Eleven),
            ),
            BoardSize::Thirteen => cases.extend(
                parse_fixture::<Thirteen>(&chunk)?
                    .into_iter()
                    .map(AnyCase::Thirteen),
            ),
        }
    }
    Ok(cases)
}

/// A `rules:` line: preset ids (`Preset::find`, or `opentafl`) separated by commas, then `Name=Value`
/// settings (`Rules::set`, as `setoption` applies them), each value list separated by commas;
/// every combination is a rule set.
fn parse_rules(text: &str) -> Result<Vec<(String, Rules)>, String> {
    let mut words = text.split_whitespace();
    let presets = words.next().ok_or("'rules:' needs a preset")?;
    let mut sets = Vec::new();
    for id in presets.split(',') {
        // OpenTafl's rules have a constructor but no preset of the front-ends.
        let rules = match Preset::find(id) {
            Some(preset) => preset.rules(),
            None if id == "opentafl" => Rules::opentafl(),
            None => match Variant::find(id) {
                Some(variant) => variant.rules(),
                None => return Err(format!("no preset '{id}'")),
            },
        };
        sets.push((id.to_string(), rules));
    }
    for setting in words {
        let (name, values) = setting
            .split_once('=')
            .ok_or_else(|| format!("'{setting}' is not Name=Value"))?;
        let mut next = Vec::new();
        for (label, rules) in &sets {
            for value in values.split(',') {
                let mut r = *rules;
                r.set(name, value).map_err(|e| e.to_string())?;
                next.push((format!("{label} {name}={value}"), r));
            }
        }
        sets = next;
    }
    Ok(sets)
}

// ---------------------------------------------------------------------------------------------
// Running a case
// ---------------------------------------------------------------------------------------------

/// Fails the case with a message unless `cond` holds.
macro_rules! check {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// The legal moves, cross-checked: `count_moves` and `has_move` agree, `check_move` accepts
/// each one, and perft 2 equals playing every move and counting the replies.
fn moves<G: Geometry>(board: &BoardOf<G>, rules: &Rules) -> Result<Vec<MoveOf<G>>, String> {
    let list: Vec<MoveOf<G>> = board.legal_moves(rules).into_iter().collect();
    check!(
        board.count_moves(rules) as usize == list.len(),
        "count_moves and legal_moves disagree on {board:?}"
    );
    check!(
        board.has_move(rules) != list.is_empty(),
        "has_move and legal_moves disagree on {board:?}"
    );
    let mut replies = 0u64;
    for &m in &list {
        check!(
            board.check_move(rules, m).is_ok(),
            "{m} is generated but check_move rejects it on {board:?}"
        );
        let mut child = *board;
        child.play(rules, m);
        replies += child.legal_moves(rules).len() as u64;
    }
    check!(
        perft(board, rules, 2) == replies,
        "perft 2 disagrees with playing every move on {board:?}"
    );
    Ok(list)
}

/// Plays `m`, which must be legal, on the board (checking the bookkeeping) and in the game
/// (which must end where the board does); returns the captures.
fn play<G: Geometry>(
    board: &mut BoardOf<G>,
    game: &mut GameOf<G>,
    rules: &Rules,
    m: MoveOf<G>,
) -> Result<BitboardOf<G>, String> {
    if let Err(e) = board.check_move(rules, m) {
        return Err(format!("{m} should be legal: {e}"));
    }
    check!(moves(board, rules)?.contains(&m), "{m} is not listed");
    let piece = board.piece_at(m.from());
    let (side, plies) = (board.side_to_move(), board.plies());
    let captured = board.play(rules, m);
    check!(
        board.piece_at(m.to()) == piece,
        "{m}: the mover is not on {}",
        m.to()
    );
    check!(
        board.piece_at(m.from()).is_none(),
        "{m}: {} is not empty",
        m.from()
    );
    check!(
        board.side_to_move() == side.opponent(),
        "{m}: the side to move"
    );
    check!(board.plies() == plies + 1, "{m}: the ply count");
    check!(
        board.hash() == board.compute_hash(),
        "{m}: the incremental key"
    );
    let status = game
        .play(m)
        .map_err(|e| format!("the game refuses {m}: {e}"))?;
    check!(
        status == game.status(),
        "{m}: the status returned is not the game's"
    );
    check!(
        game.board() == board,
        "{m}: the game's board is not the board's"
    );
    // The board alone judges everything but repetition.
    let alone = board.status(rules);
    let by_history = match status {
        Status::Draw(DrawReason::Repetition) | Status::Win(_, WinReason::Repetition) => true,
        // Under hnefatafl.org's rule the defenders may have only moves that repeat.
        Status::Win(Side::Attackers, WinReason::NoMoves) => {
            rules.repetition == Repetition::DefenderMayNotRepeat
        }
        _ => false,
    };
    check!(
        alone == status || by_history,
        "after {m} the game says '{}', the board '{}'",
        status_words(status),
        status_words(alone)
    );
    Ok(captured)
}

/// The names of the squares in `set`, or `none`.
fn names<G: Geometry>(set: BitboardOf<G>) -> String {
    if set.is_empty() {
        return "none".to_string();
    }
    set.map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

/// Runs `case` under `rules`.
fn run_case<G: Geometry>(case: &Case<G>, rules: &Rules) -> Result<(), (usize, String)> {
    let mut board = case.start;
    let mut game = GameOf::<G>::new(*rules, board);
    let mut captured = BitboardOf::<G>::EMPTY;
    for (line, step) in &case.steps {
        run_step(step, rules, &mut board, &mut game, &mut captured).map_err(|e| (*line, e))?;
    }
    Ok(())
}

fn run_step<G: Geometry>(
    step: &Step<G>,
    rules: &Rules,
    board: &mut BoardOf<G>,
    game: &mut GameOf<G>,
    captured: &mut BitboardOf<G>,
) -> Result<(), String> {
    match step {
        Step::Play(list) => {
            for &m in list {
                *captured = play(board, game, rules, m)?;
            }
        }
        Step::Captures(want) => check!(
            captured == want,
            "captures {}, expected {}",
            names(*captured),
            names(*want)
        ),
        Step::Board {
            placement,
            side,
            plies,
        } => {
            let fen = board.to_fen();
            let have = fen.split(' ').next().unwrap_or_default();
            check!(
                have == placement,
                "the board differs; it is\n{}",
                board.diagram()
            );
            if let Some(side) = side {
                check!(
                    board.side_to_move() == *side,
                    "the {} are to move",
                    board.side_to_move()
                );
            }
            if let Some(plies) = plies {
                check!(board.plies() == *plies, "{} plies played", board.plies());
            }
        }
        Step::Status(judge, want) => {
            if *judge != Judge::Board {
                let have = game.status();
                // The cases name an ending by its word (an escape to the edge or to a corner
                // is `escape`).
                check!(
                    status_words(have) == status_words(*want),
                    "the game's status is '{}', expected '{}'",
                    status_words(have),
                    status_words(*want)
                );
            }
            if *judge != Judge::Game {
                let have = board.status(rules);
                check!(
                    status_words(have) == status_words(*want),
                    "the board's status is '{}', expected '{}'",
                    status_words(have),
                    status_words(*want)
                );
            }
        }
        Step::Legal(texts) => {
            for text in texts {
                let m = MoveOf::<G>::parse(text).map_err(|e| e.to_string())?;
                let listed = moves(board, rules)?.contains(&m);
                let checked = board.check_move(rules, m);
                check!(
                    listed == checked.is_ok(),
                    "legal_moves and check_move disagree on {text}"
                );
                check!(listed, "{text} is illegal: {}", checked.unwrap_err());
                check!(
                    board.parse_move(rules, text) == Ok(m),
                    "parse_move refuses {text}"
                );
            }
        }
        Step::Illegal { mv, kind, words } => {
            let m = *mv;
            check!(!moves(board, rules)?.contains(&m), "{m} is listed as legal");
            let Err(e) = board.check_move(rules, m) else {
                return Err(format!(
                    "check_move accepts {m}, which legal_moves does not list"
                ));
            };
            check!(
                reason_word(e.reason) == *kind,
                "{m} is refused as {}, expected {kind}: {e}",
                reason_word(e.reason)
            );
            check!(
                board.parse_move(rules, &m.to_string()) == Err(e.into()),
                "parse_move and check_move disagree on {m}"
            );
            let message = e.to_string();
            check!(
                message.starts_with(&format!("{m} is not legal: ")),
                "the message '{message}'"
            );
            if let Some(w) = words {
                check!(
                    message.contains(w.as_str()),
                    "the message '{message}' lacks '{w}'"
                );
            }
            let refusal = if game.status().is_over() {
                GameErrorOf::<G>::Over(game.status())
            } else {
                GameErrorOf::<G>::Move {
                    index: game.moves().len(),
                    error: MoveErrorOf::<G>::Illegal(IllegalMoveOf::<G> {
                        mv: m,
                        reason: e.reason,
                    }),
                }
            };
            refused(game, m, refusal)?;
        }
        Step::GameIllegal(m) => {
            let m = *m;
            check!(
                moves(board, rules)?.contains(&m),
                "the board does not list {m}"
            );
            check!(
                !game.legal_moves().contains(&m),
                "the game lists {m} as legal"
            );
            let refusal = GameErrorOf::<G>::Move {
                index: game.moves().len(),
                error: MoveErrorOf::<G>::Illegal(IllegalMoveOf::<G> {
                    mv: m,
                    reason: IllegalReason::Repetition,
                }),
            };
            refused(game, m, refusal)?;
        }
        Step::Over(m) => {
            check!(game.status().is_over(), "the game is not over");
            refused(game, *m, GameErrorOf::<G>::Over(game.status()))?;
        }
        Step::Moves(want) => {
            let have = moves(board, rules)?.len();
            match want {
                Some(want) => check!(have == *want, "{have} legal moves, expected {want}"),
                None => check!(have > 0, "no legal move"),
            }
        }
        Step::Targets(from, want) => {
            let have: BitboardOf<G> = moves(board, rules)?
                .iter()
                .filter(|m| m.from() == *from)
                .map(|m| m.to())
                .collect();
            check!(
                have == *want,
                "the piece on {from} may move to {}, expected {}",
                names(have),
                names(*want)
            );
        }
        Step::King(want) => check!(
            board.king() == *want,
            "the king is on {:?}, expected {want:?}",
            board.king()
        ),
        Step::Soldiers(side, want) => {
            let have = match side {
                Side::Attackers => board.attackers(),
                Side::Defenders => board.defenders(),
            };
            check!(
                have == *want,
                "the {side} stand on {}, expected {}",
                names(have),
                names(*want)
            );
        }
        Step::Piece(sq, want) => check!(
            board.piece_at(*sq) == *want,
            "{sq} holds {:?}, expected {want:?}",
            board.piece_at(*sq)
        ),
        Step::Encircled(want) => check!(
            board.is_encircled() == *want,
            "is_encircled is {}",
            board.is_encircled()
        ),
        Step::OpenLines(want) => check!(
            board.king_open_lines() == *want,
            "king_open_lines is {}, expected {want}",
            board.king_open_lines()
        ),
        Step::Occurrences(want) => check!(
            game.occurrences() == *want,
            "the position occurred {} times, expected {want}",
            game.occurrences()
        ),
        Step::Plies(want) => check!(
            board.plies() == *want,
            "{} plies played, expected {want}",
            board.plies()
        ),
    }
    Ok(())
}

/// The game refuses `m` with `want` and stays as it was.
fn refused<G: Geometry>(
    game: &mut GameOf<G>,
    m: MoveOf<G>,
    want: GameErrorOf<G>,
) -> Result<(), String> {
    let (before, played) = (*game.board(), game.moves().len());
    let have = game.play(m);
    check!(
        have == Err(want.clone()),
        "the game answers {m} with {have:?}, expected {want:?}"
    );
    check!(
        *game.board() == before && game.moves().len() == played,
        "the refused {m} changed the game"
    );
    Ok(())
}

/// Every case of every file under tests/data/rules, run; the failures, each as
/// `file:line: case 'name' (rules): what`, and the number of case runs.
fn run_fixtures(dir: &Path) -> (Vec<String>, usize, usize) {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixture files in {}", dir.display());
    let (mut failures, mut cases, mut runs) = (Vec::new(), 0, 0);
    for path in files {
        let shown = format!(
            "tests/data/rules/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{shown}: {e}"));
        let parsed = match parse_fixture_any(&text) {
            Ok(parsed) if parsed.is_empty() => Err((1, "no cases".to_string())),
            other => other,
        };
        match parsed {
            Err((line, e)) => failures.push(format!("{shown}:{line}: parse error: {e}")),
            Ok(list) => {
                cases += list.len();
                for case in &list {
                    let (name, case_line) = case.name_and_line();
                    for (label, result) in case.run_all() {
                        runs += 1;
                        if let Err((line, e)) = result {
                            failures.push(format!(
                                "{shown}:{line}: case '{name}' (line {case_line}, rules {label}): {e}"
                            ));
                        }
                    }
                }
            }
        }
    }
    (failures, cases, runs)
}

#[test]
fn every_rule_case_holds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules");
    let (failures, cases, runs) = run_fixtures(&dir);
    let mut report = String::new();
    for f in &failures {
        let _ = writeln!(report, "{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} case runs failed ({cases} cases):\n{report}",
        failures.len()
    );
    println!("{cases} rule cases, {runs} runs, all hold");
}

// ---------------------------------------------------------------------------------------------
// The runner's own tests
// ---------------------------------------------------------------------------------------------

const GOOD: &str = "
case a capture
rules: original,taflhub
start: b
. . . . . . . . .
. . . . . . . K .
. . . . . . . . .
. . . . . . . . .
. . . . + . . . .
. . . . . . . . .
. . b w . . . . .
. . . . . . . . .
. . . . b . . . .
play e1e3
captures d3
status ongoing
";

#[test]
fn a_well_formed_case_parses_into_its_steps() {
    let cases = parse_fixture::<Nine>(GOOD).unwrap();
    assert_eq!(cases.len(), 1);
    assert_eq!(cases[0].name, "a capture");
    assert_eq!(cases[0].rules.len(), 2);
    assert_eq!(cases[0].steps.len(), 3);
    for (_, rules) in &cases[0].rules {
        assert_eq!(run_case(&cases[0], rules), Ok(()));
    }
}

#[test]
fn a_malformed_fixture_is_a_parse_error_with_its_line() {
    let broken = [
        (GOOD.replace("play e1e3", "play e1e3x"), 14),
        (GOOD.replace("captures d3", "captures d0"), 15),
        (GOOD.replace("status ongoing", "status won"), 16),
        (GOOD.replace("status ongoing", "statue ongoing"), 16),
        (GOOD.replace(". . b w . . . . .", ". . b w . . . ."), 11),
        (GOOD.replace(". . b w . . . . .", ". . b x . . . . ."), 11),
        (
            GOOD.replace("original,taflhub", "original KingArmed=maybe"),
            3,
        ),
        (GOOD.replace("original,taflhub", "nowhere"), 3),
        (GOOD.replace("start: b", "start: x"), 4),
        (format!("{GOOD}illegal e1e2 sideways\n"), 17),
        (GOOD.replace("case a capture\n", ""), 2),
        // A camp mark off a camp (a9); a picture that marks camps leaves one unmarked (e8).
        (
            GOOD.replacen(". . . . . . . . .", "* . . . . . . . .", 1),
            5,
        ),
        (
            GOOD.replacen(". . . . . . . . .", ". . . * * * . . .", 1),
            6,
        ),
        (format!("{GOOD}targets e3 j1\n"), 17),
    ];
    for (text, line) in broken {
        match parse_fixture_any(&text) {
            Err((at, _)) => assert_eq!(at, line, "{text}"),
            Ok(_) => panic!("parsed:{text}"),
        }
    }
}

#[test]
fn a_failing_case_is_reported_not_skipped() {
    let wrong = parse_fixture::<Nine>(&GOOD.replace("captures d3", "captures none")).unwrap();
    let (line, e) = run_case(&wrong[0], &wrong[0].rules[0].1).unwrap_err();
    assert_eq!(line, 15);
    assert!(e.contains("captures d3, expected none"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// FirstMove: the start position (not a board drawn by a case)
// ---------------------------------------------------------------------------------------------

#[test]
fn first_move_attackers_by_default() {
    let rules = Rules::default();
    let b = Board::start(&rules);
    assert_eq!(b.side_to_move(), Side::Attackers);
    assert_eq!(b.plies(), 0);
    let list = moves(&b, &rules).unwrap();
    assert_eq!(list.len(), 80);
    assert!(
        list.iter()
            .all(|m| b.piece_at(m.from()) == Some(Piece::Attacker))
    );
    assert_eq!(Game::start(rules).board().side_to_move(), Side::Attackers);
}

#[test]
fn first_move_defenders_starts_with_the_defenders() {
    let rules = Rules {
        first_move: Side::Defenders,
        ..Rules::default()
    };
    let b = Board::start(&rules);
    assert_eq!(b.side_to_move(), Side::Defenders);
    let attackers_first = Board::start(&Rules::default());
    assert_eq!(
        b.to_fen().split(' ').next(),
        attackers_first.to_fen().split(' ').next(),
        "the same placement"
    );
    let list = moves(&b, &rules).unwrap();
    assert!(!list.is_empty());
    assert!(
        list.iter()
            .all(|m| b.piece_at(m.from()).map(Piece::side) == Some(Side::Defenders))
    );
    assert_eq!(b.hash(), b.compute_hash());
    assert_eq!(Game::start(rules).board().side_to_move(), Side::Defenders);
    assert_eq!(
        Board::start(&Rules::encyclopedia()).side_to_move(),
        Side::Defenders
    );
}

#[test]
fn ashton_starts_with_white_to_move_and_white_has_56_moves() {
    let rules = Rules::ashton();
    let b = Board::start(&rules);
    assert_eq!(b.side_to_move(), Side::Defenders);
    assert_eq!(moves(&b, &rules).unwrap().len(), 56);
    assert_eq!(b.attackers(), Bitboard::CAMPS);
}
