//! What the runner shows: a progress display written to the writer it is given (the binary
//! gives it stderr: a bar on a terminal, plain lines otherwise), the running score, the line
//! on each finished game and the final table. Nothing here picks a terminal stream itself.

use super::config::MatchConfig;
use super::game::GameOutcome;
use super::players::Fault;
use super::stats::{Sprt, SprtVerdict, sprt_bounds};
use super::tally::{Tally, Wdl};
use konakis_core::geometry::Geometry;
use konakis_core::types::Side;
use std::io::Write;
use std::time::{Duration, Instant};

/// The progress display, on `out`: a bar redrawn in place when `out` is a terminal, a plain
/// line per event otherwise.
pub struct Progress<W: Write> {
    out: W,
    tty: bool,
    total: usize,
    started: Instant,
    last_draw: Option<Instant>,
    status: String,
    done: usize,
}

impl<W: Write> Progress<W> {
    /// A display for `total` games on `out`; a bar when `tty` (`out` is a terminal).
    pub fn new(total: usize, out: W, tty: bool) -> Progress<W> {
        Progress {
            out,
            tty,
            total,
            started: Instant::now(),
            last_draw: None,
            status: String::new(),
            done: 0,
        }
    }

    /// Writes a line of its own (above the bar).
    pub fn note(&mut self, text: &str) {
        if self.tty {
            let _ = write!(self.out, "\r\x1b[2K{text}\n");
            self.draw(true);
        } else {
            let _ = writeln!(self.out, "{text}");
        }
    }

    /// A game has finished: `line` describes it, `status` is the running score.
    pub fn game_done(&mut self, line: &str, status: &str) {
        self.done += 1;
        status.clone_into(&mut self.status);
        if self.tty {
            self.draw(true);
        } else {
            let _ = writeln!(self.out, "{line}");
            let _ = writeln!(
                self.out,
                "  {}/{} done | {}",
                self.done, self.total, self.status
            );
        }
    }

    /// Redraws the bar now and then (for the clock).
    pub fn tick(&mut self) {
        if self.tty {
            self.draw(false);
        }
    }

    fn draw(&mut self, force: bool) {
        let now = Instant::now();
        if !force
            && self
                .last_draw
                .is_some_and(|t| now - t < Duration::from_millis(500))
        {
            return;
        }
        self.last_draw = Some(now);
        const WIDTH: usize = 24;
        let filled = (self.done * WIDTH).checked_div(self.total).unwrap_or(0);
        let bar: String = (0..WIDTH)
            .map(|i| if i < filled { '#' } else { '-' })
            .collect();
        let secs = self.started.elapsed().as_secs();
        let _ = write!(
            self.out,
            "\r\x1b[2K[{bar}] {}/{} {}:{:02}:{:02} {}",
            self.done,
            self.total,
            secs / 3600,
            secs / 60 % 60,
            secs % 60,
            self.status
        );
        let _ = self.out.flush();
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if self.tty {
            let _ = write!(self.out, "\r\x1b[2K");
            let _ = self.out.flush();
        }
    }
}

/// The highest load average seen during the match, to tell time forfeits that may be the
/// machine's from the engines' own.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadWatch {
    highest: Option<f64>,
}

impl LoadWatch {
    /// Reads the one-minute load average where the system tells (Linux: `/proc/loadavg`).
    pub fn sample(&mut self) {
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok());
        if let Some(l) = load {
            self.highest = Some(self.highest.map_or(l, |h| h.max(l)));
        }
    }

    /// Lines for the summary: when there were time forfeits on a machine with more work than
    /// cores, and when late answers were forgiven (`forgiven_ms` in `forgiven_games` games)
    /// because the engines' threads waited for a CPU; `None` when there is nothing to say.
    pub fn note(
        &self,
        time_forfeits: u64,
        forgiven_ms: u64,
        forgiven_games: u64,
        cores: usize,
    ) -> Option<String> {
        let mut s = String::new();
        let busy = self.highest.filter(|&l| l > cores as f64);
        if let Some(load) = busy
            && time_forfeits > 0
        {
            s += &format!(
                "Note: {time_forfeits} time forfeit(s) while the load average reached {load:.1} \
                 on {cores} cores; a busy machine delays answers (see timemargin= in 'konakis \
                 match --help')\n"
            );
        }
        if forgiven_ms > 0 {
            let load = match self.highest {
                Some(l) => format!(" (load average up to {l:.1} on {cores} cores)"),
                None => String::new(),
            };
            s += &format!(
                "Note: {forgiven_ms} ms of late answers in {forgiven_games} game(s) not charged: \
                 the engines' threads were waiting for a CPU{load}\n"
            );
        }
        (!s.is_empty()).then_some(s)
    }
}

/// `+12.3` style, `inf` when unbounded.
fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

fn percent(x: Option<f64>) -> String {
    x.map_or("-".into(), |s| format!("{:.1}%", 100.0 * s))
}

/// The running score for the progress display: the first engine's score and Elo, and the
/// LLR when an SPRT runs.
pub fn status_line(config: &MatchConfig, tally: &Tally, sprt: Option<(Sprt, f64)>) -> String {
    let e = &tally.engines[0];
    let mut s = format!(
        "{} {}-{}-{} {}",
        config.engines[0].name,
        e.all.wins,
        e.all.draws,
        e.all.losses,
        percent(e.all.score())
    );
    match e.penta.elo() {
        Ok(elo) => s.push_str(&format!(
            " Elo {} ±{}",
            signed(elo.elo),
            unsigned(elo.error)
        )),
        Err(few) => s.push_str(&format!(" (Elo from {} pairs)", few.needed)),
    }
    if let Some((sprt, llr)) = sprt {
        let (lo, hi) = sprt_bounds(sprt.alpha, sprt.beta);
        s.push_str(&format!(" LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
    }
    s
}

/// One line on a finished game.
pub fn game_line<G: Geometry>(config: &MatchConfig, o: &GameOutcome<G>) -> String {
    let name = |side: Side| config.engines[o.job.sides[side]].name.as_str();
    format!(
        "Game {} ({} attacking, {} defending, opening {}): {} [{} plies]",
        o.job.number,
        name(Side::Attackers),
        name(Side::Defenders),
        o.job.opening + 1,
        o.reason,
        o.plies
    )
}

fn wdl(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

/// The final summary of the engines `names` under `rules` (the rules' text).
pub fn summary(
    names: &[String],
    rules: &str,
    tally: &Tally,
    planned: usize,
    interrupted: bool,
    sprt: Option<(Sprt, f64, SprtVerdict)>,
) -> String {
    let mut s = String::new();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    s.push_str(&format!(
        "\n{} of {} games played{}; rules {}\n\n",
        tally.games,
        planned,
        if interrupted { " (interrupted)" } else { "" },
        rules
    ));
    s.push_str(&format!(
        "{:<width$}  {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>7} {:>7} {:>6}\n",
        "Engine", "Games", "Wins", "Draws", "Losses", "Score", "Elo", "±95%", "LOS", "Pairs"
    ));
    let mut too_few = Vec::new();
    for (name, e) in names.iter().zip(&tally.engines) {
        let elo = e.penta.elo();
        if let Err(few) = elo {
            too_few.push(format!("{name}: {few}"));
        }
        let elo = elo.ok();
        s.push_str(&format!(
            "{:<width$}  {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>7} {:>7} {:>6}\n",
            name,
            e.all.games(),
            e.all.wins,
            e.all.draws,
            e.all.losses,
            percent(e.all.score()),
            elo.map_or("-".into(), |x| signed(x.elo)),
            elo.map_or("-".into(), |x| unsigned(x.error)),
            elo.map_or("-".into(), |x| format!("{:.1}%", 100.0 * x.los)),
            e.penta.pairs()
        ));
    }
    if !too_few.is_empty() {
        s.push_str(&format!(
            "Elo, ±95% and LOS not given: {}\n",
            too_few.join(", ")
        ));
    }
    s.push_str(&format!(
        "\n{:<width$}  {:>13} {:>7}  {:>13} {:>7} {:>7} {:>5} {:>5} {:>7} {:>8}\n",
        "Engine",
        "as attackers",
        "score",
        "as defenders",
        "score",
        "plies",
        "time",
        "crash",
        "illegal",
        "protocol"
    ));
    for (name, e) in names.iter().zip(&tally.engines) {
        let att = &e.by_side[Side::Attackers];
        let def = &e.by_side[Side::Defenders];
        let plies = if e.all.games() > 0 {
            format!("{:.1}", e.plies as f64 / e.all.games() as f64)
        } else {
            "-".into()
        };
        s.push_str(&format!(
            "{:<width$}  {:>13} {:>7}  {:>13} {:>7} {:>7} {:>5} {:>5} {:>7} {:>8}\n",
            name,
            wdl(att),
            percent(att.score()),
            wdl(def),
            percent(def.score()),
            plies,
            e.fault(Fault::Time),
            e.fault(Fault::Crash),
            e.fault(Fault::Illegal),
            e.fault(Fault::Protocol),
        ));
    }
    s.push_str("(W-D-L; time = time forfeits, crash = crashes, illegal = illegal moves)\n");
    if tally.games > 0 {
        let g = tally.games as f64;
        s.push_str(&format!(
            "\nSides: attackers won {:.1}%, defenders won {:.1}%, draws {:.1}%; {:.1} plies on \
             average\n",
            100.0 * tally.sides[0] as f64 / g,
            100.0 * tally.sides[1] as f64 / g,
            100.0 * tally.sides[2] as f64 / g,
            tally.plies as f64 / g
        ));
    }
    if names.len() == 2 {
        let p = tally.engines[0].penta.0;
        s.push_str(&format!(
            "Pairs for {}: LL {}, LD {}, DD/WL {}, WD {}, WW {}{}\n",
            names[0],
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            match tally.unpaired() {
                0 => String::new(),
                n => format!(" ({n} game(s) without their pair: in W-D-L only)"),
            }
        ));
    }
    if let Some((sprt, llr, verdict)) = sprt {
        let (lo, hi) = sprt_bounds(sprt.alpha, sprt.beta);
        let first = &names[0];
        let v = match verdict {
            SprtVerdict::H1 => format!(
                "H1 accepted: {first} is stronger, by about {} Elo or more",
                sprt.elo1
            ),
            SprtVerdict::H0 => format!(
                "H0 accepted: {first} is not stronger by more than about {} Elo",
                sprt.elo0
            ),
            SprtVerdict::Continue => "no verdict (neither bound reached)".into(),
        };
        s.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{lo:.2}, {hi:.2}]: {v}\n",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    let (over, n) = tally.overhead;
    if n > 0 {
        s.push_str(&format!(
            "Runner overhead: {:.1} µs per move ({} moves)\n",
            over.as_secs_f64() * 1e6 / n as f64,
            n
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::Pentanomial;

    fn names() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    /// Totals with these pairs for the first engine (all games paired).
    fn tally(p: [u64; 5]) -> Tally {
        let mut t = Tally::new(2, 1);
        let penta = Pentanomial(p);
        t.engines[0].penta = penta;
        t.engines[1].penta = penta.mirrored();
        t.pairings[0] = penta;
        t.games = 2 * penta.pairs();
        t
    }

    #[test]
    fn progress_writes_plain_lines_or_a_bar_to_the_writer_it_is_given() {
        let mut plain = Progress::new(2, Vec::new(), false);
        plain.note("engine b restarted");
        plain.tick();
        plain.game_done("Game 1 (a attacking, b defending, opening 1)", "a 1-0-0");
        plain.finish();
        assert_eq!(
            String::from_utf8(plain.out).unwrap(),
            "engine b restarted\nGame 1 (a attacking, b defending, opening 1)\n  1/2 done | \
             a 1-0-0\n"
        );

        let mut bar = Progress::new(2, Vec::new(), true);
        bar.game_done("Game 1", "a 1-0-0");
        bar.finish();
        let text = String::from_utf8(bar.out).unwrap();
        assert!(
            text.starts_with("\r\x1b[2K[############------------] 1/2 0:00:0"),
            "{text:?}"
        );
        assert!(text.ends_with("a 1-0-0\r\x1b[2K"), "{text:?}");
        assert!(!text.contains("Game 1"), "{text:?}");
    }

    #[test]
    fn four_games_say_too_few_instead_of_zero_plus_minus_zero() {
        let s = summary(&names(), "default", &tally([0, 0, 2, 0, 0]), 4, false, None);
        assert!(
            s.contains(
                "Elo, ±95% and LOS not given: a: too few games (2 pairs; at least 20 \
                        needed), b: too few games (2 pairs; at least 20 needed)"
            ),
            "{s}"
        );
        let row = s.lines().find(|l| l.starts_with("a ")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[6..9], ["-", "-", "-"], "{row}");
    }

    #[test]
    fn time_forfeits_on_a_busy_machine_get_a_note() {
        let busy = LoadWatch { highest: Some(4.7) };
        let note = busy.note(1, 0, 0, 2).unwrap();
        assert!(note.contains("1 time forfeit(s) while the load average reached 4.7 on 2 cores"));
        assert!(!note.contains("not charged"), "{note}");
        assert_eq!(busy.note(0, 0, 0, 2), None);
        assert_eq!(busy.note(3, 0, 0, 8), None);
        assert_eq!(LoadWatch::default().note(3, 0, 0, 2), None);
    }

    #[test]
    fn forgiven_time_gets_a_note_under_any_load() {
        let busy = LoadWatch { highest: Some(4.7) };
        let note = busy.note(0, 730, 2, 2).unwrap();
        assert!(
            note.contains(
                "730 ms of late answers in 2 game(s) not charged: the engines' threads were \
                 waiting for a CPU (load average up to 4.7 on 2 cores)"
            ),
            "{note}"
        );
        assert!(!note.contains("time forfeit"), "{note}");
        let both = busy.note(1, 730, 2, 2).unwrap();
        assert_eq!(both.lines().count(), 2, "{both}");
        let unknown = LoadWatch::default().note(0, 5, 1, 8).unwrap();
        assert!(unknown.ends_with("waiting for a CPU\n"), "{unknown}");
    }

    #[test]
    fn enough_pairs_give_the_figures_and_no_note() {
        let s = summary(
            &names(),
            "default",
            &tally([0, 0, 20, 0, 0]),
            40,
            false,
            None,
        );
        assert!(!s.contains("too few"), "{s}");
        let row = s.lines().find(|l| l.starts_with("a ")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        // Engine, games, W, D, L, score, Elo, ±, LOS, pairs.
        assert_eq!(cells[6], "+0.0");
        assert_ne!(cells[7], "0.0");
        assert_eq!(cells[8], "50.0%");
    }
}
