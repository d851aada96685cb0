//! The running totals of a match: results per engine, per side and per pair.

use super::game::GameOutcome;
use super::players::Fault;
use super::referee::Ending;
use super::stats::Pentanomial;
use konakis_core::geometry::Geometry;
use konakis_core::types::{BySide, Side};
use serde::{Deserialize, Serialize, Serializer};
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
#[derive(Clone, Debug, Default, PartialEq)]
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

/// The totals of the match so far. Serialized as the match JSON's `tally` object, which
/// deserializes back into the same totals.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "TallyJson")]
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
    pub fn add<G: Geometry>(&mut self, o: &GameOutcome<G>, pairing: (usize, usize)) {
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

/// The exact totals as the match JSON's `tally` object: everything `konakis match merge` needs
/// to rebuild them.
#[derive(Serialize, Deserialize)]
struct TallyJson {
    games: u64,
    plies: u64,
    /// Games won by the attackers, won by the defenders, drawn.
    sides: [u64; 3],
    overhead_ns: u64,
    overhead_samples: u64,
    engines: Vec<EngineTallyJson>,
    /// Each pairing's pentanomial.
    pairings: Vec<[u64; 5]>,
    /// `[pair, half points]` of each game whose partner is not finished, by pair.
    unpaired: Vec<(usize, u32)>,
}

/// One engine's totals in the `tally` object; a [`Wdl`] is `[wins, draws, losses]`.
#[derive(Serialize, Deserialize)]
struct EngineTallyJson {
    all: [u64; 3],
    attackers: [u64; 3],
    defenders: [u64; 3],
    plies: u64,
    /// Time, crash, illegal move, protocol error.
    faults: [u64; 4],
    pentanomial: [u64; 5],
}

impl Serialize for Tally {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wdl = |w: &Wdl| [w.wins, w.draws, w.losses];
        let mut unpaired: Vec<(usize, u32)> = self.pending.iter().map(|(&k, &v)| (k, v)).collect();
        unpaired.sort_unstable();
        TallyJson {
            games: self.games,
            plies: self.plies,
            sides: self.sides,
            // Enough for 584 years of overhead.
            overhead_ns: u64::try_from(self.overhead.0.as_nanos()).unwrap_or(u64::MAX),
            overhead_samples: self.overhead.1,
            engines: self
                .engines
                .iter()
                .map(|e| EngineTallyJson {
                    all: wdl(&e.all),
                    attackers: wdl(&e.by_side[Side::Attackers]),
                    defenders: wdl(&e.by_side[Side::Defenders]),
                    plies: e.plies,
                    faults: e.faults,
                    pentanomial: e.penta.0,
                })
                .collect(),
            pairings: self.pairings.iter().map(|p| p.0).collect(),
            unpaired,
        }
        .serialize(serializer)
    }
}

impl From<TallyJson> for Tally {
    fn from(t: TallyJson) -> Tally {
        let wdl = |[wins, draws, losses]: [u64; 3]| Wdl {
            wins,
            draws,
            losses,
        };
        Tally {
            engines: t
                .engines
                .into_iter()
                .map(|e| EngineTally {
                    all: wdl(e.all),
                    by_side: BySide::new(wdl(e.attackers), wdl(e.defenders)),
                    plies: e.plies,
                    faults: e.faults,
                    penta: Pentanomial(e.pentanomial),
                })
                .collect(),
            pairings: t.pairings.into_iter().map(Pentanomial).collect(),
            sides: t.sides,
            plies: t.plies,
            games: t.games,
            overhead: (Duration::from_nanos(t.overhead_ns), t.overhead_samples),
            pending: t.unpaired.into_iter().collect(),
        }
    }
}

impl Tally {
    /// Reads the match JSON's `tally` object (as [`Serialize`] writes it); `None` when
    /// something is missing or of the wrong type.
    pub fn from_json(v: &serde_json::Value) -> Option<Tally> {
        Tally::deserialize(v).ok()
    }

    /// Adds the totals of another part of the same match (another shard: its pairs are not
    /// in this one). Both must count the same engines and pairings.
    pub fn absorb(&mut self, other: &Tally) {
        let add = |a: &mut Wdl, b: &Wdl| {
            a.wins += b.wins;
            a.draws += b.draws;
            a.losses += b.losses;
        };
        for (a, b) in self.engines.iter_mut().zip(&other.engines) {
            add(&mut a.all, &b.all);
            for side in Side::BOTH {
                add(&mut a.by_side[side], &b.by_side[side]);
            }
            a.plies += b.plies;
            for (x, y) in a.faults.iter_mut().zip(b.faults) {
                *x += y;
            }
            a.penta = a.penta.merged(b.penta);
        }
        for (a, b) in self.pairings.iter_mut().zip(&other.pairings) {
            *a = a.merged(*b);
        }
        for (x, y) in self.sides.iter_mut().zip(other.sides) {
            *x += y;
        }
        self.plies += other.plies;
        self.games += other.games;
        self.overhead.0 += other.overhead.0;
        self.overhead.1 += other.overhead.1;
        self.pending
            .extend(other.pending.iter().map(|(&k, &v)| (k, v)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::json;

    fn sample() -> Tally {
        let wdl = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        Tally {
            engines: vec![
                EngineTally {
                    all: wdl(3, 1, 2),
                    by_side: BySide::new(wdl(2, 0, 1), wdl(1, 1, 1)),
                    plies: 321,
                    faults: [1, 0, 2, 0],
                    penta: Pentanomial([0, 1, 1, 0, 1]),
                },
                EngineTally::default(),
            ],
            pairings: vec![Pentanomial([0, 1, 1, 0, 1]), Pentanomial::default()],
            sides: [4, 1, 1],
            plies: 642,
            games: 6,
            overhead: (Duration::from_nanos(123_456_789), 77),
            pending: HashMap::from([(9, 2), (4, 0), (7, 1)]),
        }
    }

    #[test]
    fn the_totals_read_back_from_their_json() {
        let tally = sample();
        let text = json::to_line(&tally);
        assert_eq!(serde_json::from_str::<Tally>(&text).unwrap(), tally);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(Tally::from_json(&v), Some(tally));
    }

    #[test]
    fn the_totals_json_is_one_line_with_the_unpaired_games_in_order() {
        assert_eq!(
            json::to_line(&sample()),
            "{\"games\": 6, \"plies\": 642, \"sides\": [4, 1, 1], \"overhead_ns\": 123456789, \
             \"overhead_samples\": 77, \"engines\": [{\"all\": [3, 1, 2], \"attackers\": [2, 0, 1], \
             \"defenders\": [1, 1, 1], \"plies\": 321, \"faults\": [1, 0, 2, 0], \
             \"pentanomial\": [0, 1, 1, 0, 1]}, {\"all\": [0, 0, 0], \"attackers\": [0, 0, 0], \
             \"defenders\": [0, 0, 0], \"plies\": 0, \"faults\": [0, 0, 0, 0], \
             \"pentanomial\": [0, 0, 0, 0, 0]}], \"pairings\": [[0, 1, 1, 0, 1], [0, 0, 0, 0, 0]], \
             \"unpaired\": [[4, 0], [7, 1], [9, 2]]}"
        );
    }
}
