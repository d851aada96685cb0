//! The learned evaluation's machinery (docs/nnue.md): the incremental accumulator against a
//! full recomputation under every rule family, the integer network against the float one, a
//! small training run, the network file's round trip and refusals, and `konakis datagen`'s
//! shards and resumption.

use crate::common::matches::engine_session;
use konakis::geometry::{SquareSet, Wide};
use konakis::prelude::*;
use konakis::rules::BoardSize;
use konakis_nnue::RuleFamily;
use konakis_nnue::data::{self, GameResult, Record};
use konakis_nnue::network::{NetError, Network};
use konakis_nnue::quant::{Accumulator, HIDDEN, HIDDEN_WIDE, QuantNetwork};
use konakis_nnue::train::{self, Progress, TrainConfig};
use konakis_runner::datagen::{self, DatagenOptions};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;

const KONAKIS: &str = env!("CARGO_BIN_EXE_konakis");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("konakis-nnue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The default rules, `KingCapture=English` and Ashton: the families a network is made for.
fn families() -> [Rules; 3] {
    let mut english = Rules::default();
    english.set("KingCapture", "English").unwrap();
    [Rules::default(), english, Rules::ashton()]
}

/// A float network with weights spread like a trained one's: first layer within ±0.6, so a
/// hidden unit crosses both ends of the clipped ReLU over the positions of a game, and output
/// weights within ±0.3 at 256 hidden units (narrower for more units, as training makes them),
/// so that scores spread over some hundreds of centi-soldiers.
fn spread_network(hidden: usize, family: RuleFamily, seed: u64) -> Network {
    let output = 0.3 * 256.0 / hidden as f32;
    let mut net = Network::random(hidden, family, 400.0, seed);
    let mut rng = StdRng::seed_from_u64(seed);
    net.w1
        .iter_mut()
        .for_each(|w| *w = rng.random_range(-0.6..0.6));
    net.b1
        .iter_mut()
        .for_each(|b| *b = rng.random_range(-0.5..1.0));
    net.w2
        .iter_mut()
        .for_each(|w| *w = rng.random_range(-output..output));
    net.b2 = [0.1, -0.2];
    net
}

/// Random positions of random games under `rules`, `count` of them.
fn random_positions(rules: &Rules, count: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::start(rules);
        for _ in 0..rng.random_range(0..120) {
            let moves = board.legal_moves(rules);
            if moves.is_empty() || board.is_won(rules) {
                break;
            }
            board.play(rules, moves[rng.random_range(0..moves.len())]);
        }
        if board.king().is_some() {
            out.push(board);
        }
    }
    out
}

#[test]
fn the_incremental_accumulator_equals_a_full_recomputation_under_every_family() {
    incremental_equals_recomputation::<HIDDEN>(&families());
}

#[test]
fn the_wide_networks_incremental_accumulator_equals_a_full_recomputation() {
    incremental_equals_recomputation::<HIDDEN_WIDE>(&families()[1..2]);
}

/// Random games under each of `rules`, the accumulator updated move by move and compared
/// with a recomputation after every move.
fn incremental_equals_recomputation<const H: usize>(rules: &[Rules]) {
    for rules in rules {
        let family = RuleFamily::of(rules);
        let net = QuantNetwork::<H>::from_float(&spread_network(H, family, 7)).unwrap();
        let mut rng = StdRng::seed_from_u64(11);
        let (mut moves, mut captures, mut kings_taken) = (0, 0, 0);
        while moves < 12_000 {
            let mut board = Board::start(rules);
            let mut acc = Accumulator::new(&net);
            acc.refresh(&net, &board);
            for _ in 0..300 {
                let list = board.legal_moves(rules);
                if list.is_empty() || board.is_won(rules) {
                    break;
                }
                let mv = list[rng.random_range(0..list.len())];
                let before = board;
                let captured = board.play(rules, mv);
                acc.update(&net, &before, &board, mv, captured);
                let mut fresh = Accumulator::new(&net);
                fresh.refresh(&net, &board);
                assert_eq!(acc, fresh, "{family}: after {mv} from {}", before.to_fen());
                assert_eq!(
                    net.evaluate(&acc, board.side_to_move()),
                    net.evaluate_board(&board)
                );
                moves += 1;
                captures += captured.len();
                kings_taken += (before.king().is_some() && board.king().is_none()) as u32;
            }
        }
        // The random games did what the test is about: captures, and kings taken.
        assert!(captures > 200, "{family}: {captures} captures");
        assert!(kings_taken > 0, "{family}: no king captured");
    }
}

#[test]
fn the_integer_network_stays_within_tolerance_of_the_float_network() {
    integer_within_tolerance::<HIDDEN>(&families());
}

#[test]
fn the_wide_integer_network_stays_within_tolerance_of_the_float_network() {
    integer_within_tolerance::<HIDDEN_WIDE>(&families()[1..2]);
}

/// The stated tolerance (docs/nnue.md): at most 20 centi-soldiers on any position and 4 on
/// average, for scores of some hundreds (100 is a soldier). Rounding the first layer's
/// weights to 1/255 is most of it.
fn integer_within_tolerance<const H: usize>(rules: &[Rules]) {
    for rules in rules {
        let family = RuleFamily::of(rules);
        let float = spread_network(H, family, 21);
        let quant = QuantNetwork::<H>::from_float(&float).unwrap();
        let (mut worst, mut sum, mut n, mut size) = (0.0f32, 0.0f32, 0, 0.0f32);
        for board in random_positions(rules, 2000, 5) {
            let f = float.evaluate(&board);
            let q = quant.evaluate_board(&board) as f32;
            let err = (f - q).abs();
            assert!(
                err <= 20.0,
                "{family}: float {f}, integer {q} on {}",
                board.to_fen()
            );
            worst = worst.max(err);
            sum += err;
            size += f.abs();
            n += 1;
        }
        eprintln!(
            "{family}: integer vs float, mean error {:.2} cp, worst {worst:.2} cp, mean |score| {:.0}",
            sum / n as f32,
            size / n as f32
        );
        assert!(
            sum / n as f32 <= 4.0,
            "{family}: mean error {}",
            sum / n as f32
        );
        assert!(
            size / n as f32 > 200.0,
            "{family}: the scores hardly spread"
        );
    }
}

/// Records of random positions scored by the classical evaluation (side to move's view).
fn classical_records(rules: &Rules, count: usize, seed: u64) -> Vec<Record> {
    random_positions(rules, count, seed)
        .iter()
        .enumerate()
        .map(|(i, b)| Record {
            attackers: Wide::from_u128(b.attackers().bits()),
            defenders: Wide::from_u128(b.defenders().bits()),
            king: b.king().unwrap().index() as u8,
            defenders_to_move: b.side_to_move() == Side::Defenders,
            family: RuleFamily::of(rules),
            result: GameResult::Draw,
            plies: b.plies() as u16,
            score: konakis::eval::evaluate(b, rules).clamp(-3000, 3000) as i16,
            game: i as u32,
            index: 0,
            count: 1,
        })
        .collect()
}

/// The image of `sq` under the board's symmetry `k` (konakis_nnue::symmetric_square).
fn image_square(sq: Square, k: usize) -> Square {
    Square::new(konakis_nnue::symmetric_square(sq.index() as u8, k)).unwrap()
}

fn image_move(mv: Move, k: usize) -> Move {
    Move::new(image_square(mv.from(), k), image_square(mv.to(), k))
}

/// `board` under symmetry `k`, set up by the rules' own parser from a position string that
/// writes each empty square as a `1`.
fn image_board(board: &Board, k: usize) -> Board {
    let mut cells = ['1'; 81];
    for sq in Square::all() {
        if let Some(piece) = board.piece_at(sq) {
            cells[image_square(sq, k).index()] = piece.letter();
        }
    }
    let ranks: Vec<String> = cells.chunks(9).rev().map(String::from_iter).collect();
    let fen = format!(
        "{} {} {}",
        ranks.join("/"),
        board.side_to_move().letter(),
        board.plies()
    );
    Board::from_fen(&fen).unwrap()
}

#[test]
fn every_family_plays_the_same_game_in_all_eight_orientations() {
    // What `konakis train --symmetries` relies on: the image of a position has the images of
    // its moves, each leading to the image of the same result.
    for rules in families() {
        let family = RuleFamily::of(&rules);
        let mut checked = 0;
        for board in random_positions(&rules, 150, 23) {
            for k in 0..konakis_nnue::SYMMETRIES {
                let image = image_board(&board, k);
                let mut expected: Vec<Move> = board
                    .legal_moves(&rules)
                    .iter()
                    .map(|&m| image_move(m, k))
                    .collect();
                let mut found: Vec<Move> = image.legal_moves(&rules).to_vec();
                expected.sort_unstable_by_key(|m| m.raw());
                found.sort_unstable_by_key(|m| m.raw());
                assert_eq!(found, expected, "{family}: {} under {k}", board.to_fen());
                for &mv in board.legal_moves(&rules).iter() {
                    let mut child = board;
                    let taken = child.play(&rules, mv);
                    let mut image_child = image;
                    let image_taken = image_child.play(&rules, image_move(mv, k));
                    let set = |b: Bitboard| konakis_nnue::symmetric_set(b.bits(), k);
                    assert_eq!(image_taken.bits(), set(taken));
                    // (Compared piece by piece: a captured king leaves no position string.)
                    assert_eq!(
                        (
                            image_child.attackers().bits(),
                            image_child.defenders().bits(),
                            image_child.king(),
                        ),
                        (
                            set(child.attackers()),
                            set(child.defenders()),
                            child.king().map(|s| image_square(s, k)),
                        ),
                        "{family}: {mv} from {} under {k}",
                        board.to_fen()
                    );
                    assert_eq!(image_child.is_won(&rules), child.is_won(&rules));
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{family}: {checked} moves");
    }
}

#[test]
fn a_small_training_run_reduces_the_validation_loss_and_saves_a_loadable_network() {
    let rules = Rules::default();
    let records = classical_records(&rules, 3000, 3);
    let config = TrainConfig {
        hidden: 32,
        epochs: 12,
        batch: 128,
        lr: 0.003,
        lambda: 1.0,
        validation_permille: 100,
        ..TrainConfig::default()
    };
    let (mut first, mut losses) = (None, Vec::new());
    let net = train::train(&records, &config, |p, _| match p {
        Progress::Start {
            validation_loss,
            validation,
            ..
        } => {
            assert!(validation > 150, "{validation} validation positions");
            first = Some(validation_loss);
        }
        Progress::Epoch {
            validation_loss, ..
        } => losses.push(validation_loss),
        Progress::Batch { .. } => {}
    })
    .unwrap();
    let first = first.unwrap();
    let last = *losses.last().unwrap();
    assert_eq!(losses.len(), 12);
    assert!(last < 0.5 * first, "validation loss {first} -> {last}");

    let dir = scratch("train");
    let path = dir.join("net.bin");
    net.save(&path).unwrap();
    let loaded = Network::load(&path).unwrap();
    assert_eq!(loaded, net);
    assert_eq!(loaded.family, RuleFamily::Default);
    // The trained first layer stays within the clip the integer accumulator relies on.
    assert!(
        net.w1
            .iter()
            .chain(&net.b1)
            .all(|w| w.abs() <= konakis_nnue::network::WEIGHT_CLIP)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn training_from_a_network_starts_from_its_weights() {
    let rules = Rules::default();
    let records = classical_records(&rules, 1500, 7);
    let config = TrainConfig {
        hidden: 16,
        epochs: 3,
        batch: 128,
        lr: 0.003,
        validation_permille: 100,
        ..TrainConfig::default()
    };
    let first = train::train(&records, &config, |_, _| {}).unwrap();
    let mut start_losses = Vec::new();
    let mut record_start = |p: Progress, _: &Network| {
        if let Progress::Start {
            validation_loss, ..
        } = p
        {
            start_losses.push(validation_loss);
        }
    };
    train::train_from(&records, &config, Some(first.clone()), &mut record_start).unwrap();
    train::train(&records, &config, &mut record_start).unwrap();
    // Started from the trained network, the loss before training is that network's loss on
    // the validation games, below a random network's.
    let [from_first, from_random] = start_losses[..] else {
        panic!("{start_losses:?}")
    };
    let validation: Vec<_> = records
        .iter()
        .filter(|r| train::is_validation(r.game, &config))
        .map(|r| train::Sample::from_record(r, config.lambda, config.scale))
        .collect();
    let expected = train::mean_loss(&first, &validation);
    assert!(
        (from_first - expected).abs() < 1e-9,
        "{from_first} vs {expected}"
    );
    assert!(from_first < from_random, "{from_first} vs {from_random}");
    // A network that does not fit is refused by name.
    let wide = TrainConfig {
        hidden: 32,
        ..config
    };
    let e = train::train_from(&records, &wide, Some(first.clone()), |_, _| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the starting network does not fit: 16 hidden units, --hidden 32"
    );
    let ashton = Network {
        family: RuleFamily::Ashton,
        ..first
    };
    let e = train::train_from(&records, &config, Some(ashton), |_, _| {}).unwrap_err();
    assert!(e.to_string().contains("trained for"), "{e}");
}

#[test]
fn training_on_all_orientations_makes_a_network_that_sees_them_alike() {
    let rules = Rules::default();
    let records = classical_records(&rules, 2000, 13);
    let config = TrainConfig {
        hidden: 16,
        epochs: 20,
        batch: 64,
        lr: 0.003,
        lambda: 1.0,
        ..TrainConfig::default()
    };
    let plain = train::train(&records, &config, |_, _| {}).unwrap();
    let symmetric = TrainConfig {
        symmetries: true,
        ..config
    };
    let oriented = train::train(&records, &symmetric, |_, _| {}).unwrap();
    // How far apart a network scores a position and its seven images, on average.
    let spread = |net: &Network| {
        let mut sum = 0.0;
        for r in &records[..300] {
            let s = train::Sample::from_record(r, 1.0, 400.0);
            let y = |s: &train::Sample| net.forward(s.attackers, s.defenders, s.king, 0);
            for k in 1..konakis_nnue::SYMMETRIES {
                sum += (y(&s) - y(&s.image(k))).abs() as f64;
            }
        }
        sum / (300.0 * 7.0)
    };
    let (a, b) = (spread(&plain), spread(&oriented));
    assert!(
        b < 0.6 * a,
        "spread over the orientations: {a} without, {b} with"
    );
    // Drawn from the run's seed: the same run trains the same network.
    assert_eq!(
        train::train(&records, &symmetric, |_, _| {}).unwrap(),
        oriented
    );
}

#[test]
fn the_same_games_in_another_order_train_the_same_network() {
    let rules = Rules::ashton();
    let records = classical_records(&rules, 600, 5);
    let config = TrainConfig {
        hidden: 8,
        epochs: 2,
        batch: 64,
        ..TrainConfig::default()
    };
    let a = train::train(&records, &config, |_, _| {}).unwrap();
    // datagen writes games as they finish, so two runs of it may order them differently.
    let mut shuffled = records.clone();
    shuffled.shuffle(&mut StdRng::seed_from_u64(9));
    let b = train::train(&shuffled, &config, |_, _| {}).unwrap();
    assert_eq!(a, b);
}

#[test]
fn a_damaged_network_file_is_refused_with_the_reason() {
    let dir = scratch("damaged");
    let path = dir.join("net.bin");
    Network::random(16, RuleFamily::Ashton, 400.0, 1)
        .save(&path)
        .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let e = Network::load(&path).unwrap_err();
    assert!(matches!(e, NetError::Checksum { .. }), "{e:?}");
    assert!(e.to_string().contains("the file is damaged"), "{e}");
    std::fs::write(&path, &bytes[..100]).unwrap();
    let e = Network::load(&path).unwrap_err();
    assert!(matches!(e, NetError::Length { .. }), "{e:?}");
    assert!(e.to_string().contains("truncated"), "{e}");
    let e = Network::load(&dir.join("missing.bin")).unwrap_err();
    assert!(matches!(e, NetError::Io { .. }), "{e:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn small_run(out: PathBuf, games: u32, shard: konakis::tools::matches::Shard) -> DatagenOptions {
    DatagenOptions {
        out,
        games,
        nodes: 400,
        random_plies: 6,
        seed: 5,
        concurrency: 2,
        shard,
        balance_depth: 2,
        margin: 400,
        max_plies: 120,
        ..DatagenOptions::default()
    }
}

/// Each game's records, by game number.
fn games_of(path: &std::path::Path) -> std::collections::BTreeMap<u32, Vec<Record>> {
    let mut by_game = std::collections::BTreeMap::new();
    for r in data::read(path).unwrap().records {
        by_game.entry(r.game).or_insert_with(Vec::new).push(r);
    }
    by_game
}

#[test]
fn datagen_shards_play_the_whole_run_and_a_killed_run_resumes() {
    use konakis::tools::matches::Shard;
    let dir = scratch("datagen");
    let stop = AtomicBool::new(false);
    let whole = dir.join("whole.bin");
    datagen::run(&small_run(whole.clone(), 6, Shard::WHOLE), &stop, |_| {}).unwrap();
    let expected = games_of(&whole);
    assert!(
        expected.len() >= 4,
        "{} games with positions",
        expected.len()
    );
    for records in expected.values() {
        for r in records {
            let board_ok = r.king < 81 && (r.attackers & r.defenders).is_zero();
            assert!(board_ok && r.family == RuleFamily::Default);
        }
    }

    // The two halves hold the whole run's games, each game the same.
    let mut union = std::collections::BTreeMap::new();
    for k in 0..2 {
        let part = dir.join(format!("part{k}.bin"));
        let shard = Shard { index: k, count: 2 };
        datagen::run(&small_run(part.clone(), 6, shard), &stop, |_| {}).unwrap();
        let games = games_of(&part);
        assert!(games.keys().all(|&g| g as usize % 2 == k));
        union.extend(games);
    }
    assert_eq!(union, expected);

    // Killed in the middle of a game's write: the file is readable, and the same command
    // completes it to the uninterrupted run's games.
    let killed = dir.join("killed.bin");
    std::fs::copy(&whole, &killed).unwrap();
    let len = std::fs::metadata(&killed).unwrap().len();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&killed)
        .unwrap();
    f.set_len(len - 20).unwrap();
    drop(f);
    let torn = data::read(&killed).unwrap();
    assert!(torn.torn_bytes > 0 && torn.games.len() == expected.len() - 1);
    let mut lines = Vec::new();
    let summary = datagen::run(&small_run(killed.clone(), 6, Shard::WHOLE), &stop, |l| {
        lines.push(l.to_string())
    })
    .unwrap();
    assert_eq!(summary.skipped as usize, expected.len() - 1);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("positions/s") && l.contains("ETA"))
    );
    assert_eq!(games_of(&killed), expected);
    // More games later continue the same file.
    let grown = datagen::run(&small_run(killed.clone(), 8, Shard::WHOLE), &stop, |_| {}).unwrap();
    assert_eq!(grown.skipped as usize, expected.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_with_a_classical_share_records_only_the_network_side() {
    use konakis::tools::matches::Shard;
    // The share draws a classical side for about its percentage of games, either side, and
    // leaves the other games alone.
    let sides: Vec<_> = (0..2000)
        .map(|g| datagen::classical_side(5, 30, g))
        .collect();
    let attackers = sides
        .iter()
        .filter(|s| **s == Some(Side::Attackers))
        .count();
    let defenders = sides
        .iter()
        .filter(|s| **s == Some(Side::Defenders))
        .count();
    assert!((250..350).contains(&attackers), "{attackers}");
    assert!((250..350).contains(&defenders), "{defenders}");
    assert!((0..2000).all(|g| datagen::classical_side(5, 0, g).is_none()));

    let dir = scratch("mixed");
    let stop = AtomicBool::new(false);
    let out = dir.join("mixed.bin");
    let options = DatagenOptions {
        classical_share: 100,
        ..small_run(out.clone(), 8, Shard::WHOLE)
    };
    let summary = datagen::run(&options, &stop, |_| {}).unwrap();
    let mixed: u32 = summary.mixed.iter().flatten().sum();
    assert!(
        mixed >= 4 && mixed == summary.played - summary.empty,
        "{summary:?}"
    );
    let games = games_of(&out);
    assert_eq!(games.len() as u32, mixed);
    for (g, records) in &games {
        let classical = datagen::classical_side(5, 100, *g).unwrap();
        for r in records {
            let mover = if r.defenders_to_move {
                Side::Defenders
            } else {
                Side::Attackers
            };
            assert_ne!(mover, classical, "game {g}: a classical side's position");
        }
    }
    assert_eq!(data::read(&out).unwrap().header.classical_share, 100);
    // The same file continued without the share is another run, and is refused.
    let e = datagen::run(&small_run(out.clone(), 8, Shard::WHOLE), &stop, |_| {}).unwrap_err();
    assert!(e.to_string().contains("classical share"), "{e}");
    // With the classical evaluation on both sides there is nothing to mix.
    let classical = DatagenOptions {
        eval: konakis_engine::network::EvalMode::Classical,
        ..options
    };
    let e = datagen::run(&classical, &stop, |_| {}).unwrap_err();
    assert!(e.to_string().contains("--classical-share"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_and_train_on_the_command_line_write_a_network_that_loads() {
    let dir = scratch("cli");
    let data = dir.join("d.bin");
    let net = dir.join("n.bin");
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    // Runs konakis with `args`; it must succeed.
    let konakis = |args: &[&str]| {
        let out = Command::new(KONAKIS).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    konakis(&[
        "datagen",
        "--games",
        "4",
        "--nodes",
        "300",
        "--balance-depth",
        "2",
        "--margin",
        "400",
        "--max-plies",
        "80",
        "--rules",
        "KingCapture=English",
        "--out",
        d,
    ]);
    let out = konakis(&[
        "train",
        "--hidden",
        "256",
        "--epochs",
        "2",
        "--batch",
        "64",
        "--validation",
        "0",
        "--data",
        d,
        "--out",
        n,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("epoch 2: train loss"), "{text}");
    let loaded = Network::load(&net).unwrap();
    assert_eq!((loaded.hidden, loaded.family), (256, RuleFamily::English));
    // Trained further from that network with --init; a missing starting file is one error.
    let further = dir.join("further.bin");
    let f = further.to_str().unwrap();
    konakis(&[
        "train", "--epochs", "1", "--batch", "64", "--init", n, "--data", d, "--out", f,
    ]);
    assert_ne!(Network::load(&further).unwrap(), loaded);
    let missing = Command::new(KONAKIS)
        .args(["train", "--init", "nowhere.nnue", "--data", d, "--out", f])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        !missing.status.success() && err.contains("nowhere.nnue"),
        "{err}"
    );
    // The engine loads it with EvalFile, evaluates and searches with it under its rules.
    let expected = QuantNetwork::<256>::from_float(&loaded)
        .unwrap()
        .evaluate_board(&Board::start(&Rules {
            king_capture: KingCapture::English,
            ..Rules::default()
        }));
    let session = engine_session(&[
        "setoption name KingCapture value English",
        &format!("setoption name EvalFile value {n}"),
        "eval",
        "go depth 4",
        "setoption name ThroneHostile value true",
        "eval",
    ]);
    assert!(
        session.contains(&format!(
            "Network: {expected} cp for the side to move (attackers) (KingCapture=English \
             network, from {n})"
        )),
        "{session}"
    );
    assert!(session.contains("bestmove "), "{session}");
    assert!(
        session.contains("Network: none for these rules (other rules)"),
        "a network serves its own rules only: {session}"
    );
    // A network of another size, a missing file and a damaged one are refused by name; the
    // engine keeps the network it had.
    let small = dir.join("small.nnue");
    Network::random(16, RuleFamily::English, 400.0, 1)
        .save(&small)
        .unwrap();
    let session = engine_session(&[
        "setoption name KingCapture value English",
        &format!("setoption name EvalFile value {n}"),
        &format!("setoption name EvalFile value {}", small.display()),
        &format!(
            "setoption name EvalFile value {}",
            dir.join("none.nnue").display()
        ),
        &format!("setoption name EvalFile value {d}"),
        "eval",
        "setoption name EvalFile value <empty>",
        "eval",
    ]);
    // `<empty>` goes back to the network built in for the rules.
    let built_in = format!(
        "(KingCapture=English network, {})",
        konakis::network::built_in(RuleFamily::English)
            .expect("a network is built in for KingCapture=English")
            .source
    );
    for error in [
        "info string error: setoption: EvalFile: hidden layer of 16 units, expected 256",
        "none.nnue: No such file or directory",
        "info string error: setoption: EvalFile: not a Konakis network file (no KNKNNUE magic)",
        &format!("(KingCapture=English network, from {n})"),
        &built_in,
    ] {
        assert!(session.contains(error), "{error}: {session}");
    }
    // A damaged data file is refused by name.
    std::fs::write(&data, b"KNKDATA\0\x07\0\0\0").unwrap();
    let out = Command::new(KONAKIS)
        .args(["train", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&net)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("too short for a data file header"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn konakis_quantize_writes_the_built_in_file_and_the_engine_evaluates_either_file_alike() {
    let dir = scratch("quantize");
    let nets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/nets");
    let float = nets.join("ashton-2.nnue");
    let quant = dir.join("ashton-2.qnnue");
    let out = Command::new(KONAKIS)
        .arg("quantize")
        .arg(&float)
        .arg("--out")
        .arg(&quant)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&quant).unwrap(),
        std::fs::read(nets.join("ashton-2.qnnue")).unwrap(),
        "the file the engine builds in"
    );
    // The engine, given either file with EvalFile, scores a position the same.
    let score = |file: &std::path::Path| {
        let session = engine_session(&[
            "setoption name Ruleset value Ashton",
            &format!("setoption name EvalFile value {}", file.display()),
            "position startpos moves e4f4 e2e3 d5d6",
            "eval",
        ]);
        session
            .lines()
            .find(|l| l.starts_with("Network: "))
            .unwrap_or_else(|| panic!("no network line in {session}"))
            .split(" cp ")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(score(&quant), score(&float));
    // Refusals: one line each, exit status 1, nothing written.
    let refused = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(KONAKIS)
            .arg("quantize")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let not_net = dir.join("readme.qnnue");
    assert_eq!(
        refused(&[readme.as_os_str(), "--out".as_ref(), not_net.as_os_str()]),
        format!(
            "error: {}: not a Konakis network file (no KNKNNUE magic)\n",
            readme.display()
        )
    );
    assert!(!not_net.exists());
    assert_eq!(
        refused(&[quant.as_os_str()]),
        format!(
            "error: {} would be overwritten: give --out another file\n",
            quant.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small run of `variant`'s games into `out`.
fn variant_run(out: PathBuf, variant: &str, games: u32) -> DatagenOptions {
    DatagenOptions {
        variant: Some(variant.to_string()),
        max_plies: 60,
        ..small_run(out, games, konakis::tools::matches::Shard::WHOLE)
    }
}

#[test]
fn datagen_of_brandubh_writes_its_board_resumes_after_a_kill_and_train_refuses_it() {
    let dir = scratch("datagen-brandubh");
    let stop = AtomicBool::new(false);
    let whole = dir.join("whole.bin");
    let options = variant_run(whole.clone(), "hnefatafl.org-brandubh-7", 6);
    datagen::run(&options, &stop, |_| {}).unwrap();
    let file = data::read(&whole).unwrap();
    assert_eq!(file.header.board, BoardSize::Seven);
    assert_eq!(file.header.family, RuleFamily::Other);
    let expected = games_of(&whole);
    assert!(
        expected.len() >= 4,
        "{} games with positions",
        expected.len()
    );
    // Every position is one of the 7x7 board, with at most Brandubh's 8 attackers and 4
    // defenders.
    let board = Wide::below(49);
    for r in expected.values().flatten() {
        assert!(
            r.king < 49 && (r.attackers & r.defenders).is_zero(),
            "{r:?}"
        );
        assert_eq!(r.attackers | board, board, "{r:?}");
        assert!(r.attackers.count_ones() <= 8 && r.defenders.count_ones() <= 4);
    }

    // Killed in the middle of a game's write, then the same command: the torn game is played
    // again and appended, and the file is the uninterrupted run's.
    let killed = dir.join("killed.bin");
    std::fs::copy(&whole, &killed).unwrap();
    let len = std::fs::metadata(&killed).unwrap().len();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&killed)
        .unwrap();
    f.set_len(len - 20).unwrap();
    drop(f);
    assert_eq!(data::read(&killed).unwrap().games.len(), expected.len() - 1);
    let again = variant_run(killed.clone(), "hnefatafl.org-brandubh-7", 6);
    let summary = datagen::run(&again, &stop, |_| {}).unwrap();
    assert_eq!(summary.skipped as usize, expected.len() - 1);
    assert_eq!(games_of(&killed), expected);
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // Another variant does not continue it.
    let other = variant_run(killed.clone(), "opentafl-brandub-7", 6);
    let e = datagen::run(&other, &stop, |_| {}).unwrap_err();
    assert!(e.to_string().contains("other settings (rules)"), "{e}");

    // `konakis train` on the command line refuses the file with one clear line.
    let out = Command::new(KONAKIS)
        .args(["train", "--data", whole.to_str().unwrap(), "--out"])
        .arg(dir.join("n.nnue"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the positions are of a 7x7 board: networks and win chances are trained on Tablut's 9x9 board only"),
        "{err}"
    );
    assert!(!dir.join("n.nnue").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_on_the_command_line_plays_a_13x13_variant_and_names_bad_variants() {
    let dir = scratch("datagen-13");
    let out = dir.join("d.bin");
    let run = |args: &[&str]| Command::new(KONAKIS).args(args).output().unwrap();
    let done = run(&[
        "datagen",
        "--games",
        "2",
        "--nodes",
        "200",
        "--balance-depth",
        "1",
        "--margin",
        "1000",
        "--max-plies",
        "40",
        "--variant",
        "hnefatafl.org-13",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let file = data::read(&out).unwrap();
    assert_eq!(file.header.board, BoardSize::Thirteen);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!((bytes[8], bytes[12], bytes[22]), (3, 64, 13));
    assert_eq!(bytes.len(), 64 + 64 * file.records.len());
    assert!(!file.records.is_empty());
    for r in &file.records {
        assert!(usize::from(r.king) < 169 && (r.attackers & r.defenders).is_zero());
    }
    let bad = run(&[
        "datagen",
        "--variant",
        "copenhagen-12",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: --variant: no variant 'copenhagen-12' (variants: "),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
