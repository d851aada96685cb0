//! The player as a state machine, without a socket: a [`Machine`] takes each state the server
//! sends and answers with an [`Action`] (think and play, wait, the game is over) and the lines
//! for the log; [`Machine::think`] then gives the move to send. The socket side (module
//! `client`, which uses this one) carries states and moves over TCP.
//!
//! The server is the authority. Each state is matched against the position Konakis holds: it
//! is the same position (a refused move, or a result without a move), or the position after
//! exactly one legal move (found and played, so the game keeps its history for repetition), or
//! neither, in which case Konakis trusts the state, says so, and plays on from it. The
//! [`Engine`] holds the searcher, the game and the options, and does the matching.

use super::state::{State, Turn, WireError, colour_name};
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::{Move, Side};
use konakis_engine::clock::Instant;
use konakis_engine::options::Options;
use konakis_engine::search::{Info, Limits, Score, SearchError, Settings};
use konakis_engine::wdl;
use konakis_engine::{Engine, Explain, Synced};
use std::fmt;
use std::time::Duration;

/// One entry of the game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A move, found in or sent as a state.
    Move(Move),
    /// The position was taken from a state no legal move leads to.
    Rebuilt,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Move(m) => write!(f, "{m}"),
            Entry::Rebuilt => f.write_str("[rebuilt]"),
        }
    }
}

/// What to do after a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Konakis' turn: [`Machine::think`], then send the move.
    Think,
    /// Wait for the next state (the opponent's turn).
    Wait,
    /// The game is over: the final turn.
    Over(Turn),
}

/// The move to send and how the engine found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The move.
    pub mv: Move,
    /// Depth, score and nodes of the search, for the log.
    pub account: String,
}

/// The answer to a state: lines for the log, then what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// Notes, warnings and the opponent's move, one line each, in order.
    pub log: Vec<String>,
    /// What to do.
    pub action: Action,
}

/// Why the machine cannot go on with the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MachineError {
    /// The engine refused its settings (a table size the system refuses).
    Engine(SearchError),
    /// A state that cannot be read or held.
    BadState(WireError),
    /// The first state shows a board that cannot be held.
    BadFirstState(WireError),
    /// The server asks for a move in a position without a legal move left (after refusals).
    NoMoveLeft {
        /// The position.
        fen: String,
    },
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineError::Engine(e) => write!(f, "cannot set up the engine: {e}"),
            MachineError::BadState(e) => write!(f, "the server sent {e}"),
            MachineError::BadFirstState(e) => write!(f, "the first state shows {e}"),
            MachineError::NoMoveLeft { fen } => write!(
                f,
                "the server asks for a move but Konakis has no legal move left in {fen}"
            ),
        }
    }
}

impl std::error::Error for MachineError {}

/// How a state relates to the position held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The same position and turn.
    Same,
    /// The position after this legal move.
    Played(Move),
    /// Not reachable: the position was rebuilt from the state.
    Rebuilt,
}

/// Konakis' side of one game, fed the server's states one by one.
pub struct Machine {
    engine: Engine,
    side: Side,
    think: Duration,
    started: bool,
    /// The move sent last, not yet seen in a state.
    sent: Option<Move>,
    /// Moves of Konakis the server refused in the current position.
    refused_here: Vec<Move>,
    record: Vec<Entry>,
    refused: Vec<Move>,
}

impl Machine {
    /// A machine playing `side` under `rules` with the engine `settings`, thinking up to
    /// `think` a move.
    pub fn new(
        side: Side,
        rules: Rules,
        settings: Settings,
        think: Duration,
    ) -> Result<Machine, MachineError> {
        let options = Options {
            settings,
            rules,
            ..Options::default()
        };
        Ok(Machine {
            engine: Engine::new(options).map_err(MachineError::Engine)?,
            side,
            think,
            started: false,
            sent: None,
            refused_here: Vec::new(),
            record: Vec::new(),
            refused: Vec::new(),
        })
    }

    /// The game as Konakis followed it, White's first move first.
    pub fn record(&self) -> &[Entry] {
        &self.record
    }

    /// Moves of Konakis the server refused.
    pub fn refused(&self) -> &[Move] {
        &self.refused
    }

    /// The record and the refused moves, the machine done with.
    pub fn into_parts(self) -> (Vec<Entry>, Vec<Move>) {
        (self.record, self.refused)
    }

    /// Takes a state the server sent and says what to do: follows the game to it, notes what
    /// the log should say, and tells whether it is Konakis' turn. Does not think.
    pub fn on_state(&mut self, state: &State) -> Result<Response, MachineError> {
        let mut log = Vec::new();
        let last_sent = self.sent.take();
        let step = if self.started {
            follow(&mut self.engine, state, last_sent).map_err(MachineError::BadState)?
        } else {
            let start = Board::start(self.engine.game().rules());
            let fresh = if shows(state, &start) {
                start
            } else {
                let board = state
                    .to_board(Side::Defenders, 0)
                    .map_err(MachineError::BadFirstState)?;
                log.push(
                    "note: the first state is not the start position; playing on from it"
                        .to_string(),
                );
                board
            };
            self.engine.take_position(fresh);
            self.started = true;
            Step::Same
        };
        match step {
            Step::Same => {
                if let Some(m) = last_sent {
                    self.refused.push(m);
                    self.refused_here.push(m);
                    log.push(if state.turn.is_final() {
                        format!("error: the server refused Konakis' move {m} and ended the game")
                    } else {
                        format!(
                            "error: the server refused Konakis' move {m} (the same state came \
                             back); trying another move"
                        )
                    });
                } else if state.turn.is_final() && !self.record.is_empty() {
                    log.push("note: the game ended without a move".to_string());
                }
            }
            Step::Played(m) => {
                self.refused_here.clear();
                self.record.push(Entry::Move(m));
                if Some(m) != last_sent {
                    let mover = self.engine.board().side_to_move().opponent();
                    log.push(format!("{} {m}", colour_name(mover).to_lowercase()));
                }
            }
            Step::Rebuilt => {
                self.refused_here.clear();
                self.record.push(Entry::Rebuilt);
                log.push(format!(
                    "warning: no legal move leads to the state the server sent; Konakis \
                     trusts it and plays on from {}",
                    self.engine.board().to_fen()
                ));
            }
        }
        if state.turn.is_final() {
            let ours_says = Turn::of_status(self.engine.game().status());
            if matches!(step, Step::Played(_)) && ours_says != Some(state.turn) {
                let verdict = ours_says.map_or("the game goes on".to_string(), |t| t.to_string());
                log.push(format!(
                    "warning: the server says {}, Konakis' rules say {verdict}",
                    state.turn
                ));
            }
            return Ok(Response {
                log,
                action: Action::Over(state.turn),
            });
        }
        if state.turn.side() != Some(self.side) {
            return Ok(Response {
                log,
                action: Action::Wait,
            });
        }
        if self.engine.game().status().is_over() {
            // Konakis' rules end the game here but the server plays on: search the position
            // afresh (its history is what ended it).
            log.push(format!(
                "warning: Konakis' rules say the game is over ({}), the server asks for a move",
                self.engine.game().status()
            ));
            self.engine.take_position(*self.engine.board());
        }
        Ok(Response {
            log,
            action: Action::Think,
        })
    }

    /// Konakis' move after a state that said [`Action::Think`], found within the time per move
    /// counted from `received` (when the state arrived) and avoiding the moves the server
    /// refused here. The move is taken as sent: the next state shows whether the server took
    /// it.
    pub fn think(&mut self, received: Instant) -> Result<Play, MachineError> {
        let think = self.think.saturating_sub(received.elapsed());
        let (best, info) = choose(&mut self.engine, think, &self.refused_here);
        let Some(mv) = best else {
            return Err(MachineError::NoMoveLeft {
                fen: self.engine.board().to_fen(),
            });
        };
        let account = describe(&info, self.engine.board(), self.engine.game().rules());
        self.sent = Some(mv);
        Ok(Play { mv, account })
    }
}

/// Whether `state` shows `board`'s pieces with `board`'s side to move (or a final turn).
fn shows(state: &State, board: &Board) -> bool {
    state.same_pieces(board)
        && (state.turn.is_final() || state.turn.side() == Some(board.side_to_move()))
}

/// Brings the engine's game to the position `state` shows; `sent` is the move Konakis sent
/// last, tried first. Fails only on a board that cannot be held at all.
fn follow(engine: &mut Engine, state: &State, sent: Option<Move>) -> Result<Step, WireError> {
    let sent: Vec<Move> = sent.into_iter().collect();
    let synced = engine.sync(
        |board| shows(state, board),
        Explain::OneMove(&sent),
        // Trust the server. A final state keeps the side that would be to move after one move.
        |board| {
            state.to_board(
                board.side_to_move().opponent(),
                board.plies().saturating_add(1),
            )
        },
    )?;
    Ok(match synced {
        Synced::Same => Step::Same,
        Synced::Played(moves) => Step::Played(moves[0]),
        Synced::Taken => Step::Rebuilt,
    })
}

/// A short account of a search from `board` for the log, with the score's win chances.
fn describe(info: &Option<Info>, board: &Board, rules: &Rules) -> String {
    match info {
        None => "no completed iteration".to_string(),
        Some(i) => {
            let score = match i.score {
                Score::Cp(cp) => format!("cp {cp}"),
                Score::Mate(n) => format!("mate {n}"),
            };
            let side = board.side_to_move();
            let chances = wdl::wdl(i.score, board.plies(), side, rules);
            format!(
                "depth {}, score {score} ({}), {} nodes",
                i.depth,
                wdl::describe(chances, side),
                i.nodes
            )
        }
    }
}

/// Chooses Konakis' move in the engine's game within `think`, avoiding the moves in
/// `refused`. `None` when no legal move is left.
fn choose(engine: &mut Engine, think: Duration, refused: &[Move]) -> (Option<Move>, Option<Info>) {
    let game = engine.game();
    let legal: Vec<Move> = game
        .board()
        .legal_moves(game.rules())
        .iter()
        .copied()
        .filter(|m| !refused.contains(m))
        .collect();
    let Some(&fallback) = legal.first() else {
        return (None, None);
    };
    let limits = Limits {
        movetime: Some((think.as_millis() as u64).max(1)),
        searchmoves: if refused.is_empty() {
            Vec::new()
        } else {
            legal
        },
        ..Limits::default()
    };
    if engine.think(limits, |_, _| {}).is_err() {
        return (Some(fallback), None);
    }
    let grace = Duration::from_millis(500);
    // The search overran its time (it should not): stop it, and if even that does not bring
    // an answer, send any legal move rather than lose on time. A search that ignored `stop`
    // is left to itself: it must not hang the player.
    if !engine.wait(Some(Instant::now() + think + grace)) {
        engine.stop();
        engine.wait(Some(Instant::now() + grace));
    }
    let outcome = engine.outcome();
    (outcome.best.or(Some(fallback)), outcome.info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> konakis_core::types::Square {
        name.parse().unwrap()
    }

    /// An engine with a small table, holding `board` under `rules`.
    fn engine(rules: Rules, board: Board) -> Engine {
        let mut config = Options {
            rules,
            ..Options::default()
        };
        config.settings.hash_mib = 1;
        let mut d = Engine::new(config).unwrap();
        d.take_position(board);
        d
    }

    /// A machine for `side` under Ashton, a small table, 50 ms a move.
    fn machine(side: Side) -> Machine {
        let settings = Settings {
            hash_mib: 1,
            ..Settings::default()
        };
        Machine::new(side, Rules::ashton(), settings, Duration::from_millis(50)).unwrap()
    }

    fn after(board: &Board, mv: Move) -> Board {
        let mut b = *board;
        b.play(&Rules::ashton(), mv);
        b
    }

    #[test]
    fn follow_finds_the_move_keeps_the_same_state_and_rebuilds_the_rest() {
        let rules = Rules::ashton();
        let mut game = engine(rules, Board::start(&rules));
        let start = State::from_board(game.board(), Turn::White, None);
        assert_eq!(follow(&mut game, &start, None), Ok(Step::Same));

        let mv = game.board().legal_moves(&rules)[0];
        let mut after = *game.board();
        after.play(&rules, mv);
        let state = State::from_board(&after, Turn::Black, None);
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Played(mv)));
        assert_eq!(game.game().moves(), &[mv]);

        // Two moves at once cannot be followed: the state is trusted.
        let mut two = *game.board();
        let m1 = two.legal_moves(&rules)[0];
        two.play(&rules, m1);
        let m2 = two.legal_moves(&rules)[0];
        two.play(&rules, m2);
        let state = State::from_board(&two, Turn::Black, None);
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Rebuilt));
        assert!(state.same_pieces(game.board()));
        assert_eq!(game.board().side_to_move(), Side::Attackers);
        assert!(
            game.game().moves().is_empty(),
            "a rebuilt game starts a new history"
        );
    }

    #[test]
    fn the_same_pieces_with_the_other_side_to_move_is_rebuilt_with_the_server_turn() {
        let rules = Rules::ashton();
        let mut game = engine(rules, Board::start(&rules));
        let state = State::from_board(game.board(), Turn::Black, None);
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Rebuilt));
        assert_eq!(game.board().side_to_move(), Side::Attackers);
    }

    #[test]
    fn a_captured_king_left_on_the_board_is_followed() {
        let rules = Rules::default();
        let board = Board::from_fen("9/9/9/9/9/9/1bK6/9/3b5 b 0").unwrap();
        let mut game = engine(rules, board);
        let mv = Move::new(sq("d1"), sq("d3"));
        let mut after = board;
        after.play(&rules, mv);
        let state = State::from_board(&after, Turn::BlackWin, Some(sq("c3")));
        assert_eq!(follow(&mut game, &state, None), Ok(Step::Played(mv)));
        assert_eq!(Turn::of_status(game.game().status()), Some(Turn::BlackWin));
    }

    #[test]
    fn white_plays_at_the_start_then_waits_for_black_and_follows_its_move() {
        let mut c = machine(Side::Defenders);
        let start = Board::start(&Rules::ashton());
        let response = c
            .on_state(&State::from_board(&start, Turn::White, None))
            .unwrap();
        assert_eq!((response.log, response.action), (vec![], Action::Think));
        let Play { mv: ours, account } = c.think(Instant::now()).unwrap();
        assert!(account.contains("depth"), "{account}");
        assert!(start.legal_moves(&Rules::ashton()).contains(&ours));
        // The server takes it: Black to move, Konakis waits.
        let board = after(&start, ours);
        let response = c
            .on_state(&State::from_board(&board, Turn::Black, None))
            .unwrap();
        assert_eq!((response.log, response.action), (vec![], Action::Wait));
        // Black's move comes back with White to move: logged, then answered.
        let theirs = board.legal_moves(&Rules::ashton())[0];
        let board = after(&board, theirs);
        let response = c
            .on_state(&State::from_board(&board, Turn::White, None))
            .unwrap();
        assert_eq!(response.log, vec![format!("black {theirs}")]);
        assert_eq!(response.action, Action::Think);
        assert_eq!(c.record(), &[Entry::Move(ours), Entry::Move(theirs)]);
        assert!(c.refused().is_empty());
    }

    #[test]
    fn a_refused_move_is_noted_and_another_move_is_played() {
        let mut c = machine(Side::Defenders);
        let start = State::from_board(&Board::start(&Rules::ashton()), Turn::White, None);
        assert_eq!(c.on_state(&start).unwrap().action, Action::Think);
        let first = c.think(Instant::now()).unwrap().mv;
        // The same state comes back: the move was refused.
        let response = c.on_state(&start).unwrap();
        assert_eq!(
            response.log,
            vec![format!(
                "error: the server refused Konakis' move {first} (the same state came back); \
                 trying another move"
            )]
        );
        assert_eq!(response.action, Action::Think);
        let second = c.think(Instant::now()).unwrap().mv;
        assert_ne!(second, first);
        assert_eq!(c.refused(), &[first]);
        assert!(c.record().is_empty());
    }

    #[test]
    fn a_final_state_ends_the_game_and_a_bad_first_state_is_an_error() {
        let mut c = machine(Side::Attackers);
        let start = Board::start(&Rules::ashton());
        let response = c
            .on_state(&State::from_board(&start, Turn::Draw, None))
            .unwrap();
        assert_eq!(response.action, Action::Over(Turn::Draw));
        assert_eq!(c.into_parts(), (vec![], vec![]));

        let mut c = machine(Side::Attackers);
        let mut empty = State::from_board(&start, Turn::White, None);
        empty.cells = [[crate::challenge::state::Cell::Empty; konakis_core::geometry::SIDE];
            konakis_core::geometry::SIDE];
        let e = c.on_state(&empty).unwrap_err();
        assert!(matches!(e, MachineError::BadFirstState(_)), "{e:?}");
        assert!(e.to_string().starts_with("the first state shows "), "{e}");
    }

    #[test]
    fn an_unrelated_state_is_trusted_with_a_warning() {
        let mut c = machine(Side::Attackers);
        let start = Board::start(&Rules::ashton());
        let response = c
            .on_state(&State::from_board(&start, Turn::White, None))
            .unwrap();
        assert_eq!(response.action, Action::Wait);
        let rules = Rules::ashton();
        let m1 = start.legal_moves(&rules)[0];
        let b1 = after(&start, m1);
        let m2 = b1.legal_moves(&rules)[0];
        let b2 = after(&b1, m2);
        let response = c
            .on_state(&State::from_board(&b2, Turn::White, None))
            .unwrap();
        assert_eq!(response.action, Action::Wait);
        assert!(
            response.log[0].starts_with("warning: no legal move leads to the state"),
            "{:?}",
            response.log
        );
        assert_eq!(c.record(), &[Entry::Rebuilt]);
    }
}
