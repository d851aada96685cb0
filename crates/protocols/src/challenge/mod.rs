//! The Tablut Challenge: Konakis as a player on the University of Bologna's server
//! (`konakis tablut-challenge`).
//!
//! The protocol (docs/tablut-challenge.md describes it): TCP, White (the defenders) on port
//! 5800 and Black (the attackers) on 5801; every message is a 4-byte big-endian length and
//! UTF-8 JSON ([`wire`]); the player sends its name, then the server sends a state after every
//! move and the player answers with a move when the state says it is its turn ([`state`]).
//! The [`machine`] decides what to do with each state, without a socket; the [`client`]
//! carries states and moves over TCP.
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
pub mod machine;
pub mod state;
pub mod wire;

use konakis_core::rules::Rules;
use konakis_core::types::Side;
use konakis_engine::options::{self, OptionError, Options};
use std::fmt;
use std::time::Duration;

/// The server's fixed port for White.
pub const WHITE_PORT: u16 = 5800;
/// The server's fixed port for Black.
pub const BLACK_PORT: u16 = 5801;
/// How long the server waits for each player to connect, in seconds.
pub const SERVER_CONNECT_WAIT_S: u64 = 300;
/// Slack on every wait for a state beyond the time the server may legitimately take.
pub const WAIT_SLACK_S: u64 = 30;

/// A colour as the challenge names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// What `konakis tablut-challenge` is asked for (its command line's flags of the same names,
/// `colour` being `--color` as the challenge spells it; see there for the defaults of the
/// options left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// The colour to play.
    pub colour: Colour,
    /// The server's host name or address.
    pub host: String,
    /// The server's port [default: the colour's].
    pub port: Option<u16>,
    /// The server's time per move in whole seconds (its -t option).
    pub seconds: u64,
    /// Milliseconds of the time per move kept back [default: [`default_margin_ms`]].
    pub margin: Option<u64>,
    /// The longest wait in seconds for any message from the server [default: 300 + 2 ×
    /// seconds + 30 for the first state, seconds + 30 later].
    pub wait: Option<u64>,
    /// The name sent to the server.
    pub name: String,
    /// Engine and rule options, Name=Value, as `setoption` takes them.
    pub options: Vec<String>,
}

impl ChallengeOptions {
    /// The options of `konakis tablut-challenge --color <colour>` alone: the server on this
    /// machine at the colour's port, 60 s a move, the name Konakis.
    pub fn new(colour: Colour) -> ChallengeOptions {
        ChallengeOptions {
            colour,
            host: "127.0.0.1".to_string(),
            port: None,
            seconds: 60,
            margin: None,
            wait: None,
            name: "Konakis".to_string(),
            options: Vec::new(),
        }
    }
}

/// The default margin in milliseconds for `seconds` per move (see the module docs).
pub fn default_margin_ms(seconds: u64) -> u64 {
    let total = seconds.saturating_mul(1000);
    (total / 20).clamp(1000, 5000).min(total / 2)
}

/// What is wrong with the arguments of `konakis tablut-challenge` ([`config`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgsError {
    /// An `--option` is unknown or its value is not allowed (the option table's words).
    Option(OptionError),
    /// `--margin` is at least the whole time per move.
    NoTimeToThink {
        /// The margin in milliseconds.
        margin_ms: u64,
        /// The time per move in seconds.
        seconds: u64,
    },
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgsError::Option(e) => write!(f, "{e}"),
            ArgsError::NoTimeToThink { margin_ms, seconds } => write!(
                f,
                "--margin {margin_ms} leaves no time to think out of {seconds} s a move"
            ),
        }
    }
}

impl std::error::Error for ArgsError {}

/// Turns the arguments into a client configuration, or says what is wrong with them.
pub fn config(args: &ChallengeOptions) -> Result<client::ClientConfig, ArgsError> {
    let ashton = Options {
        rules: Rules::ashton(),
        ..Options::default()
    };
    let pairs = args.options.iter().map(|pair| match pair.split_once('=') {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (pair.trim(), None),
    });
    let options = options::apply_all(ashton, pairs).map_err(ArgsError::Option)?;
    let total_ms = args.seconds.saturating_mul(1000);
    let margin = args
        .margin
        .unwrap_or_else(|| default_margin_ms(args.seconds));
    if margin >= total_ms {
        return Err(ArgsError::NoTimeToThink {
            margin_ms: margin,
            seconds: args.seconds,
        });
    }
    let first_wait = args
        .wait
        .unwrap_or(SERVER_CONNECT_WAIT_S + 2 * args.seconds + WAIT_SLACK_S);
    let wait = args.wait.unwrap_or(args.seconds + WAIT_SLACK_S);
    Ok(client::ClientConfig {
        side: args.colour.side(),
        host: args.host.clone(),
        port: args.port.unwrap_or(args.colour.default_port()),
        name: args.name.clone(),
        think: Duration::from_millis(total_ms - margin),
        first_wait: Duration::from_secs(first_wait),
        wait: Duration::from_secs(wait),
        connect_timeout: Duration::from_secs(10),
        rules: options.rules,
        settings: options.settings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options a command line gives (the binary's parser is checked against
    /// [`ChallengeOptions::new`] there).
    fn parse(line: &[&str]) -> ChallengeOptions {
        let mut o = ChallengeOptions::new(Colour::White);
        for pair in line.chunks(2) {
            let value = pair[1];
            match pair[0] {
                "--color" if value == "white" => o.colour = Colour::White,
                "--color" if value == "black" => o.colour = Colour::Black,
                "--port" => o.port = Some(value.parse().unwrap()),
                "--seconds" => o.seconds = value.parse().unwrap(),
                "--margin" => o.margin = Some(value.parse().unwrap()),
                "--wait" => o.wait = Some(value.parse().unwrap()),
                "--option" => o.options.push(value.to_string()),
                flag => panic!("{flag} {value}"),
            }
        }
        o
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
        assert!(matches!(e, ArgsError::Option(_)));
        assert!(e.to_string().contains("Threads"), "{e}");
        let e = config(&parse(&[
            "--color",
            "white",
            "--option",
            "FirstMove=Attackers",
        ]))
        .unwrap_err();
        assert!(e.to_string().contains("fixed by Ruleset=Ashton"), "{e}");
        let e = config(&parse(&[
            "--color",
            "white",
            "--seconds",
            "1",
            "--margin",
            "1000",
        ]))
        .unwrap_err();
        assert_eq!(
            e,
            ArgsError::NoTimeToThink {
                margin_ms: 1000,
                seconds: 1
            }
        );
        assert_eq!(
            e.to_string(),
            "--margin 1000 leaves no time to think out of 1 s a move"
        );
    }
}
