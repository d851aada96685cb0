//! The family's code path against Tablut's: with Tablut's rules and a repetition rule that only
//! the game reads (so that `Rules::family_rules` sends the board down the family's path), every
//! move, capture, count and status of random games is Tablut's.

use super::{Board, BoardOf, Status};
use crate::geometry::SquareSet;
use crate::geometry::{Eleven, Geometry, Seven, Thirteen};
use crate::perft::perft;
use crate::rules::{KingCapture, PRESETS, Repetition, Rules, Ruleset, VARIANTS, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The same rules on the family's path.
fn on_family_path(rules: Rules) -> Rules {
    let family = Rules {
        repetition: Repetition::AttackersWin,
        ..rules
    };
    assert!(!rules.family_rules() && family.family_rules());
    family
}

/// Plays random games (steered towards captures) from `start` and checks, at every position,
/// that both paths agree on everything the board says.
/// Returns the positions seen, the soldiers taken and the guards taken beside the king on his
/// throne (Linnaeus' rule 10).
fn paths_agree<G: Geometry>(
    start: BoardOf<G>,
    tablut: Rules,
    rng: &mut StdRng,
) -> (usize, u32, u32) {
    let family = on_family_path(tablut);
    let (mut positions, mut taken, mut guards) = (0, 0, 0);
    for _ in 0..40 {
        let mut board = start;
        for _ in 0..150 {
            let fen = board.to_fen();
            let mut a: Vec<_> = board.legal_moves(&tablut).to_vec();
            let mut b: Vec<_> = board.legal_moves(&family).to_vec();
            a.sort_by_key(|m| m.raw());
            b.sort_by_key(|m| m.raw());
            assert_eq!(a, b, "{fen} {tablut}");
            assert_eq!(
                board.count_moves(&tablut),
                board.count_moves(&family),
                "{fen}"
            );
            assert_eq!(board.has_move(&tablut), board.has_move(&family), "{fen}");
            assert_eq!(board.is_won(&tablut), board.is_won(&family), "{fen}");
            assert_eq!(board.status(&tablut), board.status(&family), "{fen}");
            assert_eq!(
                board.king_moves(&tablut),
                board.king_moves(&family),
                "{fen}"
            );
            assert_eq!(
                board.count_soldier_moves_both(&tablut),
                board.count_soldier_moves_both(&family),
                "{fen}"
            );
            assert_eq!(
                perft(&board, &tablut, 2),
                perft(&board, &family, 2),
                "{fen}"
            );
            positions += 1;
            if a.is_empty() || board.status(&tablut) != Status::Ongoing {
                break;
            }
            let mut chosen = None;
            for &m in &a {
                let (mut x, mut y) = (board, board);
                let cx = x.play(&tablut, m);
                let cy = y.play(&family, m);
                assert_eq!((x, cx), (y, cy), "{fen} {m}");
                taken += cx.len();
                if board.king == G::THRONE as u8 && board.side_to_move() == crate::Side::Attackers {
                    guards += (cx.0 & G::THRONE_RING).count_ones();
                }
                if !cx.is_empty() && rng.random_bool(0.5) {
                    chosen = Some(m);
                }
            }
            let m = chosen.unwrap_or_else(|| a[rng.random_range(0..a.len())]);
            board.play(&tablut, m);
        }
    }
    (positions, taken, guards)
}

#[test]
fn the_family_path_plays_tablut_as_tablut_does() {
    let mut rng = StdRng::seed_from_u64(45);
    let (mut positions, mut taken, mut guards) = (0, 0, 0);
    for preset in PRESETS
        .iter()
        .filter(|p| p.rules().ruleset == Ruleset::Linnaeus)
    {
        for variant in 0..3 {
            let mut rules = preset.rules();
            match variant {
                1 => rules.encirclement = !rules.encirclement,
                2 => rules.king_armed = !rules.king_armed,
                _ => {}
            }
            let (p, t, g) = paths_agree(Board::start(&rules), rules, &mut rng);
            positions += p;
            taken += t;
            guards += g;
        }
    }
    // The other sizes, under both of Tablut's king captures.
    for king_capture in [KingCapture::Original, KingCapture::English] {
        let rules = Rules {
            king_capture,
            throne_hostile: true,
            ..Rules::default()
        };
        let seven = BoardOf::<Seven>::from_fen(super::BRANDUBH_FEN).unwrap();
        let eleven = BoardOf::<Eleven>::from_fen(super::COPENHAGEN_FEN).unwrap();
        let thirteen =
            BoardOf::<Thirteen>::from_fen(&Variant::find("hnefatafl.org-13").unwrap().start_fen())
                .unwrap();
        let (p, t, _) = paths_agree(seven, rules, &mut rng);
        let (q, u, _) = paths_agree(eleven, rules, &mut rng);
        let (r, v, _) = paths_agree(thirteen, rules, &mut rng);
        positions += p + q + r;
        taken += t + u + v;
    }
    assert!(
        positions > 20_000 && taken > 5_000 && guards > 20,
        "{positions} {taken} {guards}"
    );
}

/// Tablut's presets and the default rules stay on Tablut's path; every family variant but the
/// two of Tablut's options (OpenTafl's Tablut, Saami Tablut) takes the family's.
#[test]
fn only_the_family_variants_take_the_family_path() {
    assert!(!Rules::default().family_rules());
    for preset in PRESETS {
        assert!(!preset.rules().family_rules(), "{}", preset.id);
    }
    for v in VARIANTS {
        let tablut_like = ["opentafl-tablut-9", "saami-tablut-9"].contains(&v.id);
        assert_eq!(v.rules().family_rules(), !tablut_like, "{}", v.id);
    }
}

/// Every variant's start position string is valid on its board, its side to move is the one
/// its rules name, and the ids are unique.
#[test]
fn every_variant_starts_on_its_own_board() {
    fn check<G: Geometry>(v: &Variant) {
        let board = BoardOf::<G>::from_fen(&v.start_fen()).expect(v.id);
        assert_eq!(board.side_to_move(), v.rules().first_move, "{}", v.id);
        assert!(board.king().is_some(), "{}", v.id);
    }
    for (i, v) in VARIANTS.iter().enumerate() {
        assert!(VARIANTS[..i].iter().all(|w| w.id != v.id), "{}", v.id);
        assert_eq!(
            Variant::find(&v.id.to_uppercase()).map(|w| w.id),
            Some(v.id)
        );
        match v.size {
            crate::rules::BoardSize::Seven => check::<Seven>(v),
            crate::rules::BoardSize::Nine => check::<crate::geometry::Nine>(v),
            crate::rules::BoardSize::Eleven => check::<Eleven>(v),
            crate::rules::BoardSize::Thirteen => check::<crate::geometry::Thirteen>(v),
        }
    }
    assert!(Variant::find("copenhagen-13").is_none());
    assert_eq!(
        Variant::find("hnefatafl.org-13").map(|v| v.size.side()),
        Some(13)
    );
}
