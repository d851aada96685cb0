//! `konakis tablut-challenge`: its arguments, and the printing of a session's end.

use clap::{Args, ValueEnum};
use konakis::challenge::exit;
use konakis::challenge::{ChallengeOptions, Colour, client, config, state};
use konakis::rules::Ruleset;
use std::io::Write;
use std::process::ExitCode;

/// A colour as the challenge names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourArg {
    /// The defenders (king and soldiers); they move first.
    White,
    /// The attackers.
    Black,
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
    #[arg(long = "color", value_name = "COLOR", value_enum)]
    pub colour: ColourArg,
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
    /// Play at this strength level, 0 (weakest) to 20 (full strength); docs/levels.md. The
    /// same as --option 'Skill Level=N'.
    #[arg(long, value_name = "N", conflicts_with = "elo",
          value_parser = clap::value_parser!(i64).range(0..=i64::from(konakis::skill::FULL_STRENGTH)))]
    pub skill: Option<i64>,
    /// Play at this Elo on the scale of docs/levels.md; the same as --option
    /// UCI_LimitStrength=true --option UCI_Elo=N.
    #[arg(long, value_name = "N")]
    pub elo: Option<i64>,
}

impl From<ChallengeArgs> for ChallengeOptions {
    fn from(a: ChallengeArgs) -> ChallengeOptions {
        ChallengeOptions {
            colour: match a.colour {
                ColourArg::White => Colour::White,
                ColourArg::Black => Colour::Black,
            },
            host: a.host,
            port: a.port,
            seconds: a.seconds,
            margin: a.margin,
            wait: a.wait,
            name: a.name,
            options: {
                let mut options = a.options;
                if let Some(skill) = a.skill {
                    options.push(format!("Skill Level={skill}"));
                }
                if let Some(elo) = a.elo {
                    options.push("UCI_LimitStrength=true".to_string());
                    options.push(format!("UCI_Elo={elo}"));
                }
                options
            },
        }
    }
}

/// Runs `konakis tablut-challenge`: plays one game, then prints `moves: …` and `result: …` on
/// stdout; progress and errors go to stderr. The exit code is one of [`exit`].
pub fn run(args: ChallengeArgs) -> ExitCode {
    let config = match config(&args.into()) {
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
        client::SessionEnd::Over(_) => {}
        client::SessionEnd::ConnectFailed(e)
        | client::SessionEnd::Closed(e)
        | client::SessionEnd::Protocol(e)
        | client::SessionEnd::TimedOut(e) => eprintln!("error: {e}"),
    }
    let moves: Vec<String> = outcome.record.iter().map(|e| e.to_string()).collect();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "moves: {}", moves.join(" "));
    let _ = writeln!(out, "result: {}", outcome.result_text(config.side));
    ExitCode::from(exit::code(&outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use std::time::Duration;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ChallengeArgs,
    }

    fn parse(line: &[&str]) -> ChallengeOptions {
        let mut all = vec!["konakis"];
        all.extend_from_slice(line);
        Cli::try_parse_from(all).unwrap().args.into()
    }

    #[test]
    fn the_defaults_are_those_of_the_library_and_every_flag_is_taken() {
        assert_eq!(
            parse(&["--color", "white"]),
            ChallengeOptions::new(Colour::White)
        );
        let all = parse(&[
            "--color",
            "black",
            "--host",
            "example.org",
            "--port",
            "7000",
            "--seconds",
            "2",
            "--margin",
            "1500",
            "--wait",
            "5",
            "--name",
            "K2",
            "--option",
            "Threads=2",
            "--option",
            "hash=32",
        ]);
        assert_eq!(
            all,
            ChallengeOptions {
                colour: Colour::Black,
                host: "example.org".into(),
                port: Some(7000),
                seconds: 2,
                margin: Some(1500),
                wait: Some(5),
                name: "K2".into(),
                options: vec!["Threads=2".into(), "hash=32".into()],
            }
        );
        let c = config(&parse(&["--color", "white"])).unwrap();
        assert_eq!(c.think, Duration::from_millis(57_000));
    }

    #[test]
    fn the_colour_flag_keeps_the_challenge_spelling_color_in_help_and_errors() {
        use clap::CommandFactory;
        let help = Cli::command().render_help().to_string();
        assert!(help.contains("--color <COLOR>"), "{help}");
        assert!(
            !help.contains("colour <") && !help.contains("COLOUR"),
            "{help}"
        );
        let missing = Cli::try_parse_from(["konakis"]).err().unwrap().to_string();
        assert!(missing.contains("--color <COLOR>"), "{missing}");
    }

    #[test]
    fn skill_and_elo_go_through_the_option_table() {
        let c = config(&parse(&["--color", "white", "--skill", "4"])).unwrap();
        assert_eq!(c.settings.skill.level, 4);
        assert_eq!(c.settings.skill.strength(), Some(4.0));
        let (lo, hi) = konakis::skill::curve().elo_range();
        let mid = (lo + hi) / 2;
        let c = config(&parse(&["--color", "black", "--elo", &mid.to_string()])).unwrap();
        assert!(c.settings.skill.limit_strength);
        assert_eq!(c.settings.skill.elo, mid);
        let e = config(&parse(&[
            "--color",
            "black",
            "--elo",
            &(hi + 1).to_string(),
        ]))
        .unwrap_err();
        assert!(e.to_string().contains("UCI_Elo"), "{e}");
        let mut all = vec!["konakis", "--color", "white", "--skill", "21"];
        assert!(Cli::try_parse_from(&all).is_err());
        all.truncate(3);
        all.extend(["--skill", "2", "--elo", "500"]);
        assert!(
            Cli::try_parse_from(&all).is_err(),
            "--skill and --elo conflict"
        );
    }
}
