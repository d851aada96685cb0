//! `.otg` game records: read, write, and replay under Konakis' referee.
//!
//! A record is `[key:value]` tag lines, a blank line, then numbered turns, one per line:
//! `1. d1-d2 f5-f8`, moves in OpenTafl's full notation (`Ke5-f5`, `h7-f7xf8`). Anything in
//! square brackets among the turns is a comment (OpenTafl writes the clocks there). The `rules`
//! tag holds the rules string, whose `start:` or `starti:` is the position the turns start from;
//! `result` is `1` when the attackers won, `-1` when the defenders won, `0` for a draw.
//!
//! Several games may follow one another in a file (the match runner appends them): a tag line
//! after turns starts the next game.

use super::notation::{self, NotationErrorOf, OtMoveOf, full_move};
use super::rules_string::{RulesStringError, StartKey, format_rules_of, game_name, parse_rules_of};
use konakis_core::board::{Board, BoardOf, Game, GameErrorOf, GameOf, IllegalMoveOf, Status};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::rules::{BoardSize, Rules, RulesError, Variant};
use konakis_core::types::{Move, MoveOf, Piece, Side, SquareOf};
use std::fmt::{self, Write};

/// One game of an `.otg` file, its moves read for a board of size `G`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OtgGameOf<G: Geometry> {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// The moves, in order.
    pub moves: Vec<OtMoveOf<G>>,
}

/// One game of an `.otg` file of Tablut.
pub type OtgGame = OtgGameOf<Nine>;

impl<G: Geometry> Default for OtgGameOf<G> {
    fn default() -> Self {
        OtgGameOf {
            tags: Vec::new(),
            moves: Vec::new(),
        }
    }
}

impl<G: Geometry> OtgGameOf<G> {
    /// The value of tag `key`, if present.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A tag line's key and value: `[key:value]` with a key of letters, digits, `-` and `_`.
fn tag_line(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (key, value) = inner.split_once(':')?;
    if !is_tag_key(key) {
        return None;
    }
    Some((key, value))
}

/// Whether `key` can name a tag: one or more ASCII letters, digits, `-` and `_`.
pub fn is_tag_key(key: &str) -> bool {
    !key.is_empty() && key.chars().all(tag_key_char)
}

fn tag_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Reads every game of an `.otg` file, its moves as squares of a board of size `G` (the
/// `rules` tag's `dim`). Errors give the line and the text at fault.
pub fn parse_otg<G: Geometry>(text: &str) -> Result<Vec<OtgGameOf<G>>, NotationErrorOf<G>> {
    let mut games = Vec::new();
    let mut game = OtgGameOf::default();
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if !in_comment && let Some((key, value)) = tag_line(line) {
            if !game.moves.is_empty() {
                games.push(std::mem::take(&mut game));
            }
            game.tags.push((key.to_string(), value.to_string()));
            continue;
        }
        // Turns, with comments in brackets (which may span lines) taken out.
        let mut body = String::with_capacity(line.len());
        for c in line.chars() {
            match (in_comment, c) {
                (false, '[') => in_comment = true,
                (true, ']') => in_comment = false,
                (false, c) => body.push(c),
                (true, _) => {}
            }
        }
        for token in body.split_whitespace() {
            if let Some(n) = token.strip_suffix('.')
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
            {
                continue;
            }
            let mv = notation::parse_move(token).map_err(|e| NotationErrorOf::Line {
                line: i + 1,
                error: Box::new(e),
            })?;
            game.moves.push(mv);
        }
    }
    if !game.tags.is_empty() || !game.moves.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// A tag value made safe for a tag line: no brackets (they end a tag), no `|` (OpenTafl reads
/// it as a clock separator), no line breaks.
pub fn tag_value(value: &str) -> String {
    value
        .chars()
        .map(|c| match c {
            '[' => '(',
            ']' => ')',
            '|' => '/',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}

/// The numbered turns of a game from `start`: `1. d1-d2 f5-f8 ` per line, the first move of
/// each turn by the side to move in `start`. The moves must be legal.
pub fn turns<G: Geometry>(start: &BoardOf<G>, rules: &Rules, moves: &[MoveOf<G>]) -> String {
    let mut s = String::new();
    let mut board = *start;
    for (turn, pair) in moves.chunks(2).enumerate() {
        let _ = write!(s, "{}.", turn + 1);
        for &mv in pair {
            let played = notation::play(&mut board, rules, mv);
            let _ = write!(s, " {}", full_move(mv, &played));
        }
        s.push_str(" \n");
    }
    s
}

/// A comment's text made safe for OpenTafl's readers and Konakis': no brackets (they end the
/// comment), no `|` (OpenTafl's separator between the comments of a turn's two moves), no `:`
/// (a one-move comment `[word:text]` on its own line would read as a tag), no line breaks;
/// and a `~` before a leading digit, which OpenTafl would take for the seconds of a clock
/// (its own comments start with the time remaining).
pub fn comment_text(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| match c {
            '[' => '(',
            ']' => ')',
            '|' => '/',
            ':' => ';',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    if s.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '~');
    }
    s
}

/// The numbered turns of a game from `start`, as [`turns`] writes them, each followed by a
/// comment line `[first move's comment|second move's comment]`, as OpenTafl writes its clock
/// comments and reads back a comment per move. `comments[i]` is the i-th move's (made safe by
/// [`comment_text`]); a turn whose comments are all missing or empty gets no comment line.
pub fn commented_turns<G: Geometry>(
    start: &BoardOf<G>,
    rules: &Rules,
    moves: &[MoveOf<G>],
    comments: &[String],
) -> String {
    let mut s = String::new();
    let mut board = *start;
    for (turn, pair) in moves.chunks(2).enumerate() {
        let _ = write!(s, "{}.", turn + 1);
        for &mv in pair {
            let played = notation::play(&mut board, rules, mv);
            let _ = write!(s, " {}", full_move(mv, &played));
        }
        s.push_str(" \n");
        let texts: Vec<String> = (0..pair.len())
            .map(|k| {
                comments
                    .get(turn * 2 + k)
                    .map(|c| comment_text(c))
                    .unwrap_or_default()
            })
            .collect();
        if texts.iter().any(|t| !t.is_empty()) {
            let _ = writeln!(s, "[{}]", texts.join("|"));
            s.push('\n');
        }
    }
    s
}

/// One tag line of a record, as [`write_record`] writes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tag<'a> {
    /// `[key:value]`. The key should pass [`is_tag_key`] (any other character is written as
    /// `-`); the value is made safe by [`tag_value`].
    Text(&'a str, &'a str),
    /// `[rules:...]`: OpenTafl's rules string for the rules, with the start position
    /// (`starti:`), which is what OpenTafl reads.
    Rules,
    /// `[konakis-rules:...]`: every Konakis rule option as `Name=Value`, which [`replay`]
    /// prefers to the rules string (the move limit and repetition count included). For a game
    /// of the family ([`write_record_of`] with a variant) it is preceded by
    /// `[konakis-variant:<id>]` and holds only the options set away from the variant's.
    KonakisRules,
    /// `[start:...]`: the start as a Konakis position string, whose ply count counts for the
    /// move limit.
    Start,
}

/// The `.otg` text of one game: its tag lines in the order given, a blank line, the numbered
/// turns from `start` (see [`turns`]; the moves must be legal) and a blank line, so that
/// records can follow one another in a file. The one record writer: `konakis match
/// --records` and the browser package both write through it, and [`replay`] reads it back.
///
/// ```
/// use konakis_core::{Board, Move, Rules};
/// use konakis_protocols::opentafl::otg::{Tag, parse_otg, replay, write_record};
/// let rules = Rules::default();
/// let start = Board::start(&rules);
/// let moves = [Move::parse("d1d3").unwrap(), Move::parse("e4d4").unwrap()];
/// let tags = [Tag::Text("date", "2026.12.01"), Tag::Rules, Tag::KonakisRules, Tag::Start];
/// let text = write_record(&start, &rules, &moves, &tags);
/// assert!(text.starts_with("[date:2026.12.01]\n[rules:dim:9 name:Tablut "));
/// assert!(text.ends_with("\n\n1. d1-d3 e4-d4 \n\n"));
/// let back = replay(&parse_otg(&text).unwrap()[0]).unwrap();
/// assert_eq!(back.game.moves(), &moves);
/// ```
pub fn write_record(start: &Board, rules: &Rules, moves: &[Move], tags: &[Tag]) -> String {
    write_record_of(start, rules, None, moves, tags)
}

/// [`write_record`] on a board of any size, for Tablut's rule options (`variant` `None`) or
/// a game of the family: its rules string is named for the game, and its Konakis rules are
/// the variant's id with the options set away from its rules.
pub fn write_record_of<G: Geometry>(
    start: &BoardOf<G>,
    rules: &Rules,
    variant: Option<&Variant>,
    moves: &[MoveOf<G>],
    tags: &[Tag],
) -> String {
    let mut s = tag_lines(start, rules, variant, tags);
    s.push('\n');
    s.push_str(&turns(start, rules, moves));
    s.push('\n');
    s
}

/// The tags the record of a game ([`write_game_record`]) writes itself: a caller's tags may
/// not use these keys.
pub const DERIVED_TAGS: &[&str] = &[
    "result",
    "rules",
    "konakis-rules",
    "start",
    "reason",
    "plies",
];

/// Why a caller's tags for [`write_game_record`] were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// The key is not a word of letters, digits, `-` and `_`.
    NotAKey(String),
    /// The record writes this tag from the game itself ([`DERIVED_TAGS`]).
    Derived(String),
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagError::NotAKey(key) => write!(
                f,
                "'{}' is not a tag name (letters, digits, - and _)",
                crate::text::quote(key)
            ),
            TagError::Derived(key) => write!(f, "the {key} tag is written from the game itself"),
        }
    }
}

impl std::error::Error for TagError {}

/// The record of `game` with the caller's `tags`: `date` (when given), `result` (when the game
/// is over), `compiler` (default `Konakis`), the rules, the other tags in order, the start
/// position, `reason` (when over) and `plies`, then the moves. The front-ends' one way to save
/// a game; tags of [`DERIVED_TAGS`] and keys that are not tag names are refused.
pub fn write_game_record(game: &Game, tags: &[(&str, &str)]) -> Result<String, TagError> {
    for &(key, _) in tags {
        if !is_tag_key(key) {
            return Err(TagError::NotAKey(key.to_string()));
        }
        if DERIVED_TAGS.contains(&key) {
            return Err(TagError::Derived(key.to_string()));
        }
    }
    let given = |k: &str| tags.iter().find(|(key, _)| *key == k).map(|&(_, v)| v);
    let status = game.status();
    let result = match status {
        Status::Ongoing => None,
        Status::Win(Side::Attackers, _) => Some("1"),
        Status::Win(Side::Defenders, _) => Some("-1"),
        Status::Draw(_) => Some("0"),
    };
    let reason = status.to_string();
    let plies = game.moves().len().to_string();
    let mut list = Vec::new();
    if let Some(date) = given("date") {
        list.push(Tag::Text("date", date));
    }
    if let Some(result) = result {
        list.push(Tag::Text("result", result));
    }
    list.push(Tag::Text(
        "compiler",
        given("compiler").unwrap_or("Konakis"),
    ));
    list.extend([Tag::Rules, Tag::KonakisRules]);
    for &(key, value) in tags {
        if key != "date" && key != "compiler" {
            list.push(Tag::Text(key, value));
        }
    }
    list.push(Tag::Start);
    if result.is_some() {
        list.push(Tag::Text("reason", &reason));
    }
    list.push(Tag::Text("plies", &plies));
    Ok(write_record(
        game.start_board(),
        game.rules(),
        game.moves(),
        &list,
    ))
}

/// A record as [`write_record`] writes it, with a comment after each move (see
/// [`commented_turns`]): how `konakis analyse --annotate` writes its review into a copy of a
/// record. OpenTafl shows the comments as it replays the game; [`parse_otg`] skips them.
///
/// ```
/// use konakis_core::{Board, Move, Rules};
/// use konakis_core::geometry::Nine;
/// use konakis_protocols::opentafl::otg::{Tag, parse_otg, write_commented_record};
/// let rules = Rules::default();
/// let start = Board::start(&rules);
/// let moves = [Move::parse("d1d3").unwrap(), Move::parse("e4d4").unwrap()];
/// let notes = ["best".to_string(), "mistake: 12 points".to_string()];
/// let text = write_commented_record(&start, &rules, &moves, &[Tag::Rules], &notes);
/// assert!(text.ends_with("\n\n1. d1-d3 e4-d4 \n[best|mistake; 12 points]\n\n"));
/// assert_eq!(parse_otg::<Nine>(&text).unwrap()[0].moves.len(), 2);
/// ```
pub fn write_commented_record<G: Geometry>(
    start: &BoardOf<G>,
    rules: &Rules,
    moves: &[MoveOf<G>],
    tags: &[Tag],
    comments: &[String],
) -> String {
    let mut s = tag_lines(start, rules, None, tags);
    s.push('\n');
    s.push_str(&commented_turns(start, rules, moves, comments));
    if !s.ends_with("\n\n") {
        s.push('\n');
    }
    s
}

/// The tag lines of a record.
fn tag_lines<G: Geometry>(
    start: &BoardOf<G>,
    rules: &Rules,
    variant: Option<&Variant>,
    tags: &[Tag],
) -> String {
    let mut s = String::new();
    for tag in tags {
        let _ = match tag {
            Tag::Text(key, value) => {
                let key: String = key
                    .chars()
                    .map(|c| if tag_key_char(c) { c } else { '-' })
                    .collect();
                let key = if key.is_empty() { "-".to_string() } else { key };
                writeln!(s, "[{key}:{}]", tag_value(value))
            }
            Tag::Rules => writeln!(
                s,
                "[rules:{}]",
                format_rules_of(rules, start, &game_name::<G>(variant), StartKey::StartI)
            ),
            Tag::KonakisRules => match variant {
                None => writeln!(s, "[konakis-rules:{rules}]"),
                Some(v) => {
                    let base = v.rules();
                    let set: Vec<String> = Rules::OPTIONS
                        .iter()
                        .map(|o| (o.name, rules.get(o.name).unwrap_or_default()))
                        .filter(|(name, value)| base.get(name).as_ref() != Some(value))
                        .map(|(name, value)| format!("{name}={value}"))
                        .collect();
                    writeln!(
                        s,
                        "[konakis-variant:{}]\n[konakis-rules:{}]",
                        v.id,
                        set.join(" ")
                    )
                }
            },
            Tag::Start => writeln!(s, "[start:{}]", start.to_fen()),
        };
    }
    s
}

/// Where the rules of a replay came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RulesSource {
    /// The `rules` tag alone (OpenTafl's records).
    RulesTag,
    /// The `konakis-rules` tag, which `konakis match` writes beside the rules string with
    /// every option (the move limit and repetition count included).
    KonakisTag,
}

/// A game on a board of size `G` replayed by Konakis' referee.
#[derive(Clone, Debug)]
pub struct ReplayOf<G: Geometry> {
    /// The rules it was refereed under.
    pub rules: Rules,
    /// Where they came from.
    pub source: RulesSource,
    /// The start position.
    pub start: BoardOf<G>,
    /// Every move in full notation, as the referee sees it.
    pub moves: Vec<String>,
    /// The referee's status after the last move.
    pub status: Status,
    /// The game.
    pub game: GameOf<G>,
}

/// A Tablut (9×9) game replayed by Konakis' referee.
pub type Replay = ReplayOf<Nine>;

/// The winner a `result` tag names: `Some(Some(side))`, `Some(None)` for a draw, `None` when
/// the tag is absent or says nothing (`?`).
pub fn result_tag<G: Geometry>(game: &OtgGameOf<G>) -> Option<Option<Side>> {
    match game.tag("result")?.trim() {
        "1" => Some(Some(Side::Attackers)),
        "-1" => Some(Some(Side::Defenders)),
        "0" => Some(None),
        _ => None,
    }
}

/// The set of squares a move's record lists as captured, and the referee's.
fn capture_set<G: Geometry>(squares: &[SquareOf<G>]) -> Vec<SquareOf<G>> {
    let mut v = squares.to_vec();
    v.sort_by_key(|s| s.index());
    v.dedup();
    v
}

/// Why [`replay`] refused a record of a board of size `G`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayErrorOf<G: Geometry> {
    /// The record has no `rules` tag.
    NoRulesTag,
    /// The `rules` tag is no rules string Konakis plays.
    RulesTag(RulesStringError),
    /// The `konakis-rules` tag has a bad `Name=Value`.
    KonakisRulesTag(RulesError),
    /// The `konakis-variant` tag names no variant of this board; the tag's value.
    KonakisVariantTag(String),
    /// A move of the record cannot be replayed.
    Move {
        /// The turn, from 1.
        turn: usize,
        /// The move's number in the game, from 1.
        number: usize,
        /// The move as the record has it (simple notation, king and captures).
        written: String,
        /// What is wrong with it.
        fault: ReplayFaultOf<G>,
    },
}

/// Why [`replay`] refused a Tablut (9×9) record.
pub type ReplayError = ReplayErrorOf<Nine>;

impl<G: Geometry> fmt::Display for ReplayErrorOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayErrorOf::NoRulesTag => {
                f.write_str("the record has no rules tag (OpenTafl's rules string)")
            }
            ReplayErrorOf::RulesTag(e) => write!(f, "rules tag: {e}"),
            ReplayErrorOf::KonakisRulesTag(e) => write!(f, "konakis-rules tag: {e}"),
            ReplayErrorOf::KonakisVariantTag(id) => write!(
                f,
                "konakis-variant tag: '{}' is no variant Konakis plays on {}x{}",
                crate::text::quote(id),
                G::SIDE,
                G::SIDE
            ),
            ReplayErrorOf::Move {
                turn,
                number,
                written,
                fault,
            } => write!(f, "turn {turn}, move {number} ({written}): {fault}"),
        }
    }
}

impl<G: Geometry> std::error::Error for ReplayErrorOf<G> {}

/// What is wrong with one move of a record ([`ReplayErrorOf::Move`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayFaultOf<G: Geometry> {
    /// The move is written as a king's, and the king is not on its first square.
    NoKing(SquareOf<G>),
    /// The game had already ended.
    AfterEnd(Status),
    /// The move is not legal.
    Illegal(IllegalMoveOf<G>),
    /// A capture names a piece Tablut does not have.
    ForeignCapture {
        /// The letter.
        letter: char,
        /// The square.
        square: SquareOf<G>,
    },
    /// A capture names a piece other than the one on its square.
    WrongPiece {
        /// The letter.
        letter: char,
        /// The square.
        square: SquareOf<G>,
        /// What stands there.
        found: Option<Piece>,
    },
    /// The record captures other pieces than the referee does.
    Captures {
        /// The squares the record lists, sorted.
        listed: Vec<SquareOf<G>>,
        /// The squares the referee captures, sorted.
        referee: Vec<SquareOf<G>>,
    },
    /// The game refused the move.
    Game(GameErrorOf<G>),
}

/// What is wrong with one move of a Tablut (9×9) record.
pub type ReplayFault = ReplayFaultOf<Nine>;

impl<G: Geometry> fmt::Display for ReplayFaultOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayFaultOf::NoKing(sq) => write!(f, "the king is not on {sq}"),
            ReplayFaultOf::AfterEnd(status) => {
                write!(f, "comes after the end of the game ({status})")
            }
            ReplayFaultOf::Illegal(e) => e.fmt(f),
            ReplayFaultOf::ForeignCapture { letter, square } => write!(
                f,
                "'{letter}{square}' captures a piece Tablut does not have"
            ),
            ReplayFaultOf::WrongPiece {
                letter,
                square,
                found,
            } => {
                let what = match found {
                    Some(Piece::Attacker) => "an attacker stands there",
                    Some(Piece::Defender) => "a defender stands there",
                    Some(Piece::King) => "the king stands there",
                    None => "it is empty",
                };
                write!(
                    f,
                    "'{letter}{square}' does not name the piece on {square}: {what}"
                )
            }
            ReplayFaultOf::Captures { listed, referee } => {
                let list = |v: &[SquareOf<G>]| {
                    if v.is_empty() {
                        "nothing".to_string()
                    } else {
                        v.iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                };
                write!(
                    f,
                    "the record captures {}, Konakis' referee captures {}",
                    list(listed),
                    list(referee)
                )
            }
            ReplayFaultOf::Game(e) => e.fmt(f),
        }
    }
}

/// Replays a game: the rules from its `rules` tag (or its `konakis-rules` tag when present), the
/// start position from the rules string (with the ply count of a `start` tag that `konakis
/// match` wrote beside it), then every move, which must be legal, must not come
/// after the end of the game, and must capture what the record says it captures.
pub fn replay<G: Geometry>(record: &OtgGameOf<G>) -> Result<ReplayOf<G>, ReplayErrorOf<G>> {
    let text = record.tag("rules").ok_or(ReplayErrorOf::NoRulesTag)?;
    let parsed = parse_rules_of::<G>(text).map_err(ReplayErrorOf::RulesTag)?;
    let (rules, source) = match record.tag("konakis-rules") {
        None => (parsed.rules, RulesSource::RulesTag),
        Some(pairs) => {
            let mut r = match record.tag("konakis-variant") {
                None => Rules::default(),
                Some(id) => Variant::find(id)
                    .filter(|v| v.size.side() == G::SIDE)
                    .map(Variant::rules)
                    .ok_or_else(|| ReplayErrorOf::KonakisVariantTag(id.to_string()))?,
            };
            for pair in pairs.split_whitespace() {
                r.set_pair(pair).map_err(ReplayErrorOf::KonakisRulesTag)?;
            }
            (r, RulesSource::KonakisTag)
        }
    };
    // `konakis match` also writes the start as a Konakis position string, whose ply count
    // (an opening's moves) counts for the move limit.
    let start = match (source, record.tag("start").map(BoardOf::<G>::from_fen)) {
        (RulesSource::KonakisTag, Some(Ok(b))) if b.hash() == parsed.start.hash() => b,
        _ => parsed.start,
    };
    let mut game = GameOf::new(rules, start);
    let mut moves = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let turn = i / 2 + 1;
        let written = format!(
            "{}{}{}",
            if m.king { "K" } else { "" },
            notation::simple_move(m.mv),
            if m.captures.is_empty() {
                String::new()
            } else {
                let c: Vec<String> = m.captures.iter().map(|c| c.to_string()).collect();
                format!("x{}", c.join("/"))
            }
        );
        let at = |fault: ReplayFaultOf<G>| ReplayErrorOf::Move {
            turn,
            number: i + 1,
            written: written.clone(),
            fault,
        };
        let mut board = *game.board();
        if m.king && board.king() != Some(m.mv.from()) {
            return Err(at(ReplayFaultOf::NoKing(m.mv.from())));
        }
        if game.status().is_over() {
            return Err(at(ReplayFaultOf::AfterEnd(game.status())));
        }
        board
            .check_move(&rules, m.mv)
            .map_err(|e| at(ReplayFaultOf::Illegal(e)))?;
        // A typed capture (`xKf4`) must name the piece that stood there.
        for c in &m.captures {
            let Some(letter) = c.piece else { continue };
            let found = game.board().piece_at(c.square);
            let named = match letter {
                't' => Some(Piece::Attacker),
                'T' => Some(Piece::Defender),
                'K' => Some(Piece::King),
                _ => None,
            };
            if named.is_none() {
                return Err(at(ReplayFaultOf::ForeignCapture {
                    letter,
                    square: c.square,
                }));
            }
            if found != named {
                return Err(at(ReplayFaultOf::WrongPiece {
                    letter,
                    square: c.square,
                    found,
                }));
            }
        }
        let played = notation::play(&mut board, &rules, m.mv);
        let listed: Vec<SquareOf<G>> = m.captures.iter().map(|c| c.square).collect();
        let referee: Vec<SquareOf<G>> = played
            .captured
            .into_iter()
            .chain(played.king_captured)
            .collect();
        if capture_set(&listed) != capture_set(&referee) {
            return Err(at(ReplayFaultOf::Captures {
                listed: capture_set(&listed),
                referee: capture_set(&referee),
            }));
        }
        game.play(m.mv).map_err(|e| at(ReplayFaultOf::Game(e)))?;
        moves.push(full_move(m.mv, &played));
    }
    Ok(ReplayOf {
        rules,
        source,
        start,
        moves,
        status: game.status(),
        game,
    })
}

/// The board size of the first game of an `.otg` text: the `dim:` of its `rules` tag (`None`
/// without one, or when it is not a number), so that a reader knows which size to read the
/// moves on.
///
/// ```
/// use konakis_protocols::opentafl::otg::rules_tag_dim;
/// assert_eq!(rules_tag_dim("[result:1]\n[rules:dim:7 name:Brandub start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n"), Some(7));
/// assert_eq!(rules_tag_dim("1. d1-d2 e4-e3\n"), None);
/// ```
pub fn rules_tag_dim(text: &str) -> Option<usize> {
    let tag = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("[rules:"))?;
    tag.trim_end_matches(']')
        .split_whitespace()
        .find_map(|pair| pair.strip_prefix("dim:"))?
        .parse()
        .ok()
}

/// The board of a file's games: the size its first rules tag names ([`rules_tag_dim`]),
/// Tablut's 9x9 when it names none; `Err(side)` for a size Konakis does not play.
///
/// ```
/// use konakis_core::rules::BoardSize;
/// use konakis_protocols::opentafl::otg::record_board;
/// assert_eq!(record_board("[rules:dim:13 name:x]\n"), Ok(BoardSize::Thirteen));
/// assert_eq!(record_board("[rules:dim:15 name:x]\n"), Err(15));
/// assert_eq!(record_board("1. d1-d2\n"), Ok(BoardSize::Nine));
/// ```
pub fn record_board(text: &str) -> Result<BoardSize, usize> {
    match rules_tag_dim(text) {
        None => Ok(BoardSize::Nine),
        Some(side) => BoardSize::ALL
            .into_iter()
            .find(|s| s.side() == side)
            .ok_or(side),
    }
}

/// Describes a result tag's winner.
pub fn describe_winner(w: Option<Side>) -> &'static str {
    match w {
        Some(Side::Attackers) => "attackers won",
        Some(Side::Defenders) => "defenders won",
        None => "draw",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_record_orders_its_tags_refuses_derived_ones_and_replays() {
        let mut game = Game::new(Rules::default(), Board::start(&Rules::default()));
        game.play(Move::parse("d1d3").unwrap()).unwrap();
        let text = write_game_record(&game, &[("event", "club"), ("date", "2026.12.03")]).unwrap();
        let keys: Vec<String> = parse_otg::<Nine>(&text).unwrap()[0]
            .tags
            .iter()
            .map(|(k, _)| k.clone())
            .collect();
        assert_eq!(
            keys,
            [
                "date",
                "compiler",
                "rules",
                "konakis-rules",
                "event",
                "start",
                "plies"
            ]
        );
        assert_eq!(
            replay(&parse_otg::<Nine>(&text).unwrap()[0])
                .unwrap()
                .game
                .moves(),
            game.moves()
        );
        assert_eq!(
            write_game_record(&game, &[("plies", "3")]),
            Err(TagError::Derived("plies".into()))
        );
        assert_eq!(
            write_game_record(&game, &[("a b", "x")]),
            Err(TagError::NotAKey("a b".into()))
        );
    }

    #[test]
    fn tags_and_turns_are_read_and_comments_skipped() {
        let text = "[date:2026.11.29]\n[rules:dim:9 esc:e cor: start:/9/]\n\n\
                    1. d1-d2 f5-f8 \n[0 5/3 0i |0 1/3 0i ]\n\n2. e8-c8 Ke5-f5 \n";
        let games = parse_otg::<Nine>(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("date"), Some("2026.11.29"));
        assert_eq!(g.tag("rules"), Some("dim:9 esc:e cor: start:/9/"));
        let moves: Vec<String> = g.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["d1d2", "f5f8", "e8c8", "e5f5"]);
        assert!(g.moves[3].king);
    }

    #[test]
    fn a_tag_after_turns_starts_the_next_game() {
        let text = "[result:1]\n\n1. d1-d2 \n\n[result:0]\n\n1. e8-c8 \n";
        let games = parse_otg::<Nine>(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].tag("result"), Some("0"));
        assert_eq!(games[1].moves.len(), 1);
    }

    #[test]
    fn bad_moves_name_their_line() {
        let e = parse_otg::<Nine>("[result:1]\n\n1. d1-d2 zz \n").unwrap_err();
        assert!(e.to_string().starts_with("line 3:"), "{e}");
    }

    #[test]
    fn comments_cannot_break_the_layout_or_read_as_a_clock() {
        assert_eq!(comment_text("a[b]c|d:e\nf"), "a(b)c/d;e f");
        assert_eq!(comment_text("12 points"), "~12 points");
        assert_eq!(comment_text("best"), "best");
    }

    #[test]
    fn a_last_turn_of_one_move_gets_one_comment() {
        let rules = Rules::default();
        let start = Board::start(&rules);
        let moves = [Move::parse("d1d3").unwrap()];
        let text = commented_turns(&start, &rules, &moves, &["blunder: x".to_string()]);
        assert_eq!(text, "1. d1-d3 \n[blunder; x]\n\n");
        // A turn without comments gets no comment line.
        assert_eq!(commented_turns(&start, &rules, &moves, &[]), "1. d1-d3 \n");
    }

    #[test]
    fn tag_values_cannot_break_the_layout() {
        assert_eq!(tag_value("a[b]c|d\ne"), "a(b)c/d e");
    }

    #[test]
    fn turns_of_an_eleven_by_eleven_game_are_written_and_read_back() {
        use konakis_core::board::COPENHAGEN_FEN;
        use konakis_core::geometry::Eleven;
        let rules = Rules::opentafl();
        let start = BoardOf::<Eleven>::from_fen(COPENHAGEN_FEN).unwrap();
        let moves: Vec<MoveOf<Eleven>> = ["a4c4", "d6d10", "a8c8", "d10d9"]
            .iter()
            .map(|m| MoveOf::parse(m).unwrap())
            .collect();
        let text = turns(&start, &rules, &moves);
        assert_eq!(text, "1. a4-c4 d6-d10 \n2. a8-c8 d10-d9 \n");
        let games = parse_otg::<Eleven>(&format!("[rules:dim:11]\n\n{text}")).unwrap();
        let read: Vec<MoveOf<Eleven>> = games[0].moves.iter().map(|m| m.mv).collect();
        assert_eq!(read, moves);
        // The same text read for a 9x9 board stops at the first rank of two digits.
        let e = parse_otg::<Nine>(&text).unwrap_err();
        assert!(e.to_string().starts_with("line 1:"), "{e}");
    }

    /// Follows an OpenTafl record of size `G` square by square, without rules: from the start
    /// record of its rules tag, every move must start on a piece of the side to move (the sides
    /// taking turns), a `K` move on the king, pass and stop on empty squares, and capture only
    /// enemy pieces. A record read with its ranks or files the wrong way round fails at once.
    /// Returns the moves followed.
    fn follow_record<G: Geometry>(text: &str) -> usize {
        use konakis_core::types::Direction;
        let game = &parse_otg::<G>(text).unwrap()[0];
        let rules = game.tag("rules").unwrap();
        let start = rules
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix("start:"))
            .unwrap();
        let board = notation::parse_position_record::<G>(start, Side::Attackers).unwrap();
        let mut cells: Vec<Option<Piece>> = konakis_core::types::SquareOf::<G>::all()
            .map(|sq| board.piece_at(sq))
            .collect();
        let mut to_move = None;
        for m in &game.moves {
            let (from, to) = (m.mv.from(), m.mv.to());
            let piece = cells[from.index()].unwrap_or_else(|| panic!("{m:?}: {from} is empty"));
            assert_eq!(to_move.unwrap_or(piece.side()), piece.side(), "{m:?}");
            to_move = Some(piece.side().opponent());
            if m.king {
                assert_eq!(piece, Piece::King, "{m:?}");
            }
            let step = (
                (i16::from(to.file()) - i16::from(from.file())).signum() as i8,
                (i16::from(to.rank()) - i16::from(from.rank())).signum() as i8,
            );
            let dir = Direction::ALL
                .into_iter()
                .find(|d| d.delta() == step)
                .unwrap();
            let mut sq = from;
            while sq != to {
                sq = sq.step(dir).unwrap();
                assert_eq!(cells[sq.index()], None, "{m:?}: {sq} is taken");
            }
            for c in &m.captures {
                let taken = cells[c.square.index()].take();
                assert!(
                    taken.is_some_and(|p| p.side() != piece.side()),
                    "{m:?}: {} holds {taken:?}",
                    c.square
                );
            }
            cells[to.index()] = cells[from.index()].take();
        }
        game.moves.len()
    }

    #[test]
    fn opentafls_own_records_of_brandub_and_copenhagen_are_followed_move_by_move() {
        use konakis_core::geometry::{Eleven, Seven};
        let brandub = include_str!("../../../../tests/data/opentafl/brandub-triathlon-2015.otg");
        let copenhagen =
            include_str!("../../../../tests/data/opentafl/copenhagen-grandmasters-2015.otg");
        assert_eq!(follow_record::<Seven>(brandub), 20);
        assert_eq!(follow_record::<Eleven>(copenhagen), 68);
        // Neither reads as a record of another size.
        assert!(parse_otg::<Nine>(copenhagen).is_err());
    }
}
