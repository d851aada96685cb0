//! Game records in OpenTafl's `.otg` format.
//!
//! `.otg` (OpenTafl's record format): `[key:value]` tags, a blank line, then numbered turns
//! `1. d1-d2 f5-f8` where a king's move starts with `K` and captures follow as `xf8` or
//! `xe2/d1`. The `result` tag is 1 when the attackers won, -1 when the defenders won and 0
//! for a draw (OpenTafl's sample game, which the defenders won, carries -1). The runner adds
//! tags of its own for the engines, the opening, the Konakis rule options and the reason.
//! Several games in one file are separated by a blank line; OpenTafl opens one game per file,
//! which [`RecordsTarget::PerGame`] writes.

use super::config::{MatchConfig, Opening, TimeControl, seconds_text};
use super::error::OutputError;
use super::game::GameOutcome;
use konakis_core::geometry::Geometry;
use konakis_core::types::{MoveOf, Side};
use konakis_protocols::opentafl::otg::{Tag, write_record_of};
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
/// ([`konakis_protocols::opentafl::otg::write_record_of`]).
pub fn otg<G: Geometry>(
    config: &MatchConfig,
    opening: &Opening<G>,
    o: &GameOutcome<G>,
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
    let all: Vec<MoveOf<G>> = opening.moves.iter().chain(&o.moves).copied().collect();
    write_record_of(&start, rules, config.variant, &all, &tags)
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
    use konakis_core::types::Move;
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
