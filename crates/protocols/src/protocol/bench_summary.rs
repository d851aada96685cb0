//! The closing lines of a bench, written by the protocol's `bench` and by `konakis bench`.

use konakis_engine::bench::BenchCount;

/// The closing lines of a bench, here and in `konakis bench`: time, `Nodes searched: N` (which
/// tests and scripts read), `Nodes/second: N`.
pub fn bench_summary(total: &BenchCount) -> [String; 3] {
    [
        format!("Total time (ms): {}", total.elapsed.as_millis()),
        format!("Nodes searched: {}", total.nodes),
        format!("Nodes/second: {}", total.nps()),
    ]
}
