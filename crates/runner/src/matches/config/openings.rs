//! Openings: the lines of an openings file, and the `--openings` flag (file, order, first line).

use super::values::number;
use crate::matches::error::{OpeningError, OpeningsError};
use konakis_core::board::{BoardOf, GameOf};
use konakis_core::geometry::{Geometry, Nine};
use konakis_core::rules::Rules;
use konakis_core::types::MoveOf;
use std::path::{Path, PathBuf};

/// The order in which openings are taken.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OpeningOrder {
    /// Line after line, from `start`.
    Sequential,
    /// A shuffle of the whole file (reshuffled each time it is used up), from the seed.
    Random,
}

/// A start position for a pair of games, on a board of size `G` (Tablut's by default).
#[derive(Clone, Debug)]
pub struct Opening<G: Geometry = Nine> {
    /// The line as written in the file (or `startpos`).
    pub text: String,
    /// The position string it starts from; `None` = the game's start position.
    pub fen: Option<String>,
    /// The moves played from there.
    pub moves: Vec<MoveOf<G>>,
    /// The game after those moves, under the match rules.
    pub game: GameOf<G>,
}

impl<G: Geometry> Opening<G> {
    /// The game's start position `start` with no moves.
    pub fn startpos(rules: Rules, start: BoardOf<G>) -> Opening<G> {
        Opening {
            text: "startpos".into(),
            fen: None,
            moves: Vec::new(),
            game: GameOf::new(rules, start),
        }
    }

    /// Parses one openings-file line: `startpos [moves …]`, `[fen] <placement> <side> [plies]
    /// [moves …]`, optionally after `position`; `startpos` is the game's `start`. The moves
    /// are checked with `rules`, and the game must still be going on after them.
    pub fn parse(line: &str, rules: Rules, start: BoardOf<G>) -> Result<Opening<G>, OpeningError> {
        let text = line.trim();
        let mut tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.first() == Some(&"position") {
            tokens.remove(0);
        }
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&tokens[..i], &tokens[i + 1..]),
            None => (&tokens[..], &[][..]),
        };
        let fen = match head {
            [] => return Err(OpeningError::Empty),
            ["startpos"] => None,
            ["fen", rest @ ..] | rest => Some(rest.join(" ")),
        };
        let from = fen.clone().unwrap_or_else(|| start.to_fen());
        let game = GameOf::from_fen_and_moves(rules, &from, moves.iter().copied())
            .map_err(|e| OpeningError::Position(e.to_string()))?;
        if game.status().is_over() {
            return Err(OpeningError::Over(game.status()));
        }
        Ok(Opening {
            text: text.to_string(),
            fen: fen.map(|_| game.start_board().to_fen()),
            moves: game.moves().to_vec(),
            game,
        })
    }

    /// The protocol's `position …` command for this opening followed by `extra` moves.
    pub fn position_command(&self, extra: &[MoveOf<G>]) -> String {
        let mut cmd = match &self.fen {
            None => String::from("position startpos"),
            Some(fen) => format!("position fen {fen}"),
        };
        if !self.moves.is_empty() || !extra.is_empty() {
            cmd.push_str(" moves");
            for m in self.moves.iter().chain(extra) {
                cmd.push(' ');
                cmd.push_str(&m.to_string());
            }
        }
        cmd
    }
}

/// Reads an openings file: one opening per line; blank lines and lines starting with `#` are
/// skipped; `startpos` is the game's `start`. Errors name the line.
pub fn load_openings<G: Geometry>(
    path: &Path,
    rules: Rules,
    start: BoardOf<G>,
) -> Result<Vec<Opening<G>>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let o = Opening::parse(t, rules, start).map_err(|reason| OpeningsError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            text: t.to_string(),
            reason,
        })?;
        openings.push(o);
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(openings)
}

/// Where the openings come from: the file, the order and the first line (from 0).
pub type OpeningsSource = (PathBuf, OpeningOrder, usize);

/// Parses the `--openings` group. A `seed=` in it replaces `seed` (and clears `seed_chosen`).
pub(super) fn openings_flag(
    items: &[String],
    seed: &mut u64,
    seed_chosen: &mut bool,
) -> Result<OpeningsSource, String> {
    let mut file = None;
    let mut order = OpeningOrder::Sequential;
    let mut start = 0usize;
    for item in items {
        match item.split_once('=') {
            Some(("file", f)) => file = Some(PathBuf::from(f)),
            Some(("order", "random")) => order = OpeningOrder::Random,
            Some(("order", "sequential")) => order = OpeningOrder::Sequential,
            Some(("order", o)) => {
                return Err(format!(
                    "--openings: bad order '{o}' (random or sequential)"
                ));
            }
            Some(("seed", s)) => {
                *seed = number("--openings", "seed", s)?;
                *seed_chosen = false;
            }
            Some(("start", s)) => {
                let s: usize = number("--openings", "start", s)?;
                if s == 0 {
                    return Err("--openings: start= counts from 1".into());
                }
                start = s - 1;
            }
            Some((k, _)) if !Path::new(item).exists() => {
                return Err(format!(
                    "--openings: unknown setting '{k}' (known: file, order, seed, start)"
                ));
            }
            _ if file.is_none() => file = Some(PathBuf::from(item)),
            _ => return Err(format!("--openings: a second file '{item}'")),
        }
    }
    let file = file.ok_or("--openings: no file given")?;
    Ok((file, order, start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_lines() {
        let r = Rules::default();
        let start = konakis_core::Board::start(&r);
        let o = Opening::parse("startpos moves d1d3 d5d8", r, start).unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.position_command(&[]), "position startpos moves d1d3 d5d8");
        let o = Opening::parse("position startpos", r, start).unwrap();
        assert_eq!(o.position_command(&[]), "position startpos");
        let fen = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0";
        let o = Opening::parse(fen, r, start).unwrap();
        assert_eq!(o.position_command(&[]), format!("position fen {fen}"));
        let o = Opening::parse(&format!("fen {fen} moves e2d2"), r, start).unwrap();
        assert_eq!(o.moves.len(), 1);
        assert!(Opening::parse("startpos moves d1d9", r, start).is_err());
        assert!(Opening::parse("rubbish b", r, start).is_err());
        assert!(Opening::parse("", r, start).is_err());
        // A won position is no opening.
        assert!(
            Opening::parse(
                "3bbb3/4b4/4w4/b3w3b/bbww1wwbb/b3w3b/4w4/4b4/K2bbb3 b",
                r,
                start
            )
            .is_err()
        );
    }

    #[test]
    fn a_copenhagen_opening_is_read_on_its_own_board() {
        use konakis_core::geometry::Eleven;
        use konakis_core::rules::Variant;
        let v = Variant::find("copenhagen-11").unwrap();
        let start = BoardOf::<Eleven>::from_fen(&v.start_fen()).unwrap();
        let o = Opening::parse("startpos moves f2f3 f4g4", v.rules(), start).unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.position_command(&[]), "position startpos moves f2f3 f4g4");
        assert_eq!(*o.game.start_board(), start);
        // Squares of 11x11 only, and Tablut's start, are refused on it.
        assert!(Opening::parse("startpos moves k4k3", v.rules(), start).is_ok());
        assert!(Opening::parse("startpos moves l4l3", v.rules(), start).is_err());
        assert!(
            Opening::parse(
                "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0",
                v.rules(),
                start
            )
            .is_err()
        );
    }

    #[test]
    fn openings_file_errors_are_typed_and_worded_as_before() {
        let dir = std::env::temp_dir().join(format!("konakis-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.txt");
        std::fs::write(
            &path,
            "# two lines\nstartpos moves d1d3\nstartpos moves d1d9\n",
        )
        .unwrap();
        let e = load_openings(
            &path,
            Rules::default(),
            konakis_core::Board::start(&Rules::default()),
        )
        .unwrap_err();
        match &e {
            OpeningsError::Line {
                line, text, reason, ..
            } => {
                assert_eq!((*line, text.as_str()), (3, "startpos moves d1d9"));
                assert!(matches!(reason, OpeningError::Position(_)), "{reason:?}");
            }
            other => panic!("{other:?}"),
        }
        let words = e.to_string();
        assert!(
            words.starts_with(&format!(
                "{}:3: bad opening 'startpos moves d1d9': ",
                path.display()
            )),
            "{words}"
        );
        std::fs::write(&path, "# nothing\n\n").unwrap();
        let e = load_openings(
            &path,
            Rules::default(),
            konakis_core::Board::start(&Rules::default()),
        )
        .unwrap_err();
        assert!(matches!(e, OpeningsError::Empty { .. }));
        assert_eq!(
            e.to_string(),
            format!("openings file {} has no openings", path.display())
        );
        let e = load_openings(
            &dir.join("missing.txt"),
            Rules::default(),
            konakis_core::Board::start(&Rules::default()),
        )
        .unwrap_err();
        assert!(matches!(e, OpeningsError::Read { .. }));
        assert!(e.to_string().starts_with("cannot read openings file "));
        assert_eq!(
            Opening::parse(
                "moves d1d3",
                Rules::default(),
                konakis_core::Board::start(&Rules::default())
            )
            .unwrap_err(),
            OpeningError::Empty
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
