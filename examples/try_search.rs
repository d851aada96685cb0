use konakis::search::{Engine, Limits, Settings, SmpMode};
use konakis::{Game, Rules};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = Rules::default();
    let game = Game::start(rules);
    let mut e = Engine::new(Settings {
        threads,
        ..Settings::default()
    });
    let t = std::time::Instant::now();
    e.go(
        &game,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        |r| println!("{r:?}"),
    )
    .unwrap();
    e.wait();
    println!("{:?} nodes {}", t.elapsed(), e.nodes());
}
