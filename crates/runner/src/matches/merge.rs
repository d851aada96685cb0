//! `konakis match merge`: the shards of a match (`--shard K/N` runs, one JSON each) added up
//! into one report — the same tables, pair counts, Elo, LOS and SPRT as one run over the same
//! pairs, because every pair was played whole in one shard and the JSON carries the exact
//! totals. Shards of different matches (see [`fingerprint`](super::fingerprint)), the same
//! shard twice and interrupted shards are refused; missing shards are listed. With
//! `--records FILE` the shards' game records, whether each shard wrote one file or a file per
//! game, are gathered into one file.

use super::config::sprt_flag;
use super::error::{ConfigError, MatchError, MergeError, SprtError};
use super::fingerprint::Fingerprint;
use super::json::Finished;
use super::record::RecordsTarget;
use super::report;
use super::stats::{Sprt, SprtVerdict};
use super::tally::Tally;
use crate::shard::Shard;
use std::path::{Path, PathBuf};

/// What `konakis match merge` is asked for.
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// The shards' JSON files.
    pub files: Vec<PathBuf>,
    /// `--sprt elo0= elo1= [alpha=] [beta=]`: judge the merged pairs (default: the shards'
    /// own SPRT, if they ran one).
    pub sprt: Option<Vec<String>>,
    /// `--records FILE`: every game record of the shards given, in one file (see
    /// [`merge`]).
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
    /// The numbers of the games the shard played.
    games: Vec<usize>,
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
    let v: Finished = serde_json::from_str(&text).map_err(|e| bad(&format!("{e}")))?;
    let fingerprint = v
        .fingerprint
        .ok_or_else(|| bad("no fingerprint (written by an older konakis?)"))?;
    let shard = match v.shard {
        Some(None) => Shard::WHOLE,
        Some(Some(s)) if s.index < s.count => s,
        Some(Some(_)) => return Err(bad("bad shard")),
        None => return Err(bad("no shard")),
    };
    if v.interrupted != Some(false) {
        return Err(MergeError::Interrupted {
            path: path.to_path_buf(),
            shard: shard.to_string(),
        });
    }
    let tally = v.tally.ok_or_else(|| bad("no totals"))?;
    let names: Vec<String> = v
        .engines
        .ok_or_else(|| bad("no engines"))?
        .into_iter()
        .map(|e| e.name)
        .collect::<Option<_>>()
        .ok_or_else(|| bad("an engine without a name"))?;
    if names.len() != tally.engines.len() {
        return Err(bad("the totals do not match the engines"));
    }
    let sprt = match v.sprt {
        Some(s) => match (s.elo0, s.elo1, s.alpha, s.beta) {
            (Some(elo0), Some(elo1), Some(alpha), Some(beta)) => Some(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            }),
            _ => return Err(bad("bad sprt")),
        },
        None => None,
    };
    Ok(Part {
        path: path.to_path_buf(),
        shard,
        fingerprint,
        names,
        rules: v.rules.ok_or_else(|| bad("no rules"))?,
        planned: v.games_planned.ok_or_else(|| bad("no games_planned"))?,
        match_games: v.match_games.ok_or_else(|| bad("no match_games"))?,
        tally,
        sprt,
        records: v.records,
        games: v
            .games
            .ok_or_else(|| bad("no games"))?
            .into_iter()
            .map(|g| g.game)
            .collect::<Option<_>>()
            .ok_or_else(|| bad("a game without a number"))?,
    })
}

/// Merges the shards `opts.files` (see the module docs). With `opts.records`, the games of
/// the shards given are written into that one file, each record followed by a blank line: a
/// shard that wrote one records file adds it whole, one that wrote a file per game
/// (`--records DIR/` or `NAME{game}.otg`) adds its games' files. When every shard wrote a file
/// per game, the games are in the order of their numbers, as one unsharded run at concurrency 1
/// writes them; otherwise in shard order. A records file that is not found where the shard
/// wrote it is looked for beside the shard's JSON (results copied home, folder and all). No
/// file is written when the shards kept no records or played no games.
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
        // Written aside and renamed: the file is whole or absent.
        let text = gather_records(&parts)?;
        let part = super::part_path(out);
        std::fs::write(&part, &text)
            .and_then(|_| std::fs::rename(&part, out))
            .map_err(|source| {
                let _ = std::fs::remove_file(&part);
                MergeError::WriteRecords {
                    path: out.clone(),
                    source,
                }
            })?;
    }
    Ok(Merged {
        report,
        tally,
        sprt,
        shards: parts.iter().map(|p| p.shard).collect(),
        missing,
    })
}

/// Whether `--records path` gave a file per game.
fn per_game(path: &Path) -> bool {
    let text = path.to_string_lossy();
    path.is_dir()
        || text.contains("{game}")
        || text.ends_with('/')
        || text.ends_with(std::path::MAIN_SEPARATOR)
}

/// The file a shard wrote at `written`, or the file of the same name beside its JSON `json`
/// (for a file per game in a folder, the folder of that name beside the JSON).
fn locate(written: &Path, json: &Path, folder: Option<&Path>) -> Option<PathBuf> {
    let name = written.file_name()?;
    let dir = json.parent()?;
    let beside = match folder.and_then(Path::file_name) {
        Some(folder) => dir.join(folder).join(name),
        None => dir.join(name),
    };
    [written.to_path_buf(), beside]
        .into_iter()
        .find(|c| c.is_file())
}

fn read_records(path: &Path) -> Result<String, MergeError> {
    std::fs::read_to_string(path).map_err(|source| MergeError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The records of the shards `parts` as one text (see [`merge`]).
fn gather_records(parts: &[Part]) -> Result<String, MergeError> {
    // (game number, text): the number orders the games when every shard wrote one file each.
    let mut chunks: Vec<(usize, String)> = Vec::new();
    let mut all_per_game = true;
    if parts.iter().all(|p| p.records.is_none()) {
        return Err(MergeError::NoRecords);
    }
    for p in parts {
        let Some(path) = &p.records else { continue };
        let shard = p.shard.to_string();
        if per_game(path) {
            let folder = (!path.to_string_lossy().contains("{game}")).then_some(path.as_path());
            for &game in &p.games {
                let written = RecordsTarget::game_path(path, game);
                let found =
                    locate(&written, &p.path, folder).ok_or_else(|| MergeError::RecordMissing {
                        shard: shard.clone(),
                        game: Some(game),
                        path: written.clone(),
                    })?;
                chunks.push((game, read_records(&found)?));
            }
        } else {
            all_per_game = false;
            let found = locate(path, &p.path, None).ok_or_else(|| MergeError::RecordMissing {
                shard: shard.clone(),
                game: None,
                path: path.clone(),
            })?;
            chunks.push((0, read_records(&found)?));
        }
    }
    if all_per_game {
        chunks.sort_by_key(|c| c.0);
    }
    let mut text = String::new();
    for (_, chunk) in &chunks {
        let chunk = chunk.trim_end_matches('\n');
        if !chunk.is_empty() {
            text.push_str(chunk);
            text.push_str("\n\n");
        }
    }
    if text.is_empty() {
        return Err(MergeError::NoGames);
    }
    Ok(text)
}
