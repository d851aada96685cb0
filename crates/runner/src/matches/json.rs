//! The match JSON (`konakis match --json`): the summary, the exact totals `konakis match merge`
//! adds up, and every game.
//!
//! The file is the `Summary` and the types below it, serialized by serde in the `Layout`
//! the runner has always written: one top-level field per line, one engine and one game per
//! line, everything deeper on its line. Figures (scores, Elo, averages, the SPRT) are rounded to
//! four decimals and written as Rust prints them (`1`, not `1.0`); a figure that is not finite
//! is `null`.
//!
//! [`Finished`] reads back the parts of a file that `konakis match merge` and `konakis match
//! chart` need.

use super::config::{MatchConfig, Opening};
use super::fingerprint::Fingerprint;
use super::game::GameOutcome;
use super::stats::{MIN_PAIRS, Pentanomial, Sprt, SprtVerdict, sprt_bounds};
use super::tally::{Tally, Wdl};
use crate::shard::Shard;
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::{MoveOf, Side};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::ser::{CharEscape, Formatter};
use std::io;
use std::path::{Path, PathBuf};

/// Everything the JSON file holds beyond the config and the tally.
pub struct JsonExtras<'a, G: Geometry = Nine> {
    /// Games in the schedule.
    pub planned: usize,
    /// Stopped by Ctrl-C.
    pub interrupted: bool,
    /// The SPRT and its last LLR and verdict.
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// Finished games, in any order.
    pub games: &'a [GameOutcome<G>],
    /// What makes this run part of its match.
    pub fingerprint: &'a Fingerprint,
    /// Games in the whole match (all shards).
    pub match_games: usize,
    /// Where the records went (absolute), if anywhere.
    pub records: Option<&'a Path>,
}

/// A figure as the JSON gives it: rounded to four decimals; `None` (`null`) when not finite.
fn figure(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 1e4).round() / 1e4)
}

/// The whole file.
#[derive(Serialize)]
struct Summary<'a> {
    rules: String,
    games_planned: usize,
    games_played: u64,
    interrupted: bool,
    seed: u64,
    fingerprint: &'a Fingerprint,
    shard: Option<Shard>,
    match_games: usize,
    records: Option<String>,
    tally: &'a Tally,
    overhead_us_per_move: Option<f64>,
    sides: Sides,
    min_pairs: u64,
    engines: Vec<EngineSummary<'a>>,
    sprt: Option<SprtSummary>,
    games: Vec<GameSummary<'a>>,
}

/// The games by the side that won them.
#[derive(Serialize)]
struct Sides {
    attackers_wins: u64,
    defenders_wins: u64,
    draws: u64,
    avg_plies: Option<f64>,
}

/// One engine's results.
#[derive(Serialize)]
struct EngineSummary<'a> {
    name: &'a str,
    cmd: String,
    limits: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: Option<f64>,
    /// `too_few_pairs` (below [`MIN_PAIRS`]), `unbounded` (an infinite Elo or interval) or
    /// `ok`: why `elo`, `elo_error` or `los` may be `null`.
    elo_status: &'static str,
    elo: Option<f64>,
    elo_error: Option<f64>,
    los: Option<f64>,
    pairs: u64,
    pentanomial: [u64; 5],
    as_attackers: WdlSummary,
    as_defenders: WdlSummary,
    avg_plies: Option<f64>,
    time_forfeits: u64,
    crashes: u64,
    illegal_moves: u64,
    protocol_errors: u64,
}

/// Wins, draws and losses with their count and score.
#[derive(Serialize)]
struct WdlSummary {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: Option<f64>,
}

impl From<&Wdl> for WdlSummary {
    fn from(w: &Wdl) -> WdlSummary {
        WdlSummary {
            games: w.games(),
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            score: w.score().and_then(figure),
        }
    }
}

/// The Elo figures of an engine with these pairs: the status and the three numbers.
#[derive(Debug, PartialEq, Serialize)]
struct EloSummary {
    elo_status: &'static str,
    elo: Option<f64>,
    elo_error: Option<f64>,
    los: Option<f64>,
}

impl EloSummary {
    fn of(penta: &Pentanomial) -> EloSummary {
        let (elo_status, x) = match penta.elo() {
            Err(_) => ("too_few_pairs", None),
            Ok(x) if !x.elo.is_finite() || !x.error.is_finite() => ("unbounded", Some(x)),
            Ok(x) => ("ok", Some(x)),
        };
        EloSummary {
            elo_status,
            elo: x.as_ref().and_then(|x| figure(x.elo)),
            elo_error: x.as_ref().and_then(|x| figure(x.error)),
            los: x.as_ref().and_then(|x| figure(x.los)),
        }
    }
}

/// The SPRT's settings, its log-likelihood ratio, bounds and verdict.
#[derive(Serialize)]
struct SprtSummary {
    elo0: Option<f64>,
    elo1: Option<f64>,
    alpha: Option<f64>,
    beta: Option<f64>,
    llr: Option<f64>,
    lower: Option<f64>,
    upper: Option<f64>,
    /// `H0`, `H1` or `none`.
    verdict: &'static str,
}

/// One game.
#[derive(Serialize)]
struct GameSummary<'a> {
    game: usize,
    /// Counted from 1.
    pair: usize,
    attackers: &'a str,
    defenders: &'a str,
    opening: &'a str,
    start: String,
    opening_moves: Vec<String>,
    moves: Vec<String>,
    times_ms: &'a [u64],
    forgiven_ms: PerSide,
    scores: &'a [Option<i32>],
    /// `attackers`, `defenders` or `draw`.
    result: &'static str,
    winner: Option<&'a str>,
    termination: &'static str,
    ending: &'static str,
    reason: &'a str,
    plies: u32,
    duration_ms: u128,
}

/// What `konakis match merge` and `konakis match chart` read back of a match JSON: the fields
/// of `Summary` they need, with the types that wrote them. A field the file lacks is `None`
/// (a file of an older runner, or not a match's JSON), so the reader can say which one is
/// missing; a field of the wrong type makes the whole file unreadable.
#[derive(Debug, Deserialize)]
pub struct Finished {
    /// The rules, as the summary prints them.
    pub rules: Option<String>,
    /// Games in this run's schedule.
    pub games_planned: Option<usize>,
    /// Stopped by Ctrl-C.
    pub interrupted: Option<bool>,
    /// What makes this run part of its match.
    pub fingerprint: Option<Fingerprint>,
    /// `Some(None)` for `null`: the whole match in one run.
    #[serde(default, deserialize_with = "present")]
    pub shard: Option<Option<Shard>>,
    /// Games in the whole match (all shards).
    pub match_games: Option<usize>,
    /// Where the records went.
    pub records: Option<PathBuf>,
    /// The exact totals.
    pub tally: Option<Tally>,
    /// The engines, in order.
    pub engines: Option<Vec<FinishedEngine>>,
    /// The SPRT's settings, when the run had one.
    pub sprt: Option<FinishedSprt>,
    /// The games played.
    pub games: Option<Vec<FinishedGame>>,
}

/// An engine of a [`Finished`] file.
#[derive(Debug, Deserialize)]
pub struct FinishedEngine {
    /// Its name.
    pub name: Option<String>,
}

/// The SPRT settings of a [`Finished`] file (`null` when not finite).
#[derive(Debug, Deserialize)]
pub struct FinishedSprt {
    /// Elo of H0.
    pub elo0: Option<f64>,
    /// Elo of H1.
    pub elo1: Option<f64>,
    /// False positive rate.
    pub alpha: Option<f64>,
    /// False negative rate.
    pub beta: Option<f64>,
}

/// A game of a [`Finished`] file.
#[derive(Debug, Deserialize)]
pub struct FinishedGame {
    /// Its number in the match.
    pub game: Option<usize>,
    /// How it ended, in one word.
    pub ending: Option<String>,
}

/// A field that is present, `null` or not: `Some(None)` for `null`, and (with
/// `#[serde(default)]`) `None` when the field is missing.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A number per side.
#[derive(Serialize)]
struct PerSide {
    attackers: u64,
    defenders: u64,
}

/// The average of `total` over `count`; `None` without any.
fn average(total: u64, count: u64) -> Option<f64> {
    (count > 0)
        .then(|| figure(total as f64 / count as f64))
        .flatten()
}

/// The JSON summary and games, ending with a newline.
pub fn json<G: Geometry>(
    config: &MatchConfig,
    openings: &[Opening<G>],
    tally: &Tally,
    x: &JsonExtras<G>,
) -> String {
    let (over, samples) = tally.overhead;
    let engines = config
        .engines
        .iter()
        .zip(&tally.engines)
        .map(|(spec, e)| {
            let elo = EloSummary::of(&e.penta);
            EngineSummary {
                name: &spec.name,
                cmd: spec.cmd.display().to_string(),
                limits: spec.limits.describe(),
                games: e.all.games(),
                wins: e.all.wins,
                draws: e.all.draws,
                losses: e.all.losses,
                score: e.all.score().and_then(figure),
                elo_status: elo.elo_status,
                elo: elo.elo,
                elo_error: elo.elo_error,
                los: elo.los,
                pairs: e.penta.pairs(),
                pentanomial: e.penta.0,
                as_attackers: (&e.by_side[Side::Attackers]).into(),
                as_defenders: (&e.by_side[Side::Defenders]).into(),
                avg_plies: average(e.plies, e.all.games()),
                time_forfeits: e.faults[0],
                crashes: e.faults[1],
                illegal_moves: e.faults[2],
                protocol_errors: e.faults[3],
            }
        })
        .collect();
    let sprt = x.sprt.map(|(sprt, llr, verdict)| {
        let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
        SprtSummary {
            elo0: figure(sprt.elo0),
            elo1: figure(sprt.elo1),
            alpha: figure(sprt.alpha),
            beta: figure(sprt.beta),
            llr: figure(llr),
            lower: figure(lower),
            upper: figure(upper),
            verdict: match verdict {
                SprtVerdict::H0 => "H0",
                SprtVerdict::H1 => "H1",
                SprtVerdict::Continue => "none",
            },
        }
    });
    let mut games: Vec<&GameOutcome<G>> = x.games.iter().collect();
    games.sort_by_key(|o| o.job.number);
    let games = games
        .into_iter()
        .map(|o| {
            let opening = &openings[o.job.opening];
            let name = |side: Side| config.engines[o.job.sides[side]].name.as_str();
            let texts = |moves: &[MoveOf<G>]| moves.iter().map(MoveOf::to_string).collect();
            let winner = o.ending.winner();
            GameSummary {
                game: o.job.number,
                pair: o.job.pair + 1,
                attackers: name(Side::Attackers),
                defenders: name(Side::Defenders),
                opening: &opening.text,
                start: opening.game.start_board().to_fen(),
                opening_moves: texts(&opening.moves),
                moves: texts(&o.moves),
                times_ms: &o.times_ms,
                forgiven_ms: PerSide {
                    attackers: o.forgiven_ms[Side::Attackers],
                    defenders: o.forgiven_ms[Side::Defenders],
                },
                scores: &o.scores,
                result: winner.map_or("draw", Side::name),
                winner: winner.map(name),
                termination: o.ending.category(),
                ending: o.ending.how(),
                reason: &o.reason,
                plies: o.plies,
                duration_ms: o.duration.as_millis(),
            }
        })
        .collect();
    let summary = Summary {
        rules: config.rules_text(),
        games_planned: x.planned,
        games_played: tally.games,
        interrupted: x.interrupted,
        seed: config.seed,
        fingerprint: x.fingerprint,
        shard: config.shard,
        match_games: x.match_games,
        records: x.records.map(|p| p.display().to_string()),
        tally,
        overhead_us_per_move: if samples > 0 {
            figure(over.as_secs_f64() * 1e6 / samples as f64)
        } else {
            None
        },
        sides: Sides {
            attackers_wins: tally.sides[0],
            defenders_wins: tally.sides[1],
            draws: tally.sides[2],
            avg_plies: average(tally.plies, tally.games),
        },
        min_pairs: MIN_PAIRS,
        engines,
        sprt,
        games,
    };
    let mut text = write(&summary, Layout::default());
    text.push('\n');
    text
}

/// `value` as one line, as it is written inside the file (the `tally` object, say).
#[cfg(test)]
pub fn to_line<T: Serialize + ?Sized>(value: &T) -> String {
    write(value, Layout { open: vec![false] })
}

/// `value` as JSON in `layout`.
fn write<T: Serialize + ?Sized>(value: &T, layout: Layout) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, layout);
    // Cannot fail: the types above have string keys only, and a Vec takes every write.
    value
        .serialize(&mut serializer)
        .expect("the match JSON serializes");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// How the match JSON is laid out: the top-level object with one field per line (indented by
/// two spaces), an array directly in it with one element per line (indented by four), and
/// everything deeper on one line with `", "` and `": "` between its parts, so that a game or an
/// engine is one line a reader can find with `grep`.
#[derive(Default)]
struct Layout {
    /// For each container being written, whether it puts its members on lines of their own.
    open: Vec<bool>,
}

impl Layout {
    fn begin<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        array: bool,
        mark: &[u8],
    ) -> io::Result<()> {
        let on_lines = match self.open.as_slice() {
            [] => true,
            [top] => array && *top,
            _ => false,
        };
        self.open.push(on_lines);
        w.write_all(mark)
    }

    fn member<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.open.last() == Some(&true) {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            w.write_all(&b"    "[..2 * self.open.len()])
        } else if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn end<W: ?Sized + io::Write>(&mut self, w: &mut W, mark: &[u8]) -> io::Result<()> {
        if self.open.pop() == Some(true) {
            w.write_all(b"\n")?;
            w.write_all(&b"  "[..2 * self.open.len()])?;
        }
        w.write_all(mark)
    }
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, true, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.member(w, first)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, false, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.member(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    /// As Rust prints it: `0.5`, `12`, never an exponent (serde_json would write `12.0`).
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        write!(w, "{value}")
    }

    /// Backspace and form feed as `\u0008` and `\u000c`, as the runner wrote every control
    /// character but tab, newline and carriage return before serde wrote the file.
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        let text: &[u8] = match escape {
            CharEscape::Quote => b"\\\"",
            CharEscape::ReverseSolidus => b"\\\\",
            CharEscape::Solidus => b"\\/",
            CharEscape::Backspace => b"\\u0008",
            CharEscape::FormFeed => b"\\u000c",
            CharEscape::LineFeed => b"\\n",
            CharEscape::CarriageReturn => b"\\r",
            CharEscape::Tab => b"\\t",
            CharEscape::AsciiControl(byte) => return write!(w, "\\u{byte:04x}"),
        };
        w.write_all(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_object_and_its_arrays_break_lines_and_the_rest_stays_on_one() {
        #[derive(Serialize)]
        struct Top {
            name: &'static str,
            inner: PerSide,
            list: Vec<Vec<u32>>,
            none: Vec<u32>,
        }
        let top = Top {
            name: "x",
            inner: PerSide {
                attackers: 1,
                defenders: 2,
            },
            list: vec![vec![1, 2], vec![]],
            none: vec![],
        };
        assert_eq!(
            write(&top, Layout::default()),
            "{\n  \"name\": \"x\",\n  \"inner\": {\"attackers\": 1, \"defenders\": 2},\n  \
             \"list\": [\n    [1, 2],\n    []\n  ],\n  \"none\": [\n  ]\n}"
        );
    }

    #[test]
    fn strings_are_escaped_and_figures_rounded_as_before() {
        assert_eq!(
            to_line("a\"b\\c\nd\u{1}\u{8}\u{c}\t/é"),
            "\"a\\\"b\\\\c\\nd\\u0001\\u0008\\u000c\\t/é\""
        );
        assert_eq!(
            to_line(&[
                figure(0.123456),
                figure(1.0),
                figure(-2.5),
                figure(f64::INFINITY)
            ]),
            "[0.1235, 1, -2.5, null]"
        );
    }

    #[test]
    fn json_tells_too_few_pairs_from_an_unbounded_figure() {
        let few = EloSummary::of(&Pentanomial([0, 0, 2, 0, 0]));
        assert_eq!(
            few,
            EloSummary {
                elo_status: "too_few_pairs",
                elo: None,
                elo_error: None,
                los: None
            }
        );
        let all_won = EloSummary::of(&Pentanomial([0, 0, 0, 0, 20]));
        assert_eq!(all_won.elo_status, "unbounded");
        assert!(all_won.elo.is_none() && all_won.los.unwrap() > 0.999);
        let drawn = EloSummary::of(&Pentanomial([0, 0, 20, 0, 0]));
        assert_eq!(drawn.elo_status, "ok");
        assert_eq!(drawn.elo, Some(0.0));
        assert!(drawn.elo_error.unwrap() > 20.0);
        assert_eq!(
            to_line(&drawn),
            format!(
                "{{\"elo_status\": \"ok\", \"elo\": 0, \"elo_error\": {}, \"los\": 0.5}}",
                drawn.elo_error.unwrap()
            )
        );
    }
}
