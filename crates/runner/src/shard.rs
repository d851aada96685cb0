//! Shards: one of N disjoint parts of a piece of work (`--shard K/N`), so that a match or a
//! self-play run can be spread over the machines of a cluster and merged afterwards.
//!
//! Work items (a match's game pairs, self-play's games) are numbered from 0 in the order the
//! unsharded run would take them, and item `i` belongs to shard `i mod N`. The N shards
//! together are the whole run, no item is in two of them, and every shard's items are spread
//! over the whole run (so the first shards to finish are a fair sample of it).

use std::fmt;

/// Shard `index` of `count` (`index` counts from 0, as Slurm's array task ids and
/// Kubernetes' completion indexes do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// This shard, from 0 to `count - 1`.
    pub index: usize,
    /// How many shards the work is split into (at least 1).
    pub count: usize,
}

impl Shard {
    /// The whole work as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `K/N` (0 ≤ K < N).
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError {
            text: text.to_string(),
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether work item `item` (numbered from 0 in the unsharded order) is in this shard.
    pub fn takes(&self, item: usize) -> bool {
        item % self.count == self.index
    }
}

/// A text that is not `K/N` with 0 ≤ K < N ([`Shard::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--shard: expected K/N with 0 <= K < N (e.g. 0/4), not '{text}'")]
pub struct ShardError {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_k_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("0/4"), Ok(Shard { index: 0, count: 4 }));
        assert_eq!(Shard::parse("3/4").unwrap().to_string(), "3/4");
        for bad in ["4/4", "1/0", "x/2", "2", "-1/3", "", "1/2/3"] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(
                e.to_string().contains(&format!("not '{bad}'")),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            Shard::parse("4/4").unwrap_err().to_string(),
            "--shard: expected K/N with 0 <= K < N (e.g. 0/4), not '4/4'"
        );
    }

    #[test]
    fn every_item_is_in_exactly_one_shard() {
        for count in 1..=9 {
            for item in 0..100 {
                let owners = (0..count)
                    .filter(|&index| Shard { index, count }.takes(item))
                    .count();
                assert_eq!(owners, 1, "item {item} of {count} shards");
            }
        }
    }
}
