//! Embeds Konakis in a program through the one engine, as a GUI would: choose the rules, set
//! up a position from the start and a few moves, think for 100 ms, then print the principal
//! variation and the best move.
//!
//! Run it with `cargo run --release --example embed`.

use konakis::prelude::*;
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    // The option table's defaults: default rules, 16 MiB of table, one thread.
    let mut engine = Engine::new(Options::default())?;
    // Any `uci` option, by name and value, checked by the same table as `setoption`.
    engine.set_option("Ruleset", Some("Ashton"))?;
    engine.set_option("Hash", Some("32"))?;

    // The Tablut Challenge's start (white moves first) and two moves.
    let moves = ["e3f3", "d1d3"]
        .iter()
        .map(|text| Move::parse(text))
        .collect::<Result<Vec<_>, _>>()?;
    engine.set_position(Start::StartPos, &moves)?;
    println!(
        "position {}\n{}",
        engine.board().to_fen(),
        engine.board().diagram()
    );

    let limits = Limits {
        movetime: Some(100),
        ..Limits::default()
    };
    // Search on this thread; every report arrives through the callback as it is made.
    let outcome = engine.search(limits, Cancel::Never, |_id, report| {
        if let Report::Info(info) = report {
            let score = match info.score {
                Score::Cp(cp) => format!("cp {cp}"),
                Score::Mate(moves) => format!("mate {moves}"),
            };
            println!("depth {} score {score} nodes {}", info.depth, info.nodes);
        }
    })?;

    let pv: Vec<String> = outcome
        .info
        .map(|info| info.pv.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    println!("pv {}", pv.join(" "));
    match outcome.best {
        Some(best) => println!("bestmove {best}"),
        None => println!("no move: the game is over"),
    }
    Ok(())
}
