//! The running totals of a match: results per engine, per side and per pair.

use super::game::{Ending, Fault, Outcome};
use super::stats::Pentanomial;
use konakis_core::types::{BySide, Side};
use std::collections::HashMap;
use std::time::Duration;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game (a draw is half a point); `None` without games.
    pub fn score(&self) -> Option<f64> {
        let g = self.games();
        (g > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / g as f64)
    }

    fn add(&mut self, half_points: u32) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

/// One engine's totals.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// All its games.
    pub all: Wdl,
    /// Its games as attackers and as defenders.
    pub by_side: BySide<Wdl>,
    /// Plies of all its games together.
    pub plies: u64,
    /// Games it lost by each fault: time, crash, illegal move, protocol error.
    pub faults: [u64; 4],
    /// Its completed pairs.
    pub penta: Pentanomial,
}

impl EngineTally {
    /// Games lost by `fault`.
    pub fn fault(&self, fault: Fault) -> u64 {
        self.faults[fault_index(fault)]
    }
}

fn fault_index(f: Fault) -> usize {
    match f {
        Fault::Time => 0,
        Fault::Crash => 1,
        Fault::Illegal => 2,
        Fault::Protocol => 3,
    }
}

/// The totals of the match so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Per engine, in the order given.
    pub engines: Vec<EngineTally>,
    /// Completed pairs per pairing, from the pairing's first engine's point of view.
    pub pairings: Vec<Pentanomial>,
    /// Games won by the attackers, won by the defenders, drawn.
    pub sides: [u64; 3],
    /// Plies of all games.
    pub plies: u64,
    /// Games finished.
    pub games: u64,
    /// Runner time between an answer and the next `go`, and how many such gaps.
    pub overhead: (Duration, u64),
    /// The first finished game of each incomplete pair: its pairing's first engine's points
    /// in half points.
    pending: HashMap<usize, u32>,
}

impl Tally {
    /// Empty totals for `engines` engines and `pairings` pairings.
    pub fn new(engines: usize, pairings: usize) -> Tally {
        Tally {
            engines: vec![EngineTally::default(); engines],
            pairings: vec![Pentanomial::default(); pairings],
            ..Tally::default()
        }
    }

    /// Counts a finished game. `pairing` gives the pairing's two engines, first one first.
    pub fn add(&mut self, o: &Outcome, pairing: (usize, usize)) {
        let winner = o.ending.winner();
        self.games += 1;
        self.plies += o.plies as u64;
        self.sides[match winner {
            Some(Side::Attackers) => 0,
            Some(Side::Defenders) => 1,
            None => 2,
        }] += 1;
        self.overhead.0 += o.overhead;
        self.overhead.1 += o.overhead_samples as u64;
        for side in Side::BOTH {
            let e = &mut self.engines[o.job.sides[side]];
            let half = half_points(winner, side);
            e.all.add(half);
            e.by_side[side].add(half);
            e.plies += o.plies as u64;
        }
        if let Ending::Forfeit { side, fault } = o.ending {
            self.engines[o.job.sides[side]].faults[fault_index(fault)] += 1;
        }
        // The pair: the first engine's half points in this game.
        let first_side = if o.job.sides[Side::Attackers] == pairing.0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let mine = half_points(winner, first_side);
        if let Some(other) = self.pending.remove(&o.job.pair) {
            let total = (mine + other) as usize;
            self.pairings[o.job.pairing].add(total);
            self.engines[pairing.0].penta.add(total);
            self.engines[pairing.1].penta.add(4 - total);
        } else {
            self.pending.insert(o.job.pair, mine);
        }
    }

    /// Games of pairs whose partner game is not finished.
    pub fn unpaired(&self) -> usize {
        self.pending.len()
    }
}

/// A side's half points for a game won by `winner` (`None` = draw).
fn half_points(winner: Option<Side>, side: Side) -> u32 {
    match winner {
        Some(w) if w == side => 2,
        Some(_) => 0,
        None => 1,
    }
}
