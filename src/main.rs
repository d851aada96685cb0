use konakis::{Board, Rules, perft::perft};
use std::time::Instant;

fn main() {
    let rules = Rules::default();
    let board = Board::start(&rules);
    print!("{}", board.diagram());
    println!("{}", board.to_fen());
    for d in 1..=5 {
        let t = Instant::now();
        let n = perft(&board, &rules, d);
        println!("perft({d}) = {n} in {:.3}s", t.elapsed().as_secs_f64());
    }
}
