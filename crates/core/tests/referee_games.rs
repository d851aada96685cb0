//! Random games played by other programs, replayed by Konakis' rules: every move each program
//! chose must be legal here, take the same pieces, and leave as many legal moves as that
//! program counted, and each game must end (or go on) as it did there.
//!
//! The games are in tests/data/referees/, one file per host's game, named by the id of the
//! [`Variant`] that follows that host; each file's comment says which program played them and
//! how (the programs themselves are not part of Konakis: they are referees only).
//!
//! A game is one line, `game N size S plies P status STATUS: MOVE ... end#N`, each `MOVE`
//! written `from-to[xSQ/SQ...]#N`: the move, the squares it captured, and the number of legal
//! moves of the position it was chosen in; `end#N` gives the final position's.

use konakis_core::board::{BoardOf, GameOf, NoEscape, Status, WinReason};
use konakis_core::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use konakis_core::rules::{BoardSize, Variant};
use konakis_core::types::{MoveOf, Side};

/// The games of the file `name`.txt: each game's number and line.
fn games_of(name: &str) -> Vec<(usize, String)> {
    let path = format!(
        "{}/../../tests/data/referees/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            let n = l.split_whitespace().nth(1).and_then(|n| n.parse().ok());
            (n.expect("a game number"), l.to_string())
        })
        .collect()
}

/// Whether the final status of Konakis' game is the one the program wrote.
fn same_ending(status: Status, theirs: &str) -> bool {
    match theirs {
        "AttackerWins" => matches!(status, Status::Win(Side::Attackers, _)),
        "DefenderWins" => matches!(status, Status::Win(Side::Defenders, _)),
        "Draw" => matches!(status, Status::Draw(_)),
        "Ongoing" => status == Status::Ongoing,
        _ => false,
    }
}

/// Replays one game line: the plies replayed and the final board and status, or the first
/// disagreement.
fn replay<G: Geometry>(
    variant: &Variant,
    line: &str,
) -> Result<(usize, BoardOf<G>, Status), String> {
    let (head, moves) = line.split_once(": ").ok_or("no ': ' in the line")?;
    let theirs = head.split_whitespace().last().ok_or("no status")?;
    let board = BoardOf::<G>::from_fen(&variant.start_fen()).map_err(|e| e.to_string())?;
    let mut game = GameOf::new(variant.rules(), board);
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    for (ply, token) in tokens.iter().enumerate() {
        let (play, count) = token.rsplit_once('#').ok_or("no '#' in a move")?;
        let count: usize = count.parse().map_err(|_| "a bad count")?;
        let legal = if game.status().is_over() {
            Vec::new()
        } else {
            game.legal_moves()
        };
        if legal.len() != count {
            return Err(format!(
                "ply {}: {} legal moves here, {count} there (before {token})",
                ply + 1,
                legal.len()
            ));
        }
        if play == "end" {
            let status = game.status();
            return if same_ending(status, theirs) {
                Ok((ply, *game.board(), status))
            } else {
                Err(format!("the game ends {status:?} here, {theirs} there"))
            };
        }
        let (mv_text, taken) = match play.split_once('x') {
            Some((m, t)) => (m, t.split('/').collect::<Vec<_>>()),
            None => (play, Vec::new()),
        };
        let mv = MoveOf::<G>::parse(mv_text).map_err(|e| format!("ply {}: {e}", ply + 1))?;
        if !legal.contains(&mv) {
            return Err(format!("ply {}: {mv_text} is not legal here", ply + 1));
        }
        let before = *game.board();
        game.play(mv).map_err(|e| format!("ply {}: {e}", ply + 1))?;
        let mut captured: Vec<String> = before
            .occupied()
            .filter(|&sq| sq != mv.from() && game.board().piece_at(sq).is_none())
            .map(|sq| sq.to_string())
            .collect();
        captured.sort();
        let mut expected: Vec<String> = taken.iter().map(|s| s.to_string()).collect();
        expected.sort();
        if captured != expected {
            return Err(format!(
                "ply {}: {mv_text} takes {captured:?} here, {expected:?} there",
                ply + 1
            ));
        }
    }
    Err("the line has no end#".to_string())
}

/// Games where Konakis knowingly differs from the program: the file, the game's number, and why.
/// (None now; hnefatafl.org-copenhagen-11.txt game 26, which ends by the "defenders cannot
/// escape" adjudication, was one until Konakis played it.)
const KNOWN: &[(&str, usize, &str)] = &[];

/// Replays every game of the file for `id`; returns the plies replayed. Fails on any
/// disagreement but those in [`KNOWN`], and if one of those no longer disagrees.
fn check(id: &str) -> usize {
    let (plies, _) = check_file(id, id);
    plies
}

/// How one game ended here: its number, the final status, and what
/// [`BoardOf::defenders_cannot_escape`] says of the final board with the king's edge.
type Ending = (usize, Status, Option<NoEscape>, Option<&'static str>);

/// The final status of a game and the adjudication's view of its final board.
fn ending<G: Geometry>(n: usize, board: &BoardOf<G>, status: Status) -> Ending {
    let edge = board.king().and_then(|k| {
        let (file, rank) = (usize::from(k.file()), usize::from(k.rank()));
        let last = G::SIDE - 1;
        match (file, rank) {
            (0, _) => Some("file a"),
            (f, _) if f == last => Some("the last file"),
            (_, 0) => Some("rank 1"),
            (_, r) if r == last => Some("the last rank"),
            _ => None,
        }
    });
    (n, status, board.defenders_cannot_escape(), edge)
}

/// [`check`] for the games of the file `name`.txt, played by the variant `id`: the plies
/// replayed and how each game Konakis agrees with ended.
fn check_file(id: &str, name: &str) -> (usize, Vec<Ending>) {
    let variant = Variant::find(id).unwrap_or_else(|| panic!("no variant {id}"));
    let mut failures = Vec::new();
    let mut plies = 0;
    let mut endings = Vec::new();
    for (n, line) in games_of(name) {
        let result = match variant.size {
            BoardSize::Seven => {
                replay::<Seven>(variant, &line).map(|(p, b, s)| (p, ending(n, &b, s)))
            }
            BoardSize::Eleven => {
                replay::<Eleven>(variant, &line).map(|(p, b, s)| (p, ending(n, &b, s)))
            }
            BoardSize::Thirteen => {
                replay::<Thirteen>(variant, &line).map(|(p, b, s)| (p, ending(n, &b, s)))
            }
            BoardSize::Nine => {
                replay::<Nine>(variant, &line).map(|(p, b, s)| (p, ending(n, &b, s)))
            }
        };
        let known = KNOWN.iter().any(|&(f, l, _)| f == name && l == n);
        match result {
            Ok((p, end)) if !known => {
                plies += p;
                endings.push(end);
            }
            Ok(_) => failures.push(format!(
                "{name}.txt game {n}: now agrees; take it out of KNOWN"
            )),
            Err(_) if known => {}
            Err(e) => failures.push(format!("{name}.txt game {n}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} games disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (plies, endings)
}

#[test]
fn hnefatafl_org_copenhagen_games_replay_move_for_move() {
    assert!(check("hnefatafl.org-copenhagen-11") > 5_000);
}

#[test]
fn hnefatafl_org_13_games_replay_move_for_move() {
    assert!(check("hnefatafl.org-13") > 10_000);
}

#[test]
fn hnefatafl_org_brandubh_games_replay_move_for_move() {
    assert!(check("hnefatafl.org-brandubh-7") > 3_000);
}

#[test]
fn taflzero_copenhagen_games_replay_move_for_move() {
    assert!(check("taflzero-copenhagen-11") > 5_000);
}

/// Games that hnefatafl.org ends by its "defenders cannot escape" adjudication (every one of
/// several thousand random games that ended so, and games steered towards its other cases):
/// Konakis must play each move alike and end each game there, by that adjudication and no
/// other rule; and the games must take in every case of it: the king trapped on each edge,
/// and the corners closed off with each of the three thresholds.
#[test]
fn hnefatafl_org_cannot_escape_games_end_by_the_adjudication_in_each_of_its_cases() {
    let (plies, endings) = check_file(
        "hnefatafl.org-copenhagen-11",
        "hnefatafl.org-copenhagen-11-cannot-escape",
    );
    assert!(
        endings.len() >= 130 && plies > 10_000,
        "{} games",
        endings.len()
    );
    let mut cases = std::collections::BTreeMap::new();
    for (n, status, why, edge) in endings {
        assert_eq!(
            status,
            Status::Win(Side::Attackers, WinReason::CannotEscape),
            "game {n}"
        );
        let why = why.expect("a reason");
        let case = match why {
            NoEscape::KingTrapped => format!("{why:?} on {}", edge.expect("an edge")),
            _ => format!("{why:?}"),
        };
        *cases.entry(case).or_insert(0) += 1;
    }
    let want = [
        "ClosedOffOutnumbered",
        "ClosedOffThreeSquares",
        "ClosedOffTwoSquares",
        "KingTrapped on file a",
        "KingTrapped on rank 1",
        "KingTrapped on the last file",
        "KingTrapped on the last rank",
    ];
    let got: Vec<&str> = cases.keys().map(|c| c.as_str()).collect();
    assert_eq!(got, want, "{cases:?}");
}

#[test]
fn opentafl_sea_battle_games_replay_move_for_move() {
    assert!(check("opentafl-sea-battle-9") > 1_000);
}

#[test]
fn opentafl_sea_battle_13_games_replay_move_for_move() {
    assert!(check("opentafl-sea-battle-13") > 1_000);
}

#[test]
fn opentafl_fetlar_games_replay_move_for_move() {
    assert!(check("opentafl-fetlar-11") > 1_000);
}

#[test]
fn opentafl_copenhagen_games_replay_move_for_move() {
    assert!(check("opentafl-copenhagen-11") > 1_000);
}

#[test]
fn opentafl_copenhagen_relaxed_shieldwall_games_replay_move_for_move() {
    assert!(check("opentafl-copenhagen-relaxed-11") > 1_000);
}

#[test]
fn opentafl_brandub_games_replay_move_for_move() {
    assert!(check("opentafl-brandub-7") > 1_000);
}

#[test]
fn opentafl_tawlbwrdd_games_replay_move_for_move() {
    assert!(check("opentafl-tawlbwrdd-11") > 1_000);
}

#[test]
fn opentafl_tablut_games_replay_move_for_move() {
    assert!(check("opentafl-tablut-9") > 1_000);
}

#[test]
fn opentafl_foteviken_games_replay_move_for_move() {
    assert!(check("opentafl-foteviken-9") > 1_000);
}

#[test]
fn opentafl_magpie_games_replay_move_for_move() {
    assert!(check("opentafl-magpie-7") > 1_000);
}

#[test]
fn saami_tablut_games_replay_move_for_move_as_opentafl_plays_its_rules_string() {
    assert!(check("saami-tablut-9") > 3_000);
}

/// aagenielsen.dk's Copenhagen and TaflZero's are the same rules (docs/rules.md, "Presets of
/// the tafl family"), so TaflZero's games are the independent check of `copenhagen-11` too.
#[test]
fn copenhagen_games_by_taflzero_replay_under_aagenielsens_preset() {
    let same = |id: &str| Variant::find(id).unwrap().rules();
    assert_eq!(same("copenhagen-11"), same("taflzero-copenhagen-11"));
    let (plies, _) = check_file("copenhagen-11", "taflzero-copenhagen-11");
    assert!(plies > 5_000);
}
