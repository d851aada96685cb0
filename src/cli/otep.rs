//! `konakis otep`: its arguments.

use clap::Args;
use konakis::opentafl::otep::{OtepConfig, serve};
use std::process::ExitCode;

/// Arguments of `konakis otep`.
#[derive(Args, Debug)]
pub struct OtepArgs {
    /// Milliseconds per move when the host sends no clock (an untimed game).
    #[arg(long, value_name = "MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=konakis::search::MAX_THREADS as u64))]
    pub threads: u64,
    /// Transposition table size in MiB.
    #[arg(long = "hash", value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=konakis::search::MAX_HASH_MIB as u64))]
    pub hash_mib: u64,
    /// Never think longer than this many milliseconds per move, whatever the clock allows.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub max_time: Option<u64>,
    /// Play at this strength level, 0 (weakest) to 20 (full strength); docs/levels.md.
    #[arg(long, value_name = "N", conflicts_with = "elo",
          value_parser = clap::value_parser!(i64).range(0..=i64::from(konakis::skill::FULL_STRENGTH)))]
    pub skill: Option<i64>,
    /// Play at this Elo on the scale of docs/levels.md (UCI_LimitStrength with UCI_Elo).
    #[arg(long, value_name = "N")]
    pub elo: Option<i64>,
}

impl From<OtepArgs> for OtepConfig {
    fn from(a: OtepArgs) -> OtepConfig {
        OtepConfig {
            movetime: a.movetime,
            threads: a.threads,
            hash_mib: a.hash_mib,
            max_time: a.max_time,
            skill: a.skill,
            elo: a.elo,
        }
    }
}

/// Runs `konakis otep` on stdin and stdout.
pub fn run(args: OtepArgs) -> ExitCode {
    match serve(std::io::stdin(), std::io::stdout(), args.into()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: OtepArgs,
    }

    fn parse(line: &[&str]) -> Result<OtepConfig, clap::Error> {
        let mut all = vec!["konakis"];
        all.extend_from_slice(line);
        Cli::try_parse_from(all).map(|c| c.args.into())
    }

    #[test]
    fn skill_and_elo_are_taken_and_checked() {
        let c = parse(&[]).unwrap();
        assert_eq!((c.skill, c.elo), (None, None));
        assert_eq!(parse(&["--skill", "3"]).unwrap().skill, Some(3));
        assert_eq!(parse(&["--elo", "700"]).unwrap().elo, Some(700));
        assert!(parse(&["--skill", "21"]).is_err());
        assert!(parse(&["--skill", "-1"]).is_err());
        assert!(parse(&["--skill", "3", "--elo", "700"]).is_err());
    }
}
