//! [`GameOf`]: a board of any size with its history, so that repetition and the move limit can
//! end it, and the game's [`Status`] with its reason; [`Game`] is Tablut's.

use super::{Board, BoardOf, MoveErrorOf, PositionErrorOf};
use crate::geometry::{Geometry, Nine};
use crate::rules::{Escape, Repetition, Rules, Ruleset};
use crate::types::{MoveOf, Side};
use ahash::{AHashMap, AHashSet};
use std::fmt;

/// Why a side won.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum WinReason {
    /// The king reached an edge square (defenders win).
    KingEscaped,
    /// The king reached a corner under corner escape (defenders win).
    KingCornered,
    /// The king was captured (attackers win).
    KingCaptured,
    /// No defender can reach the edge (attackers win; `Encirclement`), or the king and every
    /// defender are enclosed (the family's enclosure).
    Encircled,
    /// The side to move had no legal move and lost.
    NoMoves,
    /// The king sits in an exit fort (defenders win; the family's exit fort).
    ExitFort,
    /// A position occurred for the `RepetitionDraw`-th time and the repetition rule gives
    /// the game to this side (the family's repetition rules).
    Repetition,
    /// The defenders cannot escape (attackers win; hnefatafl.org's adjudication,
    /// [`crate::rules::Rules::cannot_escape`]).
    CannotEscape,
}

/// Why the game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawReason {
    /// The same placement with the same side to move occurred `RepetitionDraw` times.
    Repetition,
    /// `MoveLimit` plies were played.
    MoveLimit,
}

/// The state of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Status {
    /// Nobody has won and the game is not drawn.
    Ongoing,
    /// `Side` won for the reason given.
    Win(Side, WinReason),
    /// Drawn for the reason given.
    Draw(DrawReason),
}

impl Status {
    /// Whether the game has ended.
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}

impl Status {
    /// How the game ended, in one word for programs (match JSON, the browser API): `escape`,
    /// `capture`, `encirclement`, `no-move`, `exit-fort`, `repetition`, `cannot-escape` or
    /// `move-limit`; `None` while it goes
    /// on.
    ///
    /// ```
    /// use konakis_core::board::{DrawReason, Status, WinReason};
    /// use konakis_core::types::Side;
    /// assert_eq!(Status::Win(Side::Defenders, WinReason::KingEscaped).ending(), Some("escape"));
    /// assert_eq!(Status::Draw(DrawReason::MoveLimit).ending(), Some("move-limit"));
    /// assert_eq!(Status::Ongoing.ending(), None);
    /// ```
    pub fn ending(self) -> Option<&'static str> {
        Some(match self {
            Status::Ongoing => return None,
            Status::Win(_, WinReason::KingEscaped | WinReason::KingCornered) => "escape",
            Status::Win(_, WinReason::KingCaptured) => "capture",
            Status::Win(_, WinReason::Encircled) => "encirclement",
            Status::Win(_, WinReason::NoMoves) => "no-move",
            Status::Win(_, WinReason::ExitFort) => "exit-fort",
            Status::Win(_, WinReason::Repetition) => "repetition",
            Status::Win(_, WinReason::CannotEscape) => "cannot-escape",
            Status::Draw(DrawReason::Repetition) => "repetition",
            Status::Draw(DrawReason::MoveLimit) => "move-limit",
        })
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Win(side, why) => {
                let why = match why {
                    WinReason::KingEscaped => "the king reached the edge",
                    WinReason::KingCornered => "the king reached a corner",
                    WinReason::KingCaptured => "the king was captured",
                    WinReason::Encircled => "the defenders are encircled",
                    WinReason::NoMoves => match side {
                        Side::Attackers => "the defenders have no legal move",
                        Side::Defenders => "the attackers have no legal move",
                    },
                    WinReason::ExitFort => "the king is in an exit fort",
                    WinReason::Repetition => "the position was repeated",
                    WinReason::CannotEscape => "the defenders cannot escape",
                };
                write!(f, "{side} win: {why}")
            }
            Status::Draw(DrawReason::Repetition) => {
                f.write_str("draw: the same position occurred again (repetition)")
            }
            Status::Draw(DrawReason::MoveLimit) => f.write_str("draw: the move limit was reached"),
        }
    }
}

impl<G: Geometry> BoardOf<G> {
    /// The status judged from this board alone (no repetition): escape, capture, encirclement
    /// when on, no legal move, and the move limit, in the order of the rules (docs/rules.md, "The
    /// end of the game").
    ///
    /// Under Ashton the server itself never checks for a side without a legal move: that
    /// player cannot send a legal move, loses on time, and the opponent wins. So "no legal
    /// move loses" gives the same winner. Nor can it pre-empt the server's repetition draw
    /// (which [`Game`] checks after it): a repeated position had the same moves, none, when
    /// it first occurred, so the game had already ended there.
    ///
    /// ```
    /// use konakis_core::{Board, Rules, Side, Status, WinReason};
    /// let rules = Rules::default();
    /// let board = Board::from_fen("9/9/9/9/9/9/9/9/K7b b").unwrap();
    /// let won = Status::Win(Side::Defenders, WinReason::KingEscaped);
    /// assert_eq!(board.status(&rules), won);
    /// assert!(won.is_over());
    /// assert_eq!(won.to_string(), "defenders win: the king reached the edge");
    /// ```
    pub fn status(&self, rules: &Rules) -> Status {
        if rules.family_rules() {
            return self.family_status(rules);
        }
        match self.king() {
            Some(k) if k.is_edge() => return Status::Win(Side::Defenders, WinReason::KingEscaped),
            None => return Status::Win(Side::Attackers, WinReason::KingCaptured),
            Some(_) => {}
        }
        if rules.encirclement && self.is_encircled() {
            return Status::Win(Side::Attackers, WinReason::Encircled);
        }
        if !self.has_move(rules) {
            return Status::Win(self.side_to_move().opponent(), WinReason::NoMoves);
        }
        if rules.move_limit > 0 && self.plies() >= rules.move_limit {
            return Status::Draw(DrawReason::MoveLimit);
        }
        Status::Ongoing
    }
}

impl<G: Geometry> BoardOf<G> {
    /// The Zobrist key of the placement alone, without the side to move.
    pub fn placement_key(&self) -> u64 {
        match self.side_to_move() {
            Side::Attackers => self.hash(),
            Side::Defenders => self.hash() ^ G::SIDE_KEY,
        }
    }

    /// The placement key of the board after `mv` before its captures (`mv` legal here).
    pub fn placement_key_after(&self, mv: MoveOf<G>) -> u64 {
        let piece = self
            .piece_at(mv.from())
            .unwrap_or(crate::types::Piece::Attacker);
        self.placement_key()
            ^ crate::zobrist::piece_key(piece, mv.from())
            ^ crate::zobrist::piece_key(piece, mv.to())
    }

    /// [`BoardOf::status`] under the family's rules: escape and capture, the exit fort,
    /// enclosure and encirclement, hnefatafl.org's "defenders cannot escape", no legal move,
    /// the move limit.
    fn family_status(&self, rules: &Rules) -> Status {
        let Some(k) = self.king() else {
            return Status::Win(Side::Attackers, WinReason::KingCaptured);
        };
        let escaped = match rules.escape {
            Escape::Edge => k.is_edge().then_some(WinReason::KingEscaped),
            Escape::Corner => crate::bitboard::BitboardOf::<G>::raw(G::CORNERS)
                .has(k)
                .then_some(WinReason::KingCornered),
        };
        if let Some(why) = escaped {
            return Status::Win(Side::Defenders, why);
        }
        if let Some((side, why)) = self.family_end(rules) {
            return Status::Win(side, why);
        }
        let limit_reached = rules.move_limit > 0 && self.plies() >= rules.move_limit;
        // hnefatafl.org judges it after its wins and its ply limit, before "no legal move".
        if rules.cannot_escape && !limit_reached && self.defenders_cannot_escape().is_some() {
            return Status::Win(Side::Attackers, WinReason::CannotEscape);
        }
        if !self.has_move(rules) {
            return Status::Win(self.side_to_move().opponent(), WinReason::NoMoves);
        }
        if rules.move_limit > 0 && self.plies() >= rules.move_limit {
            return Status::Draw(DrawReason::MoveLimit);
        }
        Status::Ongoing
    }
}

/// An error from [`GameOf`]: a bad position string, or a move that is not legal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameErrorOf<G: Geometry> {
    /// The position string is malformed.
    Position(PositionErrorOf<G>),
    /// The move (by its index in a list, from 0) is malformed or illegal.
    Move {
        /// Position of the move in the list it came from.
        index: usize,
        /// What is wrong with it.
        error: MoveErrorOf<G>,
    },
    /// A move in a list (by its index, from 0) comes after the game has ended.
    AfterEnd {
        /// Position of the move in the list it came from.
        index: usize,
        /// The move as given.
        text: String,
        /// How the game had ended.
        status: Status,
    },
    /// The game has already ended.
    Over(Status),
}

/// An error from a Tablut [`Game`].
pub type GameError = GameErrorOf<Nine>;

impl<G: Geometry> fmt::Display for GameErrorOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameErrorOf::Position(e) => write!(f, "bad position: {e}"),
            GameErrorOf::Move { index, error } => write!(f, "move {}: {error}", index + 1),
            GameErrorOf::AfterEnd {
                index,
                text,
                status,
            } => write!(
                f,
                "move {}: {text} comes after the end of the game ({status})",
                index + 1
            ),
            GameErrorOf::Over(s) => write!(f, "the game is over ({s})"),
        }
    }
}

impl<G: Geometry> std::error::Error for GameErrorOf<G> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameErrorOf::Position(e) => Some(e),
            GameErrorOf::Move { error, .. } => Some(error),
            GameErrorOf::AfterEnd { .. } | GameErrorOf::Over(_) => None,
        }
    }
}

/// A game: the rules, the position it started from, the moves played, and the keys of every
/// position so far for repetition.
#[derive(Clone, Debug)]
pub struct GameOf<G: Geometry> {
    rules: Rules,
    start: BoardOf<G>,
    board: BoardOf<G>,
    moves: Vec<MoveOf<G>>,
    /// Key of the start position and of the position after each move.
    keys: Vec<u64>,
    /// How often each key occurs in `keys`, so that judging repetition after a move does not
    /// scan the whole game (a long `position … moves` list would replay in quadratic time).
    counts: AHashMap<u64, u32>,
    /// The placement keys (without the side to move) of every board so far, for
    /// [`Repetition::DefenderMayNotRepeat`].
    placements: AHashSet<u64>,
    status: Status,
}

/// A game of Tablut.
pub type Game = GameOf<Nine>;

impl Game {
    /// A game from the start position.
    pub fn start(rules: Rules) -> Game {
        Game::new(rules, Board::start(&rules))
    }

    /// A game from `startpos` or a position string, then the given moves. Any error leaves
    /// nothing behind and names the move at fault.
    pub fn from_moves<'a>(
        rules: Rules,
        fen: Option<&str>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Game, GameError> {
        let board = match fen {
            None => Board::start(&rules),
            Some(text) => Board::from_fen(text).map_err(GameError::Position)?,
        };
        Game::new(rules, board).replay(moves, |game, text| game.play_text(text))
    }
}

impl<G: Geometry> GameOf<G> {
    /// A game from `board` (its first occurrence counts for repetition).
    pub fn new(rules: Rules, board: BoardOf<G>) -> Self {
        let mut g = GameOf {
            rules,
            start: board,
            board,
            moves: Vec::new(),
            keys: vec![board.hash()],
            counts: AHashMap::from_iter([(board.hash(), 1)]),
            placements: AHashSet::from_iter([board.placement_key()]),
            status: Status::Ongoing,
        };
        g.status = g.compute_status();
        g
    }

    /// A game from `board`, then the given moves; an error names the move at fault.
    pub fn with_moves(
        rules: Rules,
        board: BoardOf<G>,
        moves: &[MoveOf<G>],
    ) -> Result<Self, GameErrorOf<G>> {
        Self::new(rules, board).replay(moves.iter(), |game, &mv| game.play(mv))
    }

    /// A game from a position string, then the given moves (`d1d3` or `d1-d3`); any error
    /// leaves nothing behind and names the move at fault.
    pub fn from_fen_and_moves<'a>(
        rules: Rules,
        fen: &str,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, GameErrorOf<G>> {
        let board = BoardOf::from_fen(fen).map_err(GameErrorOf::Position)?;
        Self::new(rules, board).replay(moves, |game, text| game.play_text(text))
    }

    /// Plays `items` in turn, numbering an error by the item's index in the list.
    fn replay<T: fmt::Display + Copy>(
        mut self,
        items: impl IntoIterator<Item = T>,
        play: impl Fn(&mut Self, T) -> Result<Status, GameErrorOf<G>>,
    ) -> Result<Self, GameErrorOf<G>> {
        for (index, item) in items.into_iter().enumerate() {
            play(&mut self, item).map_err(|e| match e {
                GameErrorOf::Move { error, .. } => GameErrorOf::Move { index, error },
                GameErrorOf::Over(status) => GameErrorOf::AfterEnd {
                    index,
                    text: item.to_string(),
                    status,
                },
                other => other,
            })?;
        }
        Ok(self)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current board.
    pub fn board(&self) -> &BoardOf<G> {
        &self.board
    }

    /// The board the game started from.
    pub fn start_board(&self) -> &BoardOf<G> {
        &self.start
    }

    /// The moves played.
    pub fn moves(&self) -> &[MoveOf<G>] {
        &self.moves
    }

    /// The placement keys ([`BoardOf::placement_key`]) of every board of the game so far.
    pub fn placements(&self) -> &AHashSet<u64> {
        &self.placements
    }

    /// Keys of every position so far, the start position first.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The status after the last move: ongoing, a win with its reason, or a draw (which a
    /// [`Board`] alone cannot see when it comes from repetition).
    ///
    /// ```
    /// use konakis_core::{DrawReason, Game, Rules, Status};
    /// let rules = Rules::default();
    /// // Two soldiers shuffle back and forth until the position has occurred three times.
    /// let moves = ["a4a3", "e3f3", "a3a4", "f3e3"].repeat(2);
    /// let game = Game::from_moves(rules, None, moves).unwrap();
    /// assert_eq!(game.status(), Status::Draw(DrawReason::Repetition));
    /// ```
    pub fn status(&self) -> Status {
        self.status
    }

    /// How often the current position (placement and side to move) has occurred, as the
    /// repetition rule counts: every position of the game under Linnaeus; under Ashton only
    /// positions reached by a move, since the server does not remember the one the game
    /// started from. (From the start position this changes nothing: every camp square is
    /// occupied there, and the attackers' first move takes a soldier out of the camps for
    /// good, so it can never recur. From a set-up position it can.)
    pub fn occurrences(&self) -> usize {
        let key = self.board.hash();
        let all = self.counts.get(&key).copied().unwrap_or(0) as usize;
        match self.rules.ruleset {
            Ruleset::Linnaeus => all,
            Ruleset::Ashton => all - usize::from(self.keys[0] == key),
        }
    }

    /// [`GameOf::occurrences`] by scanning every key: the slow reference it is tested against.
    #[cfg(test)]
    fn occurrences_slow(&self) -> usize {
        let key = self.board.hash();
        self.repetition_keys().iter().filter(|&&k| k == key).count()
    }

    /// The keys the repetition rule counts (see [`GameOf::occurrences`]): all of
    /// [`GameOf::keys`] under Linnaeus, all but the first under Ashton. The search counts these.
    pub fn repetition_keys(&self) -> &[u64] {
        match self.rules.ruleset {
            Ruleset::Linnaeus => &self.keys[..],
            Ruleset::Ashton => &self.keys[1..],
        }
    }

    /// The board's status, or a draw when the position has occurred `RepetitionDraw` times.
    ///
    /// Under Ashton (`RepetitionDraw=2`) this is the server's rule: a draw as soon as a
    /// position reached by a move recurs, unless that move won. The server forgets its
    /// positions whenever a move captures, and compares only the positions since; keeping them
    /// all makes no difference, because pieces are only ever removed, so no position before a
    /// capture can occur after it. (The server's optional cap on remembered positions, `-c`, is
    /// unlimited by default and is not modelled.)
    ///
    /// The family's repetition rules ([`Repetition`]) give the game to a side instead of
    /// drawing it; under [`Repetition::DefenderMayNotRepeat`] nothing ends on a repetition,
    /// and the defenders lose when every move they have would repeat a board.
    fn compute_status(&self) -> Status {
        let to_move = self.board.side_to_move();
        match (self.board.status(&self.rules), self.rules.repetition) {
            (Status::Ongoing | Status::Draw(_), Repetition::DefenderMayNotRepeat) => {
                if to_move == Side::Defenders && self.legal_moves().is_empty() {
                    Status::Win(Side::Attackers, WinReason::NoMoves)
                } else {
                    self.board.status(&self.rules)
                }
            }
            (Status::Ongoing | Status::Draw(_), rule)
                if self.occurrences() >= self.rules.repetition_draw as usize =>
            {
                match rule {
                    Repetition::AttackersWin => Status::Win(Side::Attackers, WinReason::Repetition),
                    Repetition::MakerLoses => Status::Win(to_move, WinReason::Repetition),
                    Repetition::MakerWins => Status::Win(to_move.opponent(), WinReason::Repetition),
                    Repetition::Draw | Repetition::DefenderMayNotRepeat => {
                        Status::Draw(DrawReason::Repetition)
                    }
                }
            }
            (s, _) => s,
        }
    }

    /// Whether `mv` (legal on the board) is refused by [`Repetition::DefenderMayNotRepeat`]:
    /// a defender's move whose board before its captures is one the game has had.
    pub fn repeats(&self, mv: MoveOf<G>) -> bool {
        self.rules.repetition == Repetition::DefenderMayNotRepeat
            && self.board.side_to_move() == Side::Defenders
            && self
                .placements
                .contains(&self.board.placement_key_after(mv))
    }

    /// The legal moves in the game: the board's, less those the repetition rule refuses.
    pub fn legal_moves(&self) -> Vec<MoveOf<G>> {
        let mut moves: Vec<MoveOf<G>> = self.board.legal_moves(&self.rules).to_vec();
        moves.retain(|&mv| !self.repeats(mv));
        moves
    }

    /// Plays a legal move and returns the new status; an illegal move, or any move once the
    /// game is over, is refused and changes nothing. ([`BoardOf::play`] is the unchecked play
    /// the search uses.)
    ///
    /// ```
    /// use konakis_core::{Game, GameError, IllegalReason, Move, MoveError, Rules, Status};
    /// let mut game = Game::start(Rules::default());
    /// assert_eq!(game.play(Move::parse("d1d3").unwrap()), Ok(Status::Ongoing));
    /// match game.play(Move::parse("e5e7").unwrap()) {
    ///     Err(GameError::Move { index: 1, error: MoveError::Illegal(e) }) => {
    ///         assert_eq!(e.reason, IllegalReason::Occupied)
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// assert_eq!(game.moves().len(), 1);
    /// ```
    pub fn play(&mut self, mv: MoveOf<G>) -> Result<Status, GameErrorOf<G>> {
        if self.status.is_over() {
            return Err(GameErrorOf::Over(self.status));
        }
        self.board
            .check_move(&self.rules, mv)
            .map_err(|e| GameErrorOf::Move {
                index: self.moves.len(),
                error: MoveErrorOf::Illegal(e),
            })?;
        if self.repeats(mv) {
            return Err(GameErrorOf::Move {
                index: self.moves.len(),
                error: MoveErrorOf::Illegal(super::IllegalMoveOf {
                    mv,
                    reason: super::IllegalReason::Repetition,
                }),
            });
        }
        self.board.play(&self.rules, mv);
        self.placements.insert(self.board.placement_key());
        self.moves.push(mv);
        self.keys.push(self.board.hash());
        *self.counts.entry(self.board.hash()).or_insert(0) += 1;
        self.status = self.compute_status();
        Ok(self.status)
    }

    /// Parses and plays a move given as text (`d1d3` or `d1-d3`).
    pub fn play_text(&mut self, text: &str) -> Result<Status, GameErrorOf<G>> {
        if self.status.is_over() {
            return Err(GameErrorOf::Over(self.status));
        }
        let mv = MoveOf::parse(text).map_err(|e| GameErrorOf::Move {
            index: self.moves.len(),
            error: MoveErrorOf::Parse(e),
        })?;
        self.play(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_occurrences_agree_with_a_scan_of_the_game() {
        for ruleset in ["Linnaeus", "Ashton"] {
            let mut rules = Rules::default();
            rules.set("Ruleset", ruleset).unwrap();
            if ruleset == "Linnaeus" {
                rules.set("RepetitionDraw", "10").unwrap();
            }
            rules.move_limit = 0;
            let mut game = Game::start(rules);
            // Two soldiers shuffle back and forth, so positions recur.
            let moves: Vec<&str> = if ruleset == "Linnaeus" {
                ["a4a3", "e3f3", "a3a4", "f3e3"].repeat(8)
            } else {
                // Defenders first, and no way back into a camp.
                let mut m = vec!["e3f3", "a4a3"];
                m.extend(["f3e3", "a3b3", "e3f3", "b3a3"]);
                m
            };
            for (i, mv) in moves.iter().enumerate() {
                if game.status().is_over() {
                    break;
                }
                game.play_text(mv).unwrap();
                assert_eq!(
                    game.occurrences(),
                    game.occurrences_slow(),
                    "{ruleset}, ply {i}"
                );
            }
            assert!(game.occurrences() > 1, "{ruleset}: positions recurred");
        }
    }

    #[test]
    fn the_ply_count_saturates_instead_of_overflowing() {
        let rules = Rules {
            move_limit: 0,
            ..Rules::default()
        };
        let fen = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 4294967295";
        let mut game = Game::from_moves(rules, Some(fen), ["d1d3"]).unwrap();
        assert_eq!(game.board().plies(), u32::MAX);
        assert_eq!(game.play_text("e4d4").unwrap(), Status::Ongoing);
        assert_eq!(game.board().plies(), u32::MAX);
    }
}
