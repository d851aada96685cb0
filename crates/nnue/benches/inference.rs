//! The integer network's cost: a full refresh of the accumulator, a child position's
//! accumulator from its parent's and the move's change (what the search does for a move), and
//! the output layer, for hidden layers of 128 and 256 units.
//!
//! `cargo bench -p konakis-nnue --bench inference`
//!
//! Criterion measures the wall clock. On a machine shared with other work that counts the time
//! the thread waits for a CPU, so after criterion the bench also prints each operation's CPU
//! time over two million runs, from the kernel's count of the time the thread has run
//! (`/proc/thread-self/schedstat`, Linux).

use criterion::{Criterion, black_box, criterion_group};
use konakis_core::board::Board;
use konakis_core::rules::Rules;
use konakis_core::types::Move;
use konakis_nnue::RuleFamily;
use konakis_nnue::network::Network;
use konakis_nnue::quant::{Accumulator, Delta, QuantNetwork};

/// Nanoseconds the calling thread has run on a CPU, where the kernel tells.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
}

/// The least CPU time per run of `f` over five rounds of two million runs.
fn cpu_time_per_run(mut f: impl FnMut()) -> Option<f64> {
    const RUNS: u64 = 2_000_000;
    let mut best = u64::MAX;
    for _ in 0..5 {
        let start = cpu_ns()?;
        for _ in 0..RUNS {
            f();
        }
        best = best.min(cpu_ns()? - start);
    }
    Some(best as f64 / RUNS as f64)
}

/// The start position after d1d3 (25 pieces: the most inputs a refresh sums).
fn position() -> Board {
    let rules = Rules::default();
    let mut board = Board::start(&rules);
    board.play(&rules, Move::parse("d1d3").unwrap());
    board
}

/// What every measurement starts from: a random network of `H` hidden units, the position,
/// one of its moves with the position after it and what it captured, and the position's
/// accumulator.
struct Setup<const H: usize> {
    net: QuantNetwork<H>,
    board: Board,
    after: Board,
    mv: Move,
    captured: konakis_core::Bitboard,
    acc: Accumulator<H>,
}

fn setup<const H: usize>() -> Setup<H> {
    let rules = Rules::default();
    let net =
        QuantNetwork::<H>::from_float(&Network::random(H, RuleFamily::Default, 400.0, 1)).unwrap();
    let board = position();
    let mv = board.legal_moves(&rules)[3];
    let mut after = board;
    let captured = after.play(&rules, mv);
    let mut acc = Accumulator::new(&net);
    acc.refresh(&net, &board);
    Setup {
        net,
        board,
        after,
        mv,
        captured,
        acc,
    }
}

/// What a search does for a move: the child's accumulator written from its parent's and the
/// move's change, in one pass.
fn child<const H: usize>(s: &Setup<H>, out: &mut Accumulator<H>) {
    let delta = Delta::of(black_box(&s.board), &s.after, black_box(s.mv), s.captured)
        .expect("a move of the position");
    out.set_child(&s.net, &s.acc, &delta);
}

fn refresh<const H: usize>(s: &Setup<H>) -> Accumulator<H> {
    let mut a = Accumulator::new(&s.net);
    a.refresh(&s.net, black_box(&s.board));
    a
}

fn output<const H: usize>(s: &Setup<H>) -> i32 {
    s.net.evaluate(black_box(&s.acc), s.board.side_to_move())
}

fn bench_size<const H: usize>(c: &mut Criterion) {
    let s = setup::<H>();
    c.bench_function(&format!("refresh {H}"), |b| b.iter(|| refresh(&s)));
    let mut out = s.acc;
    c.bench_function(&format!("child from parent {H}"), |b| {
        b.iter(|| child(&s, &mut out))
    });
    black_box(&out);
    c.bench_function(&format!("output {H}"), |b| b.iter(|| output(&s)));
}

fn benches(c: &mut Criterion) {
    bench_size::<128>(c);
    bench_size::<256>(c);
}

criterion_group! {
    name = inference;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
fn cpu_times<const H: usize>() {
    let s = setup::<H>();
    let refresh = cpu_time_per_run(|| {
        black_box(refresh(&s));
    });
    let mut out = s.acc;
    let child = cpu_time_per_run(|| child(&s, &mut out));
    black_box(&out);
    let output = cpu_time_per_run(|| {
        black_box(output(&s));
    });
    if let (Some(r), Some(u), Some(o)) = (refresh, child, output) {
        println!(
            "CPU time, {H} hidden: refresh {r:.1} ns, child from parent {u:.1} ns, output {o:.1} ns"
        );
    }
}

fn main() {
    inference();
    Criterion::default().configure_from_args().final_summary();
    cpu_times::<128>();
    cpu_times::<256>();
}
