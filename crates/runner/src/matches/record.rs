//! Game records in OpenTafl's `.otg` format and the JSON summary.
//!
//! `.otg` (OpenTafl's record format): `[key:value]` tags, a blank line, then numbered turns
//! `1. d1-d2 f5-f8` where a king's move starts with `K` and captures follow as `xf8` or
//! `xe2/d1`. The `result` tag is 1 when the attackers won, -1 when the defenders won and 0
//! for a draw (OpenTafl's sample game, which the defenders won, carries -1). The runner adds
//! tags of its own for the engines, the opening, the Konakis rule options and the reason.
//! Several games in one file are separated by a blank line; OpenTafl opens one game per file,
//! which [`RecordsTarget::PerGame`] writes.

use super::config::{Config, Opening, TimeControl, seconds_text};
use super::error::OutputError;
use super::fingerprint::Fingerprint;
use super::game::Outcome;
use super::stats::{EloEstimate, MIN_PAIRS, Pentanomial, Sprt, SprtVerdict, sprt_bounds};
use super::tally::{Tally, Wdl};
use konakis_core::types::{Move, Side};
use konakis_protocols::opentafl::otg::{Tag, write_record};
use std::fmt::Write;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_date(secs / 86_400);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day counted from 1970-01-01.
fn civil_date(days: u64) -> (u64, u64, u64) {
    let mut year = 1970;
    let mut days = days;
    loop {
        let len = if is_leap(year) { 366 } else { 365 };
        if days < len {
            break;
        }
        days -= len;
        year += 1;
    }
    let months = [
        31,
        if is_leap(year) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut month = 1;
    for len in months {
        if days < len {
            break;
        }
        days -= len;
        month += 1;
    }
    (year, month, days + 1)
}

fn is_leap(y: u64) -> bool {
    (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400)
}

/// Where `--records` puts the games.
pub enum RecordsTarget {
    /// One file, every game appended (`konakis replay` reads them all; OpenTafl shows the
    /// first only).
    File(std::io::BufWriter<std::fs::File>),
    /// One file per game, the form OpenTafl opens: `DIR/game-0001.otg` for a directory
    /// (`--records DIR/`), or the name with `{game}` replaced by the game's number.
    PerGame(PathBuf),
}

impl RecordsTarget {
    /// Opens `path`: a directory (an existing one, or a name ending in `/`, created) or a name
    /// holding `{game}` gives a file per game; any other name one file for all.
    pub fn open(path: &Path) -> Result<RecordsTarget, OutputError> {
        let text = path.to_string_lossy();
        let is_dir =
            text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir();
        if is_dir {
            std::fs::create_dir_all(path).map_err(|source| OutputError::RecordsDirectory {
                path: path.to_path_buf(),
                source,
            })?;
            return Ok(RecordsTarget::PerGame(path.to_path_buf()));
        }
        if text.contains("{game}") {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
                && !dir.is_dir()
            {
                return Err(OutputError::NoRecordsDirectory {
                    path: dir.to_path_buf(),
                });
            }
            return Ok(RecordsTarget::PerGame(path.to_path_buf()));
        }
        let f = std::fs::File::create(path).map_err(|source| OutputError::RecordsFile {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(RecordsTarget::File(std::io::BufWriter::new(f)))
    }

    /// The file game `number` goes to when each game has its own.
    pub fn game_path(pattern: &Path, number: usize) -> PathBuf {
        let text = pattern.to_string_lossy();
        if text.contains("{game}") {
            PathBuf::from(text.replace("{game}", &format!("{number:04}")))
        } else {
            pattern.join(format!("game-{number:04}.otg"))
        }
    }

    /// Writes one game's record.
    pub fn write(&mut self, number: usize, text: &str) -> Result<(), OutputError> {
        match self {
            RecordsTarget::File(w) => w
                .write_all(text.as_bytes())
                .and_then(|_| w.flush())
                .map_err(OutputError::WriteRecords),
            RecordsTarget::PerGame(pattern) => {
                let path = RecordsTarget::game_path(pattern, number);
                std::fs::write(&path, text)
                    .map_err(|source| OutputError::WriteRecord { path, source })
            }
        }
    }
}

/// The `time-control` tag's value as OpenTafl reads it (`<seconds> <overtime> <increment>i`,
/// all whole seconds), when a clock can be said that way, and the `konakis-time-control` tag's,
/// which keeps the exact control (fractions of a second included) either way.
fn time_control_tags(tc: TimeControl) -> (Option<String>, String) {
    let exact = format!(
        "{} 0/0 {}i",
        seconds_text(tc.base_ms),
        seconds_text(tc.inc_ms)
    );
    let whole = tc.base_ms.is_multiple_of(1000) && tc.inc_ms.is_multiple_of(1000);
    (whole.then(|| exact.clone()), exact)
}

/// The `.otg` text of one game, through the one record writer
/// ([`konakis_protocols::opentafl::otg::write_record`]).
pub fn otg(
    config: &Config,
    opening: &Opening,
    o: &Outcome,
    time_control: Option<TimeControl>,
) -> String {
    let rules = &config.rules;
    let start = *opening.game.start_board();
    let names = |side: Side| config.engines[o.job.sides[side]].name.as_str();
    let result = match o.ending.winner() {
        Some(Side::Attackers) => "1",
        Some(Side::Defenders) => "-1",
        None => "0",
    };
    let date = today();
    let tc = time_control.map(time_control_tags);
    let number = o.job.number.to_string();
    let plies = o.plies.to_string();
    let mut tags = vec![
        Tag::Text("date", &date),
        Tag::Text("result", result),
        Tag::Text("compiler", "Konakis match"),
    ];
    if let Some((opentafl, exact)) = &tc {
        if let Some(opentafl) = opentafl {
            tags.push(Tag::Text("time-control", opentafl));
        }
        tags.push(Tag::Text("konakis-time-control", exact));
    }
    tags.extend([
        Tag::Rules,
        Tag::KonakisRules,
        Tag::Text("game", &number),
        Tag::Text("attackers", names(Side::Attackers)),
        Tag::Text("defenders", names(Side::Defenders)),
        Tag::Text("opening", &opening.text),
        Tag::Start,
        Tag::Text("termination", o.ending.category()),
        Tag::Text("reason", &o.reason),
        Tag::Text("plies", &plies),
    ]);
    let all: Vec<Move> = opening.moves.iter().chain(&o.moves).copied().collect();
    write_record(&start, rules, &all, &tags)
}

/// A JSON string literal.
pub fn json_str(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// A JSON number; `null` when not finite.
pub fn json_num(x: f64) -> String {
    if x.is_finite() {
        let r = (x * 1e4).round() / 1e4;
        format!("{r}")
    } else {
        "null".into()
    }
}

fn json_wdl(w: &Wdl) -> String {
    format!(
        "{{\"games\": {}, \"wins\": {}, \"draws\": {}, \"losses\": {}, \"score\": {}}}",
        w.games(),
        w.wins,
        w.draws,
        w.losses,
        w.score().map_or("null".into(), json_num)
    )
}

/// Everything the JSON file holds beyond the config and the tally.
pub struct JsonExtras<'a> {
    /// Games in the schedule.
    pub planned: usize,
    /// Stopped by Ctrl-C.
    pub interrupted: bool,
    /// The SPRT and its last LLR and verdict.
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// Finished games, in any order.
    pub games: &'a [Outcome],
    /// What makes this run part of its match.
    pub fingerprint: &'a Fingerprint,
    /// Games in the whole match (all shards).
    pub match_games: usize,
    /// Where the records went (absolute), if anywhere.
    pub records: Option<&'a Path>,
}

/// The `elo_status`, `elo`, `elo_error` and `los` fields of an engine with these pairs. A
/// `null` figure is explained by the status: `too_few_pairs` (below [`MIN_PAIRS`]) or
/// `unbounded` (an infinite Elo or interval); `ok` otherwise.
fn json_elo(penta: &Pentanomial) -> String {
    let (status, elo) = match penta.elo() {
        Err(_) => ("too_few_pairs", None),
        Ok(x) if !x.elo.is_finite() || !x.error.is_finite() => ("unbounded", Some(x)),
        Ok(x) => ("ok", Some(x)),
    };
    let num = |f: fn(&EloEstimate) -> f64| elo.as_ref().map_or("null".into(), |x| json_num(f(x)));
    format!(
        "\"elo_status\": \"{status}\", \"elo\": {}, \"elo_error\": {}, \"los\": {}",
        num(|x| x.elo),
        num(|x| x.error),
        num(|x| x.los)
    )
}

/// The JSON summary and games.
pub fn json(config: &Config, openings: &[Opening], tally: &Tally, x: &JsonExtras) -> String {
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  \"rules\": {},", json_str(&config.rules.to_string()));
    let _ = writeln!(s, "  \"games_planned\": {},", x.planned);
    let _ = writeln!(s, "  \"games_played\": {},", tally.games);
    let _ = writeln!(s, "  \"interrupted\": {},", x.interrupted);
    let _ = writeln!(s, "  \"seed\": {},", config.seed);
    let _ = writeln!(s, "  \"fingerprint\": {},", x.fingerprint.to_json());
    match config.shard {
        Some(k) => {
            let _ = writeln!(
                s,
                "  \"shard\": {{\"index\": {}, \"count\": {}}},",
                k.index, k.count
            );
        }
        None => s.push_str("  \"shard\": null,\n"),
    }
    let _ = writeln!(s, "  \"match_games\": {},", x.match_games);
    let _ = writeln!(
        s,
        "  \"records\": {},",
        x.records
            .map_or("null".into(), |p| json_str(&p.display().to_string()))
    );
    let _ = writeln!(s, "  \"tally\": {},", tally.to_json());
    let (over, samples) = tally.overhead;
    let per_move = if samples > 0 {
        over.as_secs_f64() * 1e6 / samples as f64
    } else {
        f64::NAN
    };
    let _ = writeln!(s, "  \"overhead_us_per_move\": {},", json_num(per_move));
    let avg = |plies: u64, games: u64| {
        if games > 0 {
            json_num(plies as f64 / games as f64)
        } else {
            "null".into()
        }
    };
    let _ = writeln!(
        s,
        "  \"sides\": {{\"attackers_wins\": {}, \"defenders_wins\": {}, \"draws\": {}, \
         \"avg_plies\": {}}},",
        tally.sides[0],
        tally.sides[1],
        tally.sides[2],
        avg(tally.plies, tally.games)
    );
    let _ = writeln!(s, "  \"min_pairs\": {},", MIN_PAIRS);
    s.push_str("  \"engines\": [\n");
    for (i, (spec, e)) in config.engines.iter().zip(&tally.engines).enumerate() {
        let _ = write!(
            s,
            "    {{\"name\": {}, \"cmd\": {}, \"limits\": {}, \"games\": {}, \"wins\": {}, \
             \"draws\": {}, \"losses\": {}, \"score\": {}, {}, \"pairs\": {}, \
             \"pentanomial\": {:?}, \"as_attackers\": {}, \
             \"as_defenders\": {}, \"avg_plies\": {}, \"time_forfeits\": {}, \"crashes\": {}, \
             \"illegal_moves\": {}, \"protocol_errors\": {}}}",
            json_str(&spec.name),
            json_str(&spec.cmd.display().to_string()),
            json_str(&spec.limits.describe()),
            e.all.games(),
            e.all.wins,
            e.all.draws,
            e.all.losses,
            e.all.score().map_or("null".into(), json_num),
            json_elo(&e.penta),
            e.penta.pairs(),
            e.penta.0,
            json_wdl(&e.by_side[Side::Attackers]),
            json_wdl(&e.by_side[Side::Defenders]),
            avg(e.plies, e.all.games()),
            e.faults[0],
            e.faults[1],
            e.faults[2],
            e.faults[3],
        );
        s.push_str(if i + 1 < config.engines.len() {
            ",\n"
        } else {
            "\n"
        });
    }
    s.push_str("  ],\n");
    match x.sprt {
        None => s.push_str("  \"sprt\": null,\n"),
        Some((sprt, llr, verdict)) => {
            let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
            let v = match verdict {
                SprtVerdict::H0 => "H0",
                SprtVerdict::H1 => "H1",
                SprtVerdict::Continue => "none",
            };
            let _ = writeln!(
                s,
                "  \"sprt\": {{\"elo0\": {}, \"elo1\": {}, \"alpha\": {}, \"beta\": {}, \
                 \"llr\": {}, \"lower\": {}, \"upper\": {}, \"verdict\": \"{v}\"}},",
                json_num(sprt.elo0),
                json_num(sprt.elo1),
                json_num(sprt.alpha),
                json_num(sprt.beta),
                json_num(llr),
                json_num(lower),
                json_num(upper)
            );
        }
    }
    let mut games: Vec<&Outcome> = x.games.iter().collect();
    games.sort_by_key(|o| o.job.number);
    s.push_str("  \"games\": [\n");
    for (i, o) in games.iter().enumerate() {
        let opening = &openings[o.job.opening];
        let name = |side: Side| json_str(&config.engines[o.job.sides[side]].name);
        let list = |moves: &[Move]| {
            let v: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
            format!("[{}]", v.join(", "))
        };
        let (result, winner) = match o.ending.winner() {
            Some(side) => (side.name(), name(side)),
            None => ("draw", "null".into()),
        };
        let _ = write!(
            s,
            "    {{\"game\": {}, \"pair\": {}, \"attackers\": {}, \"defenders\": {}, \
             \"opening\": {}, \"start\": {}, \"opening_moves\": {}, \"moves\": {}, \
             \"times_ms\": {:?}, \"forgiven_ms\": {{\"attackers\": {}, \"defenders\": {}}}, \
             \"scores\": [{}], \"result\": \"{result}\", \
             \"winner\": {winner}, \"termination\": \"{}\", \"ending\": \"{}\", \
             \"reason\": {}, \"plies\": {}, \"duration_ms\": {}}}",
            o.job.number,
            o.job.pair + 1,
            name(Side::Attackers),
            name(Side::Defenders),
            json_str(&opening.text),
            json_str(&opening.game.start_board().to_fen()),
            list(&opening.moves),
            list(&o.moves),
            o.times_ms,
            o.forgiven_ms[Side::Attackers],
            o.forgiven_ms[Side::Defenders],
            o.scores
                .iter()
                .map(|s| s.map_or("null".into(), |v| v.to_string()))
                .collect::<Vec<_>>()
                .join(", "),
            o.ending.category(),
            o.ending.how(),
            json_str(&o.reason),
            o.plies,
            o.duration.as_millis()
        );
        s.push_str(if i + 1 < games.len() { ",\n" } else { "\n" });
    }
    s.push_str("  ]\n}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_control_tags_say_whole_seconds_to_opentafl_and_keep_the_exact_clock() {
        let tc = |base_ms, inc_ms| TimeControl {
            moves: None,
            base_ms,
            inc_ms,
        };
        let whole = "60 0/0 1i".to_string();
        assert_eq!(
            time_control_tags(tc(60_000, 1_000)),
            (Some(whole.clone()), whole)
        );
        // OpenTafl would read 10 0/0 0.1i as 10 s without increment.
        assert_eq!(
            time_control_tags(tc(10_000, 100)),
            (None, "10 0/0 0.1i".to_string())
        );
        assert_eq!(
            time_control_tags(tc(500, 10)),
            (None, "0.5 0/0 0.01i".to_string())
        );
    }

    #[test]
    fn per_game_record_names() {
        let p = RecordsTarget::game_path(Path::new("out/g{game}.otg"), 7);
        assert_eq!(p, PathBuf::from("out/g0007.otg"));
        let p = RecordsTarget::game_path(Path::new("dir"), 12);
        assert_eq!(p, PathBuf::from("dir/game-0012.otg"));
    }
    use konakis_core::board::Board;
    use konakis_core::rules::Rules;
    use konakis_protocols::opentafl::otg::turns;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        // 2000-02-29 is day 11016; 2026-11-29 is day 20786.
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_786), (2026, 11, 29));
    }

    /// The first twelve turns of OpenTafl's sample game, with its capture `h7-f7xf8`, come out
    /// as OpenTafl wrote them.
    #[test]
    fn turns_match_the_sample_game() {
        let rules = Rules::opentafl();
        let text = "d1-d2 f5-f8 e8-c8 e5-f5 b5-b7 e4-h4 h5-h7 f5-f2 i4-i2 f2-g2 f1-g1 g5-h5 \
                    i6-g6 g2-g3 i5-i3 g3-f3 i2-f2 f3-f4 a4-b4 h4-h2 i3-i4 e3-i3 h7-f7 h5-i5";
        let moves: Vec<Move> = text
            .split_whitespace()
            .map(|m| Move::parse(m).unwrap())
            .collect();
        let got = turns(&Board::start(&rules), &rules, &moves);
        assert!(
            got.starts_with("1. d1-d2 f5-f8 \n2. e8-c8 Ke5-f5 \n"),
            "{got}"
        );
        assert!(got.ends_with("12. h7-f7xf8 h5-i5xi4 \n"), "{got}");
    }

    #[test]
    fn json_tells_too_few_pairs_from_an_unbounded_figure() {
        let parse = |p: [u64; 5]| -> serde_json::Value {
            serde_json::from_str(&format!("{{{}}}", json_elo(&Pentanomial(p)))).unwrap()
        };
        let few = parse([0, 0, 2, 0, 0]);
        assert_eq!(few["elo_status"], "too_few_pairs");
        assert!(few["elo"].is_null() && few["elo_error"].is_null() && few["los"].is_null());
        let all_won = parse([0, 0, 0, 0, 20]);
        assert_eq!(all_won["elo_status"], "unbounded");
        assert!(all_won["elo"].is_null() && all_won["los"].as_f64().unwrap() > 0.999);
        let drawn = parse([0, 0, 20, 0, 0]);
        assert_eq!(drawn["elo_status"], "ok");
        assert_eq!(drawn["elo"].as_f64(), Some(0.0));
        assert!(drawn["elo_error"].as_f64().unwrap() > 20.0);
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(json_num(f64::INFINITY), "null");
        assert_eq!(json_num(0.123456), "0.1235");
    }

    #[test]
    fn records_errors_name_the_file_in_the_words_of_before() {
        let e = RecordsTarget::open(Path::new("/nonexistent-konakis/g{game}.otg"))
            .err()
            .unwrap();
        assert!(
            matches!(&e, OutputError::NoRecordsDirectory { path } if path == Path::new("/nonexistent-konakis"))
        );
        assert_eq!(
            e.to_string(),
            "records directory /nonexistent-konakis does not exist"
        );
        let e = RecordsTarget::open(Path::new("/nonexistent-konakis/all.otg"))
            .err()
            .unwrap();
        assert!(matches!(e, OutputError::RecordsFile { .. }));
        assert!(
            e.to_string()
                .starts_with("cannot create records file /nonexistent-konakis/all.otg: ")
        );
    }
}
