//! Move-generation benchmarks: perft from the start and from middle-game positions, legal move
//! generation, move counting and copy-make `play`.
//!
//! Run with `cargo bench --bench movegen` (add `-- --quick` for a short run).

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use konakis::perft::perft;
use konakis::{Board, Rules};
use std::hint::black_box;

/// Middle-game positions reached by semi-random play under the default rules (moves that end
/// the game at once avoided, captures preferred now and then), chosen because some of their
/// legal moves capture.
const MIDGAME: [(&str, &str); 3] = [
    (
        "king_on_throne_attackers_to_move",
        "3bbb3/2w2wb2/1bw3b2/3w4b/b3Kwwbb/3wb4/6b2/4b4/3bbb3 b 24",
    ),
    (
        "king_out_attackers_to_move",
        "4bb3/2bbK2b1/2b4w1/3w1wb1b/5b2b/9/4ww3/w5b2/3b1b1b1 b 36",
    ),
    (
        "king_on_throne_defenders_to_move",
        "w3b4/2b6/1w7/b5w1b/b2bKb1bb/bbww3b1/4ww3/6b2/3bbb3 w 27",
    ),
];

/// The start position and the middle-game positions, checked: each middle-game position is
/// still being played and has at least one capturing move.
fn positions(rules: &Rules) -> Vec<(&'static str, Board)> {
    let mut out = vec![("start", Board::start(rules))];
    for (name, fen) in MIDGAME {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{name}: '{fen}': {e}"));
        assert!(!board.is_won(rules), "{name}: the game is already won");
        let captures = board
            .legal_moves(rules)
            .iter()
            .filter(|&&mv| {
                let mut child = board;
                let taken = child.play(rules, mv);
                !taken.is_empty() || child.king().is_none()
            })
            .count();
        assert!(captures > 0, "{name}: no capture is available in '{fen}'");
        out.push((name, board));
    }
    out
}

fn bench_perft(c: &mut Criterion) {
    let rules = Rules::default();
    let start = Board::start(&rules);
    assert_eq!(perft(&start, &rules, 5), 1_611_674_360);

    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(1_611_674_360));
    group.bench_function("start_depth5", |b| {
        b.iter(|| perft(black_box(&start), &rules, 5))
    });
    for (name, board) in positions(&rules).into_iter().skip(1) {
        let nodes = perft(&board, &rules, 4);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("depth4", name), &board, |b, board| {
            b.iter(|| perft(black_box(board), &rules, 4))
        });
    }
    group.finish();
}

fn bench_legal_moves(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("legal_moves");
    for (name, board) in positions(&rules) {
        group.throughput(Throughput::Elements(board.legal_moves(&rules).len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &board, |b, board| {
            b.iter(|| black_box(board).legal_moves(&rules))
        });
    }
    group.finish();
}

fn bench_count_moves(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("count_moves");
    for (name, board) in positions(&rules) {
        assert_eq!(
            board.count_moves(&rules) as usize,
            board.legal_moves(&rules).len()
        );
        group.bench_with_input(BenchmarkId::from_parameter(name), &board, |b, board| {
            b.iter(|| black_box(board).count_moves(&rules))
        });
    }
    group.finish();
}

/// Copy-make: copy the board and play one move, for every legal move of the position.
fn bench_play(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("play_all_moves");
    for (name, board) in positions(&rules) {
        let moves = board.legal_moves(&rules);
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &board, |b, board| {
            b.iter(|| {
                for &mv in moves.iter() {
                    let mut child = *black_box(board);
                    black_box(child.play(&rules, black_box(mv)));
                    black_box(&child);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_legal_moves,
    bench_count_moves,
    bench_play
);
criterion_main!(benches);
