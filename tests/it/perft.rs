//! Perft from the start position against the reference figures of the rules, and the fast
//! perft (bulk counting of the last two plies) against the plain one under other rule options.

use konakis::perft::{perft, perft_slow};
use konakis::{Board, Rules};

#[test]
fn start_position_perft_1_to_5_matches_the_reference_figures() {
    let rules = Rules::default();
    let board = Board::start(&rules);
    let expected = [80u64, 4_400, 353_200, 19_913_864, 1_611_674_360];
    for (depth, &want) in (1..=5).zip(expected.iter()) {
        assert_eq!(perft(&board, &rules, depth), want, "perft({depth})");
    }
}

#[test]
fn ashton_perft_1_to_5_matches_the_tablut_challenge_figures() {
    // The Tablut Challenge's published figures: an independent reference, and for depths 1-4 the server's own rules.
    let rules = Rules::ashton();
    let board = Board::start(&rules);
    assert_eq!(board.side_to_move(), konakis::Side::Defenders);
    let expected = [56u64, 4_408, 248_456, 19_159_224, 1_074_150_880];
    for (depth, &want) in (1..=5).zip(expected.iter()) {
        assert_eq!(perft(&board, &rules, depth), want, "Ashton perft({depth})");
    }
    // The same through plain move generation, without bulk counting.
    assert_eq!(perft_slow(&board, &rules, 3), 248_456);
}

#[test]
fn bulk_counting_agrees_with_plain_perft_under_every_preset() {
    let presets = [
        ("default", Rules::default()),
        ("tafl hub", Rules::tafl_hub()),
        ("encyclopedia", Rules::encyclopedia()),
        ("opentafl", Rules::opentafl()),
        ("ashton", Rules::ashton()),
        (
            "throne blocks",
            Rules {
                throne_passable: false,
                ..Rules::default()
            },
        ),
        (
            "throne blocks, no re-entry",
            Rules {
                throne_passable: false,
                king_reenters_throne: false,
                ..Rules::default()
            },
        ),
    ];
    let positions = [
        "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0",
        // king off the throne on the middle rank, pieces around the throne
        "3bbb3/4b4/2w1w4/b3w3b/bbw2Kw1b/b3b3b/4w4/4b4/3b1b3 w 12",
        // an open middle game with captures available for both sides
        "3b1b3/2b1b4/1w2w1b2/b2w1w2b/1b1wK1w1b/b4w2b/2b1w4/4b1b2/3b1b3 b 20",
        // Ashton-like: attackers in and out of half-empty camps, the king off the throne
        "3b1b3/4b4/2w1w4/b2w4b/1b1w1Kw2/b3w1b1b/3b5/4b4/3b1bb2 w 30",
        "3b1b3/4b4/2w1w4/b2w4b/1b1w1Kw2/b3w1b1b/3b5/4b4/3b1bb2 b 31",
    ];
    for (name, rules) in presets {
        for fen in positions {
            let board = Board::from_fen(fen).unwrap();
            for depth in 1..=3 {
                assert_eq!(
                    perft(&board, &rules, depth),
                    perft_slow(&board, &rules, depth),
                    "{name}, {fen}, depth {depth}"
                );
            }
        }
    }
}

/// Runs `konakis perft <depth>`, killing it after 10 s; its exit code (`None` if killed) and
/// its error output.
fn perft_command(depth: &str) -> (Option<i32>, String) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_konakis"))
        .args(["perft", depth])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("konakis starts");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, err)
}

#[test]
fn the_perft_command_refuses_depths_beyond_its_cap_with_the_cap_in_the_message() {
    // 10000 once overflowed the stack (exit 134); 99 ran for ever.
    for depth in ["21", "99", "10000", "4000000000"] {
        let (code, err) = perft_command(depth);
        assert_eq!(code, Some(2), "perft {depth}: {err}");
        assert!(err.contains("0..=20"), "perft {depth}: {err}");
    }
    let (code, err) = perft_command("2");
    assert_eq!(code, Some(0), "{err}");
}

/// `konakis perft --variant` counts a game of the family on its own board, with its
/// repetition rule: hnefatafl.org's Copenhagen to depth 4 as hnefatafl-copenhagen counts it
/// (tests/data/perft/reference.txt; without the rule that a defender may not repeat a board it
/// would be TaflZero's 50,456,804), split by the 116 first moves; an unknown id is refused with
/// the ids there are.
#[test]
fn the_perft_command_counts_a_variant_on_its_board_with_its_repetition_rule() {
    use crate::common::matches::{run, text};
    let out = run(&["perft", "4", "--variant", "hnefatafl.org-copenhagen-11"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"Nodes searched: 50450144"), "{stdout}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        116
    );
    assert!(stdout.contains("d11d10: "), "{stdout}");
    let out = run(&["perft", "3", "--variant", "taflzero-copenhagen-11"]);
    assert!(text(&out.stdout).ends_with("Nodes searched: 806344\n"));
    let out = run(&["perft", "2", "--variant", "copenhagen-13"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: no variant 'copenhagen-13' (variants: copenhagen-11, "),
        "{err}"
    );
}
