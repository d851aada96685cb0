//! `konakis match merge`: the shards of a match (`--shard K/N` runs, one JSON each) added up
//! into one report — the same tables, pair counts, Elo, LOS and SPRT as one run over the same
//! pairs, because every pair was played whole in one shard and the JSON carries the exact
//! totals. Shards of different matches (see [`fingerprint`](super::fingerprint)), the same
//! shard twice and interrupted shards are refused; missing shards are listed.

use super::config::sprt_flag;
use super::error::{ConfigError, MatchError, MergeError, SprtError};
use super::fingerprint::Fingerprint;
use super::report;
use super::stats::{Sprt, SprtVerdict};
use super::tally::Tally;
use crate::shard::Shard;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What `konakis match merge` is asked for.
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// The shards' JSON files.
    pub files: Vec<PathBuf>,
    /// `--sprt elo0= elo1= [alpha=] [beta=]`: judge the merged pairs (default: the shards'
    /// own SPRT, if they ran one).
    pub sprt: Option<Vec<String>>,
    /// `--records FILE`: the shards' records files, one after the other, in shard order.
    pub records: Option<PathBuf>,
}

/// The merged result.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The summary, as `konakis match` prints it.
    pub report: String,
    /// The merged totals.
    pub tally: Tally,
    /// The SPRT and its state on the merged pairs, when there is one.
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// The shards given, in order.
    pub shards: Vec<Shard>,
    /// The shards of the match that were not given.
    pub missing: Vec<Shard>,
}

/// One shard's JSON, read.
struct Part {
    path: PathBuf,
    shard: Shard,
    fingerprint: Fingerprint,
    names: Vec<String>,
    rules: String,
    planned: usize,
    match_games: usize,
    tally: Tally,
    sprt: Option<Sprt>,
    records: Option<PathBuf>,
}

fn read(path: &Path) -> Result<Part, MergeError> {
    let text = std::fs::read_to_string(path).map_err(|source| MergeError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |why: &str| MergeError::NotAResult {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    let v: Value = serde_json::from_str(&text).map_err(|e| bad(&format!("{e}")))?;
    let fingerprint = v
        .get("fingerprint")
        .and_then(Fingerprint::from_json)
        .ok_or_else(|| bad("no fingerprint (written by an older konakis?)"))?;
    let shard = match v.get("shard") {
        Some(Value::Null) => Shard::WHOLE,
        Some(s) => {
            let n = |k: &str| s.get(k).and_then(Value::as_u64).map(|x| x as usize);
            match (n("index"), n("count")) {
                (Some(index), Some(count)) if index < count => Shard { index, count },
                _ => return Err(bad("bad shard")),
            }
        }
        None => return Err(bad("no shard")),
    };
    if v.get("interrupted").and_then(Value::as_bool) != Some(false) {
        return Err(MergeError::Interrupted {
            path: path.to_path_buf(),
            shard: shard.to_string(),
        });
    }
    let tally = v
        .get("tally")
        .and_then(Tally::from_json)
        .ok_or_else(|| bad("no totals"))?;
    let names: Vec<String> = v
        .get("engines")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no engines"))?
        .iter()
        .map(|e| e.get("name").and_then(Value::as_str).map(str::to_string))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("an engine without a name"))?;
    if names.len() != tally.engines.len() {
        return Err(bad("the totals do not match the engines"));
    }
    let count = |k: &str| v.get(k).and_then(Value::as_u64).map(|x| x as usize);
    let sprt = match v.get("sprt") {
        Some(s) if !s.is_null() => {
            let f = |k: &str| s.get(k).and_then(Value::as_f64);
            match (f("elo0"), f("elo1"), f("alpha"), f("beta")) {
                (Some(elo0), Some(elo1), Some(alpha), Some(beta)) => Some(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                }),
                _ => return Err(bad("bad sprt")),
            }
        }
        _ => None,
    };
    Ok(Part {
        path: path.to_path_buf(),
        shard,
        fingerprint,
        names,
        rules: v
            .get("rules")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("no rules"))?
            .to_string(),
        planned: count("games_planned").ok_or_else(|| bad("no games_planned"))?,
        match_games: count("match_games").ok_or_else(|| bad("no match_games"))?,
        tally,
        sprt,
        records: v.get("records").and_then(Value::as_str).map(PathBuf::from),
    })
}

/// Merges the shards `opts.files` (see the module docs).
pub fn merge(opts: &MergeOptions) -> Result<Merged, MatchError> {
    if opts.files.is_empty() {
        return Err(MergeError::NoFiles.into());
    }
    let sprt_given = opts
        .sprt
        .as_deref()
        .map(sprt_flag)
        .transpose()
        .map_err(|e| MatchError::Config(ConfigError::Sprt(e)))?;
    let mut parts: Vec<Part> = Vec::new();
    for path in &opts.files {
        let part = read(path)?;
        if let Some(first) = parts.first()
            && first.fingerprint != part.fingerprint
        {
            return Err(MergeError::Mismatch {
                first: first.path.clone(),
                other: part.path.clone(),
                what: first.fingerprint.differences(&part.fingerprint),
            }
            .into());
        }
        if let Some(twin) = parts.iter().find(|p| p.shard == part.shard) {
            return Err(MergeError::Duplicate {
                shard: part.shard.to_string(),
                first: twin.path.clone(),
                again: part.path.clone(),
            }
            .into());
        }
        parts.push(part);
    }
    parts.sort_by_key(|p| p.shard.index);
    let first = &parts[0];
    if sprt_given.is_some() && first.names.len() != 2 {
        return Err(MatchError::Config(ConfigError::Sprt(SprtError::TwoEngines)));
    }
    let count = first.shard.count;
    let missing: Vec<Shard> = (0..count)
        .filter(|&index| parts.iter().all(|p| p.shard.index != index))
        .map(|index| Shard { index, count })
        .collect();
    let mut tally = first.tally.clone();
    for p in &parts[1..] {
        tally.absorb(&p.tally);
    }
    let planned: usize = if missing.is_empty() {
        first.match_games
    } else {
        parts.iter().map(|p| p.planned).sum()
    };
    let sprt = sprt_given.or(first.sprt).map(|s| {
        let (llr, verdict) = s.judge(&tally.pairings[0]);
        (s, llr, verdict)
    });
    let report = report::summary(&first.names, &first.rules, &tally, planned, false, sprt);
    if let Some(out) = &opts.records {
        concatenate_records(&parts, out)?;
    }
    Ok(Merged {
        report,
        tally,
        sprt,
        shards: parts.iter().map(|p| p.shard).collect(),
        missing,
    })
}

/// Writes the shards' records files one after the other into `out` (write-then-rename).
/// Shards that wrote a file per game have nothing to add: their files already carry the game
/// numbers of the whole match.
fn concatenate_records(parts: &[Part], out: &Path) -> Result<(), MatchError> {
    let mut text = String::new();
    for p in parts {
        let Some(path) = &p.records else { continue };
        let as_given = path.to_string_lossy();
        if path.is_dir() || as_given.contains("{game}") || as_given.ends_with('/') {
            continue;
        }
        // The path the shard wrote, or the same name beside its JSON (results copied home).
        let beside = p
            .path
            .parent()
            .map(|d| d.join(path.file_name().unwrap_or_default()));
        let found = [Some(path.clone()), beside]
            .into_iter()
            .flatten()
            .find(|c| c.is_file());
        let Some(found) = found else {
            return Err(MergeError::Output(format!(
                "the records of shard {} ({}) are not found",
                p.shard,
                path.display()
            ))
            .into());
        };
        let t = std::fs::read_to_string(&found).map_err(|e| {
            MergeError::Output(format!("cannot read records {}: {e}", found.display()))
        })?;
        text.push_str(&t);
    }
    super::write_then_rename(out, &text).map_err(|e| MergeError::Output(e.to_string()).into())
}
