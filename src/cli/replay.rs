//! `konakis replay`: reads an `.otg` file and replays every game in it under Konakis' referee,
//! printing the moves, the result and its reason.

use clap::Args;
use konakis::board::Status;
use konakis::geometry::Geometry;
use konakis::opentafl::notation;
use konakis::opentafl::otg::{
    RulesSource, describe_winner, parse_otg, record_board, replay, result_tag,
};
use konakis_engine::{BoardTask, Playable, on_board};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `konakis replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The `.otg` file (OpenTafl's game record; `konakis match --records` writes them too).
    pub file: PathBuf,
}

/// Runs `konakis replay`. The exit status is 0 when every game replays and ends as its
/// `result` tag says (or the tag says nothing), 1 otherwise. The games are read on the board
/// the first game's rules tag names (7x7 to 13x13; Tablut's 9x9 when it names none).
pub fn run(args: ReplayArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    match record_board(&text) {
        Ok(size) => on_board(size, Replaying { args, text }),
        Err(side) => {
            eprintln!(
                "error: {}: a {side}x{side} board, which Konakis does not play",
                args.file.display()
            );
            ExitCode::FAILURE
        }
    }
}

/// [`replay_all`] on the board of the file's games.
struct Replaying {
    args: ReplayArgs,
    text: String,
}

impl BoardTask for Replaying {
    type Output = ExitCode;

    fn run<G: Playable>(self) -> ExitCode {
        replay_all::<G>(&self.args, &self.text)
    }
}

/// Replays every game of `text` on a board of size `G`.
fn replay_all<G: Geometry>(args: &ReplayArgs, text: &str) -> ExitCode {
    let games = match parse_otg::<G>(text) {
        Ok(g) if g.is_empty() => {
            eprintln!("error: {} holds no game", args.file.display());
            return ExitCode::FAILURE;
        }
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let mut ok = true;
    for (i, record) in games.iter().enumerate() {
        if games.len() > 1 {
            if i > 0 {
                println!();
            }
            println!("game {} of {}", i + 1, games.len());
        }
        let r = match replay(record) {
            Ok(r) => r,
            Err(e) => {
                println!("error: {e}");
                ok = false;
                continue;
            }
        };
        match (r.source, record.tag("konakis-variant")) {
            (RulesSource::RulesTag, _) => println!("rules: {} (from the rules tag)", r.rules),
            (RulesSource::KonakisTag, None) => {
                println!("rules: {} (from the konakis-rules tag)", r.rules)
            }
            (RulesSource::KonakisTag, Some(id)) => {
                let set = record.tag("konakis-rules").unwrap_or_default().trim();
                let set = if set.is_empty() { "none" } else { set };
                println!(
                    "rules: the variant {id}, options set away from it: {set} (from the \
                     konakis-variant and konakis-rules tags)"
                )
            }
        }
        println!(
            "start: {} ({} to move)",
            notation::position_record(&r.start),
            r.start.side_to_move()
        );
        for (turn, pair) in r.moves.chunks(2).enumerate() {
            println!("{}. {}", turn + 1, pair.join(" "));
        }
        let plies = r.moves.len();
        match r.status {
            Status::Ongoing => println!("result: none by the rules after {plies} plies"),
            s => println!("result: {s} (after {plies} plies)"),
        }
        if let Some(tagged) = result_tag(record) {
            let referee = match r.status {
                Status::Win(side, _) => Some(Some(side)),
                Status::Draw(_) => Some(None),
                Status::Ongoing => None,
            };
            match referee {
                Some(w) if w == tagged => {
                    println!("result tag: {} (agrees)", describe_winner(tagged))
                }
                Some(_) => {
                    println!(
                        "result tag: {} (disagrees with the referee)",
                        describe_winner(tagged)
                    );
                    ok = false;
                }
                None => println!(
                    "result tag: {} (decided off the board: resignation, time or adjudication)",
                    describe_winner(tagged)
                ),
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
