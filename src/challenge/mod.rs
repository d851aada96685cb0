//! The Tablut Challenge: Konakis as a player on the University of Bologna's server
//! (`konakis tablut-challenge`).
//!
//! The protocol (see `ASHTON.md`, "Wire protocol"): TCP, White (the defenders) on port 5800 and
//! Black (the attackers) on 5801; every message is a 4-byte big-endian length and UTF-8 JSON
//! ([`wire`]); the player sends its name, then the server sends a state after every move and
//! the player answers with a move when the state says it is its turn ([`state`], [`client`]).
//!
//! # Time
//!
//! The server gives each move `-t` seconds (60 by default), counted from when it sent the
//! state: it checks once a second whether the move has arrived, and after `t` checks the
//! player has lost. Konakis therefore thinks for `seconds` minus a margin, counted from when
//! the state arrived. The margin covers the state's and the move's way through the network, the
//! engine stopping, and a server or machine busy with the other player; by default it is 5 % of
//! the time, at least 1 s and at most 5 s, and never more than half the time (60 s: 3 s; 10 s:
//! 1 s; 1 s: 0.5 s). `--margin` sets it in milliseconds. Thinking less gains nothing in wall
//! time: the server only looks for the move once a second.

pub mod client;
pub mod state;
pub mod wire;

use crate::protocol::options::{self, Config as OptionConfig};
use crate::rules::{Rules, Ruleset};
use crate::types::Side;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// The exit codes of `konakis tablut-challenge`.
pub mod exit {
    /// The server ended the game (WHITEWIN, BLACKWIN or DRAW), whoever won.
    pub const FINISHED: u8 = 0;
    /// A bad command line or option value.
    pub const USAGE: u8 = 2;
    /// No connection to the server.
    pub const CONNECT: u8 = 3;
    /// The connection closed or failed before the game ended. The real server simply exits
    /// when a player runs out of time, and crashes on a malformed move.
    pub const CLOSED: u8 = 4;
    /// The server sent a message Konakis cannot act on (not a frame, not JSON, not a state,
    /// an impossible board), or asked for a move where Konakis has none.
    pub const PROTOCOL: u8 = 5;
    /// The server refused a move of Konakis (the same state came back) and the game then ended.
    pub const REFUSED: u8 = 6;
    /// The server sent nothing within the wait (`--wait`).
    pub const TIMEOUT: u8 = 7;
}

/// The server's fixed port for White.
pub const WHITE_PORT: u16 = 5800;
/// The server's fixed port for Black.
pub const BLACK_PORT: u16 = 5801;
/// How long the server waits for each player to connect, in seconds.
pub const SERVER_CONNECT_WAIT_S: u64 = 300;
/// Slack on every wait for a state beyond the time the server may legitimately take.
pub const WAIT_SLACK_S: u64 = 30;

/// A colour as the challenge names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    /// The defenders (king and soldiers); they move first.
    White,
    /// The attackers.
    Black,
}

impl Colour {
    /// The side this colour plays.
    pub fn side(self) -> Side {
        match self {
            Colour::White => Side::Defenders,
            Colour::Black => Side::Attackers,
        }
    }

    /// The server's port for this colour.
    pub fn default_port(self) -> u16 {
        match self {
            Colour::White => WHITE_PORT,
            Colour::Black => BLACK_PORT,
        }
    }
}

/// Arguments of `konakis tablut-challenge`.
#[derive(Args, Debug)]
#[command(after_help = "\
Exit codes: 0 the server ended the game (WHITEWIN, BLACKWIN or DRAW); 2 bad command line;
3 no connection; 4 connection closed before the end (the server exits silently when a player
runs out of time); 5 a message Konakis cannot act on; 6 the server refused a move of Konakis;
7 no message from the server within the wait.")]
pub struct ChallengeArgs {
    /// The colour to play: white (the defenders, who move first) or black.
    #[arg(long, value_enum)]
    pub color: Colour,
    /// The server's host name or address.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The server's port [default: 5800 for white, 5801 for black].
    #[arg(long)]
    pub port: Option<u16>,
    /// The server's time per move in whole seconds (its -t option).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub seconds: u64,
    /// Milliseconds of the time per move kept back for the network and the server [default:
    /// 5 % of it, from 1,000 to 5,000, at most half].
    #[arg(long, value_name = "MS")]
    pub margin: Option<u64>,
    /// The longest wait in seconds for any message from the server [default: 300 + 2 × seconds
    /// + 30 for the first state, as the server waits for both players; seconds + 30 later].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub wait: Option<u64>,
    /// The name sent to the server (it keeps the letters and digits of the first 10
    /// characters).
    #[arg(long, default_value = "Konakis")]
    pub name: String,
    /// An engine or rule option, Name=Value, as `setoption` takes it (repeatable), e.g.
    /// Threads=4 or Hash=256. The rules are Ruleset=Ashton.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// The default margin in milliseconds for `seconds` per move (see the module docs).
pub fn default_margin_ms(seconds: u64) -> u64 {
    let total = seconds.saturating_mul(1000);
    (total / 20).clamp(1000, 5000).min(total / 2)
}

/// Turns the arguments into a client configuration, or says what is wrong with them.
pub fn config(args: &ChallengeArgs) -> Result<client::Config, String> {
    let ashton = OptionConfig {
        rules: Rules::ashton(),
        ..OptionConfig::default()
    };
    let pairs = args.options.iter().map(|pair| match pair.split_once('=') {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (pair.trim(), None),
    });
    let options = options::apply_all(ashton, pairs).map_err(|e| e.0)?;
    let total_ms = args.seconds.saturating_mul(1000);
    let margin = args
        .margin
        .unwrap_or_else(|| default_margin_ms(args.seconds));
    if margin >= total_ms {
        return Err(format!(
            "--margin {margin} leaves no time to think out of {} s a move",
            args.seconds
        ));
    }
    let first_wait = args
        .wait
        .unwrap_or(SERVER_CONNECT_WAIT_S + 2 * args.seconds + WAIT_SLACK_S);
    let wait = args.wait.unwrap_or(args.seconds + WAIT_SLACK_S);
    Ok(client::Config {
        side: args.color.side(),
        host: args.host.clone(),
        port: args.port.unwrap_or(args.color.default_port()),
        name: args.name.clone(),
        think: Duration::from_millis(total_ms - margin),
        first_wait: Duration::from_secs(first_wait),
        wait: Duration::from_secs(wait),
        connect_timeout: Duration::from_secs(10),
        rules: options.rules,
        settings: options.settings,
    })
}

/// Runs `konakis tablut-challenge`: plays one game, then prints `moves: …` and `result: …` on
/// stdout; progress and errors go to stderr. The exit code is one of [`exit`].
pub fn run(args: ChallengeArgs) -> ExitCode {
    let config = match config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    };
    if config.rules.ruleset != Ruleset::Ashton {
        eprintln!("warning: the Tablut Challenge server plays Ruleset=Ashton");
    }
    if state::clean_name(&config.name) != config.name {
        eprintln!(
            "note: the server will call Konakis '{}' (letters and digits of the first 10 \
             characters)",
            state::clean_name(&config.name)
        );
    }
    let outcome = client::play(&config, &mut std::io::stderr());
    match &outcome.ending {
        client::Ending::Over(_) => {}
        client::Ending::ConnectFailed(e)
        | client::Ending::Closed(e)
        | client::Ending::Protocol(e)
        | client::Ending::TimedOut(e) => eprintln!("error: {e}"),
    }
    let moves: Vec<String> = outcome.record.iter().map(|e| e.to_string()).collect();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "moves: {}", moves.join(" "));
    let _ = writeln!(out, "result: {}", outcome.result_text(config.side));
    ExitCode::from(outcome.exit_code())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ChallengeArgs,
    }

    fn parse(line: &[&str]) -> ChallengeArgs {
        let mut all = vec!["konakis"];
        all.extend_from_slice(line);
        Cli::try_parse_from(all).unwrap().args
    }

    #[test]
    fn the_default_margin_is_five_percent_within_one_to_five_seconds_and_at_most_half() {
        assert_eq!(default_margin_ms(60), 3000);
        assert_eq!(default_margin_ms(10), 1000);
        assert_eq!(default_margin_ms(200), 5000);
        assert_eq!(default_margin_ms(2), 1000);
        assert_eq!(default_margin_ms(1), 500);
    }

    #[test]
    fn defaults_follow_the_server() {
        let c = config(&parse(&["--color", "white"])).unwrap();
        assert_eq!(
            (c.side, c.port, c.host.as_str()),
            (Side::Defenders, 5800, "127.0.0.1")
        );
        assert_eq!(c.think, Duration::from_millis(57_000));
        assert_eq!(c.first_wait, Duration::from_secs(300 + 120 + 30));
        assert_eq!(c.wait, Duration::from_secs(90));
        assert_eq!(c.rules, Rules::ashton());
        let c = config(&parse(&["--color", "black", "--seconds", "10"])).unwrap();
        assert_eq!((c.side, c.port), (Side::Attackers, 5801));
        assert_eq!(c.think, Duration::from_millis(9_000));
    }

    #[test]
    fn options_margin_and_wait_are_applied_and_checked() {
        let c = config(&parse(&[
            "--color",
            "black",
            "--port",
            "7000",
            "--seconds",
            "2",
            "--margin",
            "1500",
            "--wait",
            "5",
            "--option",
            "Threads=2",
            "--option",
            "hash=32",
        ]))
        .unwrap();
        assert_eq!(c.port, 7000);
        assert_eq!(c.think, Duration::from_millis(500));
        assert_eq!(
            (c.first_wait, c.wait),
            (Duration::from_secs(5), Duration::from_secs(5))
        );
        assert_eq!((c.settings.threads, c.settings.hash_mib), (2, 32));
        let e = config(&parse(&["--color", "white", "--option", "Threads=0"])).unwrap_err();
        assert!(e.contains("Threads"), "{e}");
        let e = config(&parse(&[
            "--color",
            "white",
            "--option",
            "FirstMove=Attackers",
        ]))
        .unwrap_err();
        assert!(e.contains("fixed by Ruleset=Ashton"), "{e}");
        let e = config(&parse(&[
            "--color",
            "white",
            "--seconds",
            "1",
            "--margin",
            "1000",
        ]))
        .unwrap_err();
        assert!(e.contains("no time"), "{e}");
    }
}
