//! The match fingerprint: what makes two runs parts of the same match, so that `konakis match
//! merge` can refuse to add up shards of different matches.
//!
//! Each part is a 64-bit FNV-1a hash of a canonical text, written in the JSON as 16 hex digits:
//! the engines (names, programs by file name, arguments, protocols), their options, the
//! openings (every line, the order, the first line, the seed of a random order), the time
//! controls and other limits, the rules, the games (per pairing, gauntlet or round robin,
//! adjudication) and the number of shards. The program's directory is left out, so shards
//! may run from different places; what runs must be the same program.

use super::config::{MatchConfig, Opening, OpeningOrder};
use konakis_core::geometry::Geometry;
use serde::Deserialize;
use serde::de::{Deserializer, Error as _, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt::Write;

/// The parts of a fingerprint, in the order the JSON lists them, with the words a refusal
/// uses.
pub const PARTS: [(&str, &str); 7] = [
    ("engines", "engines"),
    ("options", "engine options"),
    ("openings", "openings"),
    ("time_control", "time controls and limits"),
    ("rules", "rules"),
    ("games", "games per pairing or adjudication"),
    ("shards", "shard counts"),
];

/// A match's fingerprint: one hash per part of [`PARTS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint(pub [u64; 7]);

fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The JSON object: `{"engines": "…", …}`, each hash as 16 hex digits, in the order of [`PARTS`].
impl Serialize for Fingerprint {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(PARTS.len()))?;
        for ((key, _), h) in PARTS.iter().zip(self.0) {
            map.serialize_entry(key, &format!("{h:016x}"))?;
        }
        map.end()
    }
}

/// Reads the JSON object [`Serialize`] writes: every part once, as 16 hex digits, in any order.
impl<'de> Deserialize<'de> for Fingerprint {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fingerprint, D::Error> {
        struct Parts;
        impl<'de> Visitor<'de> for Parts {
            type Value = Fingerprint;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a match fingerprint")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fingerprint, A::Error> {
                let mut found = [None; 7];
                while let Some((key, hex)) = map.next_entry::<String, String>()? {
                    let Some(i) = PARTS.iter().position(|(k, _)| *k == key) else {
                        return Err(A::Error::custom(format!(
                            "unknown fingerprint part '{key}'"
                        )));
                    };
                    let h = u64::from_str_radix(&hex, 16).map_err(|_| {
                        A::Error::custom(format!("fingerprint part '{key}' is not hex: '{hex}'"))
                    })?;
                    found[i] = Some(h);
                }
                let mut h = [0u64; 7];
                for (slot, (f, (key, _))) in h.iter_mut().zip(found.iter().zip(PARTS)) {
                    *slot = f.ok_or_else(|| A::Error::missing_field(key))?;
                }
                Ok(Fingerprint(h))
            }
        }
        deserializer.deserialize_map(Parts)
    }
}

impl Fingerprint {
    /// The fingerprint of the match `config` plays from `openings`.
    pub fn of<G: Geometry>(config: &MatchConfig, openings: &[Opening<G>]) -> Fingerprint {
        let mut engines = String::new();
        let mut options = String::new();
        let mut limits = String::new();
        for e in &config.engines {
            let program = e
                .cmd
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let _ = writeln!(
                engines,
                "{}\x1f{program}\x1f{:?}\x1f{:?}",
                e.name, e.args, e.proto
            );
            let _ = writeln!(options, "{}\x1f{:?}", e.name, e.options);
            let _ = write!(
                limits,
                "{}\x1f{}\x1f{}",
                e.name,
                e.limits.describe(),
                e.limits.margin_ms
            );
            // An OTEP engine's quiet time after its move decides whether OpenTafl's AI
            // survives a game; it is written only when set, so that the fingerprints of
            // engines without it stay those of earlier versions.
            if e.settle_ms != 0 {
                let _ = write!(limits, "\x1fsettle {}", e.settle_ms);
            }
            limits.push('\n');
        }
        let mut lines = String::new();
        match &config.openings {
            None => lines.push_str("startpos only\n"),
            Some((_, order, start)) => {
                let _ = match order {
                    OpeningOrder::Sequential => writeln!(lines, "sequential from {start}"),
                    // "v2": the order of rand's shuffle from ChaCha8 (before, a Fisher–Yates
                    // shuffle from SplitMix64 gave another order for the same seed), so that
                    // shards of the two runners are not merged as one match.
                    OpeningOrder::Random => writeln!(lines, "random v2, seed {}", config.seed),
                };
            }
        }
        for o in openings {
            let _ = writeln!(lines, "{}", o.text);
        }
        let games = format!(
            "{} per pairing, gauntlet {}, resign {:?}, draw {:?}, maxmoves {:?}",
            config.games_per_pairing, config.gauntlet, config.resign, config.draw, config.maxmoves
        );
        let shards = config.shard.map_or(1, |s| s.count).to_string();
        Fingerprint(
            [
                engines,
                options,
                lines,
                limits,
                config.rules_text(),
                games,
                shards,
            ]
            .map(|t| fnv1a(&t)),
        )
    }

    /// The words for the parts in which `self` and `other` differ, e.g. "engine options, rules".
    pub fn differences(&self, other: &Fingerprint) -> String {
        let d: Vec<&str> = PARTS
            .iter()
            .zip(self.0.iter().zip(other.0))
            .filter(|(_, (a, b))| *a != b)
            .map(|((_, words), _)| *words)
            .collect();
        d.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::config::test_options;

    fn config_of(engines: &[&[&str]]) -> MatchConfig {
        MatchConfig::from_args(&test_options(engines)).unwrap()
    }

    #[test]
    fn an_otep_engines_settle_time_is_part_of_its_limits() {
        let a: &[&str] = &["name=a", "cmd=/a", "st=0.1"];
        let otep = |settle: &[&str]| -> Fingerprint {
            let mut b = vec!["name=b", "cmd=/b", "st=0.1", "proto=otep"];
            b.extend(settle);
            Fingerprint::of::<konakis_core::geometry::Nine>(&config_of(&[a, &b]), &[])
        };
        let (default, unset, off, longer) = (
            otep(&["settle=100"]),
            otep(&[]),
            otep(&["settle=0"]),
            otep(&["settle=250"]),
        );
        // No settle= is the default of 100 ms: the same match.
        assert_eq!(default, unset);
        assert_eq!(default.differences(&off), "time controls and limits");
        assert_eq!(default.differences(&longer), "time controls and limits");
        // Engines without a settle time: their limits read as before it was part of them.
        let plain = config_of(&[a, &["name=b", "cmd=/b", "st=0.1"]]);
        let mut limits = String::new();
        for e in &plain.engines {
            let _ = writeln!(limits, "{}\x1fst=0.1\x1f{}", e.name, e.limits.margin_ms);
        }
        assert_eq!(
            Fingerprint::of::<konakis_core::geometry::Nine>(&plain, &[]).0[3],
            fnv1a(&limits)
        );
    }

    #[test]
    fn a_fingerprint_reads_back_from_its_json() {
        let fp = Fingerprint([1, 2, 3, 0xdead_beef, 5, u64::MAX, 0]);
        let text = serde_json::to_string(&fp).unwrap();
        assert!(
            text.starts_with("{\"engines\":\"0000000000000001\","),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Fingerprint>(&text).unwrap(), fp);
    }

    #[test]
    fn a_fingerprint_missing_a_part_or_not_in_hex_is_refused() {
        let text = serde_json::to_string(&Fingerprint([7; 7])).unwrap();
        let without = text.replace("\"rules\":\"0000000000000007\",", "");
        let err = serde_json::from_str::<Fingerprint>(&without).unwrap_err();
        assert!(err.to_string().contains("missing field `rules`"), "{err}");
        let bad = text.replace("\"rules\":\"0000000000000007\"", "\"rules\":\"xyz\"");
        let err = serde_json::from_str::<Fingerprint>(&bad).unwrap_err();
        assert!(err.to_string().contains("'rules' is not hex"), "{err}");
    }
}
