//! The UCI-like line protocol (protocol.md) as a [`Player`]: `uci`, `setoption` for the
//! engine's options and the match's rules, `ucinewgame`, `position` + `go` with both clocks,
//! `bestmove`, and scores from `info` lines for adjudication.

use super::startup::{preflight_start, startup_fault};
use super::types::{Answer, Clock, Fault, GameEnd, MoveRequest, Player};
use crate::matches::config::{EngineSpec, MatchConfig, MoveLimits, Opening};
use crate::matches::cpu_wait::{CpuWait, late_wait};
use crate::matches::engine::{EngineProcess, Failure, Log};
use konakis_core::board::GameOf;
use konakis_core::geometry::Geometry;
use konakis_core::rules::Rules;
use konakis_core::types::{BySide, Side};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long an engine that overstepped its time gets to answer `stop` before it is killed.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// An engine speaking the line protocol.
pub struct UciPlayer {
    process: EngineProcess,
    startup_timeout: Duration,
    go: String,
}

impl UciPlayer {
    /// Starts the engine: spawn, `uci`, its options, the match's rules, `isready`.
    pub fn start(
        config: &MatchConfig,
        spec: &EngineSpec,
        log: Option<Arc<Log>>,
        abort: &AtomicBool,
    ) -> Result<UciPlayer, (Fault, String)> {
        let timeout = config.startup_timeout;
        let mut e = EngineProcess::spawn(spec, log).map_err(|e| (Fault::Crash, e.to_string()))?;
        let fail = |f: Failure, what: &str| startup_fault(f, what, timeout);
        e.handshake(timeout, abort).map_err(|f| fail(f, "uci"))?;
        for (name, value) in &spec.options {
            e.send(&format!("setoption name {name} value {value}"))
                .map_err(|f| fail(f, "setoption"))?;
        }
        for (name, value) in rule_settings(config) {
            e.send(&format!("setoption name {name} value {value}"))
                .map_err(|f| fail(f, "setoption"))?;
        }
        e.sync(timeout, abort).map_err(|f| fail(f, "isready"))?;
        Ok(UciPlayer {
            process: e,
            startup_timeout: timeout,
            go: String::with_capacity(96),
        })
    }
}

/// The `setoption` settings that give an engine the match's rules: every rule option for
/// Tablut; for a game of the family, `UCI_Variant` and then the rule options that `--rules`
/// changed from the variant's.
fn rule_settings(config: &MatchConfig) -> Vec<(&'static str, String)> {
    let value = |rules: &Rules, name: &str| rules.get(name).unwrap_or_default();
    match config.variant {
        None => Rules::OPTIONS
            .iter()
            .map(|o| (o.name, value(&config.rules, o.name)))
            .collect(),
        Some(variant) => {
            let base = variant.rules();
            let changed = Rules::OPTIONS
                .iter()
                .filter(|o| value(&config.rules, o.name) != value(&base, o.name))
                .map(|o| (o.name, value(&config.rules, o.name)));
            std::iter::once(("UCI_Variant", variant.id.to_string()))
                .chain(changed)
                .collect()
        }
    }
}

impl<G: Geometry> Player<G> for UciPlayer {
    fn new_game(&mut self, _opening: &Opening<G>, abort: &AtomicBool) -> Result<(), Failure> {
        self.process.send("ucinewgame")?;
        self.process.sync(self.startup_timeout, abort)
    }

    fn request_move(
        &mut self,
        request: &MoveRequest<G>,
        abort: &AtomicBool,
    ) -> Result<Answer, Failure> {
        let side = request.game.board().side_to_move();
        let position = request.opening.position_command(request.moves);
        go_command(request.limits, &request.clocks, side, &mut self.go);
        // The engine's time starts once `go` is written.
        self.process.drain();
        self.process.send(&position)?;
        let mut wait = CpuWait::start(self.process.measured());
        self.process.send(&self.go)?;
        let sent = Instant::now();
        let mut score = None;
        loop {
            let (arrived, line) =
                self.process
                    .recv_patient(request.deadline, wait.as_mut(), abort)?;
            if line.starts_with("info") {
                if let Some(s) = parse_score(&line) {
                    score = Some(s);
                }
            } else if line.split_whitespace().next() == Some("bestmove") {
                let text = line.split_whitespace().nth(1).unwrap_or("");
                let text = if text == "(none)" || text == "0000" {
                    String::new()
                } else {
                    text.to_string()
                };
                return Ok(Answer {
                    sent,
                    arrived,
                    text,
                    line,
                    score,
                    cpu_wait: late_wait(
                        arrived,
                        request.deadline,
                        wait.as_mut(),
                        self.process.read_wait(),
                    ),
                });
            }
        }
    }

    fn recover(&mut self, abort: &AtomicBool) -> bool {
        self.process.send("stop").is_ok()
            && self
                .process
                .wait_for("bestmove", Instant::now() + STOP_GRACE, abort)
                .is_ok()
    }

    fn game_over(&mut self, _game: &GameOf<G>, _end: GameEnd) {}

    fn quit(self: Box<Self>, grace: Duration) {
        self.process.quit(grace);
    }
}

/// Starts the engine once, checks that it answers `uci`, and warns about options (the
/// engine's and the rules') it does not announce.
pub(crate) fn preflight(
    config: &MatchConfig,
    spec: &EngineSpec,
    log: Option<Arc<Log>>,
) -> Result<Vec<String>, String> {
    let (e, id) = preflight_start(
        config,
        spec,
        log,
        "uciok",
        "answer uci with uciok",
        |e, timeout, abort| e.handshake(timeout, abort),
    )?;
    e.quit(Duration::from_millis(500));
    let known = |n: &str| id.options.iter().any(|o| o.eq_ignore_ascii_case(n));
    if let Some(variant) = config.variant {
        if !known("UCI_Variant") {
            return Err(format!(
                "engine '{}' has no UCI_Variant option: it cannot be told to play {}",
                spec.name, variant.id
            ));
        }
        if !id
            .variants
            .iter()
            .any(|v| v.eq_ignore_ascii_case(variant.id))
        {
            return Err(format!(
                "engine '{}' does not play {} (its UCI_Variant values: {})",
                spec.name,
                variant.id,
                id.variants.join(", ")
            ));
        }
    }
    let mut warnings = Vec::new();
    for (n, _) in &spec.options {
        if !known(n) {
            warnings.push(format!(
                "warning: engine '{}' does not announce option '{n}'",
                spec.name
            ));
        }
    }
    let defaults = config.variant.map_or_else(Rules::default, |v| v.rules());
    for o in Rules::OPTIONS {
        if !known(o.name) && config.rules.get(o.name) != defaults.get(o.name) {
            warnings.push(format!(
                "warning: engine '{}' does not announce rule option '{}'; it may play other \
                 rules than the referee",
                spec.name, o.name
            ));
        }
    }
    Ok(warnings)
}

/// Reads `score cp X` / `score mate N` from an `info` line (principal line only).
pub fn parse_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    if let Some(i) = words.iter().position(|&w| w == "multipv")
        && words.get(i + 1).is_some_and(|&v| v != "1")
    {
        return None;
    }
    let i = words.iter().position(|&w| w == "score")?;
    let value: i64 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value.clamp(-999_999, 999_999) as i32),
        "mate" if value > 0 => Some(1_000_000),
        "mate" => Some(-1_000_000),
        _ => None,
    }
}

/// The `go` command for `side`, with the clocks of both sides that have one.
fn go_command(
    limits: BySide<&MoveLimits>,
    clocks: &BySide<Option<Clock>>,
    side: Side,
    scratch: &mut String,
) {
    use std::fmt::Write;
    scratch.clear();
    scratch.push_str("go");
    let own = limits[side];
    if own.tc.is_some() {
        // w = defenders, b = attackers.
        for (s, t, i) in [
            (Side::Defenders, "wtime", "winc"),
            (Side::Attackers, "btime", "binc"),
        ] {
            if let (Some(c), Some(tc)) = (clocks[s], limits[s].tc) {
                let _ = write!(scratch, " {t} {}", c.left_ms.max(0));
                if tc.inc_ms > 0 {
                    let _ = write!(scratch, " {i} {}", tc.inc_ms);
                }
            }
        }
        if let Some(Some(m)) = clocks[side].map(|c| c.moves_left) {
            let _ = write!(scratch, " movestogo {m}");
        }
    }
    if let Some(st) = own.st_ms {
        let _ = write!(scratch, " movetime {st}");
    }
    if let Some(d) = own.depth {
        let _ = write!(scratch, " depth {d}");
    }
    if let Some(n) = own.nodes {
        let _ = write!(scratch, " nodes {n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::config::TimeControl;

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(
            parse_score("info depth 5 score cp -37 nodes 100 pv d1d3"),
            Some(-37)
        );
        assert_eq!(
            parse_score("info depth 9 score mate 3 pv a1a2"),
            Some(1_000_000)
        );
        assert_eq!(parse_score("info score mate -2"), Some(-1_000_000));
        assert_eq!(parse_score("info depth 5 multipv 2 score cp 10"), None);
        assert_eq!(
            parse_score("info depth 5 multipv 1 score cp 10 lowerbound"),
            Some(10)
        );
        assert_eq!(parse_score("info string score cp x"), None);
        assert_eq!(parse_score("bestmove d1d3"), None);
    }

    #[test]
    fn go_commands_carry_both_clocks() {
        let tc = MoveLimits {
            tc: Some(TimeControl::parse("5+0.05").unwrap()),
            ..MoveLimits::default()
        };
        let depth = MoveLimits {
            depth: Some(4),
            nodes: Some(1000),
            ..MoveLimits::default()
        };
        let clocks = BySide::new(
            Some(Clock {
                left_ms: 4000,
                moves_left: None,
            }),
            Some(Clock {
                left_ms: -5,
                moves_left: None,
            }),
        );
        let mut s = String::new();
        go_command(BySide::new(&tc, &tc), &clocks, Side::Attackers, &mut s);
        assert_eq!(s, "go wtime 0 winc 50 btime 4000 binc 50");
        go_command(BySide::new(&tc, &depth), &clocks, Side::Defenders, &mut s);
        assert_eq!(s, "go depth 4 nodes 1000");
        let st = MoveLimits {
            st_ms: Some(100),
            ..MoveLimits::default()
        };
        go_command(
            BySide::new(&st, &st),
            &BySide::new(None, None),
            Side::Attackers,
            &mut s,
        );
        assert_eq!(s, "go movetime 100");
    }
}
