//! The command line of `konakis match`, in the style of cutechess-cli and fastchess: flags
//! followed by groups of `key=value` settings (`--engine name=a cmd=./a tc=10+0.1`).
//!
//! Clap's derive cannot keep the groups of a repeated flag apart, so [`MatchArgs`] implements
//! [`clap::Args`] by hand with `get_occurrences`.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use konakis::tools::matches::merge::{self, MergeOptions};
use konakis::tools::matches::report::Progress;
use konakis::tools::matches::stats::SprtVerdict;
use konakis::tools::matches::{self, Event, Finish, MatchOptions};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Arguments of `konakis match` (boxed: the command-line enum stays small), or of its
/// `merge` subcommand.
#[derive(Clone, Debug, Default)]
pub struct MatchArgs(
    pub Box<MatchOptions>,
    pub Option<MergeOptions>,
    pub Option<(PathBuf, Vec<PathBuf>)>,
);

/// The exit codes of `konakis match merge`, for scripts that run an SPRT in waves.
pub mod merge_exit {
    /// Merged, every shard present; with `--sprt`: H1 accepted.
    pub const DONE: u8 = 0;
    /// Bad input, a refused or unreadable shard.
    pub const ERROR: u8 = 1;
    /// With `--sprt`: H0 accepted.
    pub const H0: u8 = 3;
    /// With `--sprt`: no verdict yet (run more shards). Without: shards are missing.
    pub const MORE: u8 = 4;
}

const MERGE_HELP: &str = "\
Adds up the JSON files of the shards of one match (konakis match ... --shard K/N --json
FILE) into one report: the same tables, pair counts, Elo, LOS and SPRT as one run of the
same pairs. Refuses files of different matches (the JSON's fingerprint: engines, options,
openings, time controls, rules, games, shard count), the same shard twice and interrupted
shards; lists the shards that are missing (on stderr) and reports on those given.

Exit status: 0 merged with every shard present; 4 shards missing; 1 an error. With --sprt
(or when the shards ran one): 0 H1 accepted, 3 H0 accepted, 4 no verdict yet, whether or not
shards are missing, so a script can run waves of shards until the test decides.";

const ENGINE_HELP: &str = "\
An engine (give one --engine per engine, at least two). Settings:
  name=NAME         name in tables and records (default: the command's file name)
  cmd=PROGRAM       the program to start (a relative path is taken from dir= if given)
  arg=ARG           an argument for it (repeat for several)
  dir=DIR           its working directory
  option.NAME=VALUE sent as 'setoption name NAME value VALUE' (e.g. option.Hash=64)
  tc=[M/]S[+I]      a clock: S seconds (or m:ss) for the game, or for every M moves,
                    plus I seconds per move (e.g. tc=5+0.05, tc=40/60)
  st=S              a fixed time per move (go movetime)
  depth=N           go depth N
  nodes=N           go nodes N
  timemargin=MS     how many milliseconds past its time an engine may answer before it
                    loses on time (default: a tenth of its time per move, at least 250,
                    which covers what a loaded machine adds; 0 for none)
  proto=PROTOCOL    the protocol it speaks: uci (the line protocol of protocol.md, the
                    default), otep (OpenTafl's engine protocol, as 'konakis otep' and
                    OpenTafl engines speak it; needs tc= or st=, takes no option.X=, and
                    the rules must fit an OpenTafl rules string) or tablut-challenge (a
                    Tablut Challenge agent; see below)
  settle=MS         OTEP engines only (default 100, 0 = off): after the engine's move,
                    send it nothing more until it has written nothing for MS ms (at
                    most 10*MS after its move, however much it writes); the wait counts
                    on no clock. OpenTafl 0.4.8's AI still prints statistics after its
                    move, and crashes (or plays on a wrong board) when the next 'play'
                    comes within a few milliseconds
Limits combine: depth=8 tc=10+0.1 sends both. Every engine needs at least one limit.
Quote a setting with spaces: 'option.Move Overhead=10'. An engine's time runs from the
moment 'go' is written to the moment its 'bestmove' line arrives ('play' to 'move'
for OTEP engines). On Linux a move that arrives past its time plus timemargin is not
charged the time the engine's threads (its process and descendants) spent waiting for a
CPU, read from /proc/PID/task/TID/schedstat, nor the runner's own wait to read it: a busy
machine's delay, not the engine's. An engine that sleeps or computes past its time still
loses. The JSON's forgiven_ms and a note under the summary say how much was forgiven.";

const AFTER_HELP: &str = "\
GAMES
  Every opening is played twice, the engines swapping sides (Tablut is asymmetric), so games
  come in pairs and --games is rounded up to an even number. Round robin by default; with
  --gauntlet the first engine plays each of the others. Without --openings every game starts
  from the start position.

TABLUT CHALLENGE AGENTS (proto=tablut-challenge)
  The runner plays the Tablut Challenge server's part: for each game it listens, starts the
  agent with {color} (white/black), {port} and {seconds} filled in in its arg= values, reads
  its name, sends a state after every move (4-byte length + JSON, rank 1 first) and reads its
  moves. It needs --rules Ruleset=Ashton and st=S as the agent's only limit ({seconds} is S
  rounded up). With {port} the runner picks a free port per game; an agent without {port}
  connects to the fixed ports 5800 (white) / 5801 (black), so only one game can run at a
  time (--concurrency 1). Example, Konakis itself as the agent:
    --engine name=wire cmd=./konakis proto=tablut-challenge st=5 arg=tablut-challenge
             arg=--color arg={color} arg=--port arg={port} arg=--seconds arg={seconds}

GAMES OF THE TAFL FAMILY (--variant)
  --variant NAME plays a game of 'konakis variants' on its own board (7x7 to 13x13): the
  openings, the referee, the records and the JSON follow it. Line-protocol engines are told
  the game with UCI_Variant (an engine that does not list it is refused before the match);
  OTEP engines get its OpenTafl rules string (the game must have one: OpenTafl's variants);
  Tablut Challenge agents play 9x9 only. Records name the game (konakis-variant tag), so
  'konakis replay' and 'konakis analyse' read them back.

OPENINGS FILE
  One opening per line: 'startpos', 'startpos moves d1d3 …', a position string
  '<placement> <side> [<plies>]' optionally followed by 'moves …' (a leading 'position' or
  'fen' is accepted). Blank lines and lines starting with '#' are skipped. Every line is
  checked against the rules before the first game. 'konakis openings' writes such files.

REFEREE
  The runner checks every move with the library's rules and ends the game on escape, king
  capture, encirclement (when on), no legal move, repetition or the move limit. An engine
  loses the game, with the reason recorded, when it plays an illegal or malformed move,
  answers 'bestmove (none)' in a live position, crashes, fails to start or to answer
  'isready', or oversteps its clock (time used > time left + timemargin), or does not answer
  a move without clock within --move-timeout. A crashed or hung engine is restarted for its
  next game. Unknown lines from an engine are ignored. Adjudication (--resign, --draw) reads
  the 'score cp' / 'score mate' of the last 'info' line before each 'bestmove'.

STATISTICS
  Elo (logistic) with a 95 % interval and the likelihood of superiority are computed from the
  game pairs (pentanomial: a pair scores 0, 1/2, 1, 3/2 or 2), from 20 pairs (40 games) on;
  below that the table says 'too few games'. The interval's spread is never taken as less
  than a result unseen in N pairs could still add (3 in N), so identical results do not give
  +-0. Elo +25 +- 30 means anything from -5 to +55 fits the games; LOS 90 % happens by chance
  in one match of ten between equal engines: decide with --sprt. The SPRT uses the
  log-likelihood ratio of the pair results, generalised (each hypothesis at its most likely
  pair distribution), and stops the match when it crosses ln(beta/(1-alpha)) (H0: not
  better than elo0) or ln((1-beta)/alpha) (H1: at least elo1).

OUTPUT
  A progress bar on stderr (plain lines when stderr is not a terminal), then a table per
  engine: games, wins, draws, losses, score, Elo, LOS, the same split by side, average length,
  time forfeits, crashes, illegal moves and protocol errors; the SPRT verdict. Ctrl-C stops:
  the games finished so far are summarised and recorded (a second Ctrl-C quits at once).
  Exit status: 0 done, 1 bad input or an engine that cannot start, 130 interrupted.

ON A CLUSTER
  --shard K/N plays part K (from 0) of N: game pair i when i mod N = K, each pair whole, games
  numbered as in the whole match; write each part's --json, then 'konakis match merge
  part-*.json' prints the whole match's summary (see 'konakis match merge --help', and the
  README's 'On a cluster' for Slurm, GNU parallel and Kubernetes recipes in cluster/).

EXAMPLE
  konakis match --engine name=new cmd=./konakis option.Hash=64 \\
                --engine name=old cmd=./konakis-old \\
                --each tc=5+0.05 --games 400 --concurrency 2 \\
                --openings openings.txt order=random --sprt elo0=0 elo1=10 \\
                --rules KingCapture=English --records games.otg --json result.json";

fn group(name: &'static str, value_name: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .num_args(1..)
        .action(ArgAction::Append)
        .value_name(value_name)
        .allow_hyphen_values(false)
}

impl Args for MatchArgs {
    fn augment_args(cmd: Command) -> Command {
        cmd.about("Play a match or tournament between engines that speak the protocol")
            .after_help("See 'konakis match --help' for the details and an example.")
            .after_long_help(AFTER_HELP)
            .arg(
                group("engine", "KEY=VALUE")
                    .help("An engine: name= cmd= [arg=…] [dir=] [option.X=] [proto=] tc=|st=|depth=|nodes= [timemargin=] [settle=]")
                    .long_help(ENGINE_HELP),
            )
            .arg(group("each", "KEY=VALUE").help(
                "Settings for every engine (as for --engine, except name=); an engine's own \
                 settings win",
            ))
            .arg(
                Arg::new("gauntlet")
                    .long("gauntlet")
                    .action(ArgAction::SetTrue)
                    .help("The first engine plays each of the others (default: round robin)"),
            )
            .arg(
                Arg::new("games")
                    .long("games")
                    .value_name("N")
                    .value_parser(clap::value_parser!(u64))
                    .help("Games per pairing (default 2; rounded up to whole pairs)"),
            )
            .arg(
                Arg::new("rounds")
                    .long("rounds")
                    .value_name("N")
                    .value_parser(clap::value_parser!(u64))
                    .help("Game pairs per pairing (--rounds N = --games 2N)"),
            )
            .arg(
                Arg::new("concurrency")
                    .long("concurrency")
                    .value_name("K")
                    .default_value("1")
                    .value_parser(clap::value_parser!(usize))
                    .help("Games played at the same time"),
            )
            .arg(group("openings", "FILE [order=random|sequential] [seed=N] [start=N]").help(
                "Openings file, one position per line; order (default sequential), seed for \
                 random order, first line for sequential order",
            ))
            .arg(
                Arg::new("seed")
                    .long("seed")
                    .value_name("N")
                    .value_parser(clap::value_parser!(u64))
                    .help("Seed of the random opening order (default: chosen and printed)"),
            )
            .arg(group("sprt", "elo0=E0 elo1=E1 [alpha=A] [beta=B]").help(
                "Sequential probability ratio test of H1 'Elo >= elo1' against H0 'Elo <= \
                 elo0' for the first engine (alpha and beta default to 0.05); stops the match \
                 at a bound. Two engines only",
            ))
            .arg(
                Arg::new("variant")
                    .long("variant")
                    .value_name("NAME")
                    .help(
                        "A game of the tafl family, by its id in 'konakis variants' (e.g. \
                         copenhagen-11, opentafl-brandub-7): its board, start and rules; \
                         --rules then changes its rule options. Each line-protocol engine is \
                         sent 'setoption name UCI_Variant value NAME' and must list NAME among \
                         its UCI_Variant values",
                    ),
            )
            .arg(group("rules", "NAME=VALUE").help(
                "Rule options, as docs/rules.md ('Rule options') describes them (Ruleset, \
                 KingCapture, FirstMove, KingArmed, ThroneHostile, KingReentersThrone, \
                 ThronePassable, ThroneGuardCapture, RepetitionDraw, MoveLimit, \
                 Encirclement), for the referee, also sent to every engine",
            ))
            .arg(
                Arg::new("records")
                    .long("records")
                    .value_name("FILE|DIR/")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help("Write every game in OpenTafl's .otg format: all in FILE (separated by blank lines), or one file per game, as OpenTafl opens them, for a directory (DIR/game-0001.otg, ...) or a name holding {game}"),
            )
            .arg(
                Arg::new("json")
                    .long("json")
                    .value_name("FILE")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help("Write the summary and every game's result as JSON"),
            )
            .arg(group("resign", "movecount=N score=CP [twosided=true]").help(
                "Adjudicate a loss when an engine's score stays at or below -CP for N of its \
                 moves in a row (twosided: its opponent's at or above CP too). Off by default",
            ))
            .arg(group("draw", "movenumber=N movecount=M score=CP").help(
                "Adjudicate a draw from move N on when both engines' scores stay within CP of 0 \
                 for M moves each in a row. Off by default",
            ))
            .arg(
                Arg::new("maxmoves")
                    .long("maxmoves")
                    .value_name("N")
                    .value_parser(clap::value_parser!(u32).range(1..))
                    .help(
                        "Adjudicate a draw once N moves of each side have been played since the \
                         opening (for rules without a move limit, such as Ashton). Off by default",
                    ),
            )
            .arg(
                Arg::new("startup-timeout")
                    .long("startup-timeout")
                    .value_name("SECONDS")
                    .default_value("10")
                    .value_parser(clap::value_parser!(f64))
                    .help("Hard limit for an engine to answer uci and isready"),
            )
            .arg(
                Arg::new("move-timeout")
                    .long("move-timeout")
                    .value_name("SECONDS")
                    .default_value("60")
                    .value_parser(clap::value_parser!(f64))
                    .help("Hard limit for a move of an engine that has no clock and no st="),
            )
            .arg(
                Arg::new("shard")
                    .long("shard")
                    .value_name("K/N")
                    .help("Play only part K of N of the match (K from 0): game pair i belongs to part i mod N, each pair whole; games keep their numbers. The SPRT does not stop a part; 'konakis match merge' adds the parts' JSON files up"),
            )
            .args_conflicts_with_subcommands(true)
            .subcommand(
                Command::new("report")
                    .about("Draw each side's share of the games of one or more matches")
                    .arg(
                        Arg::new("chart")
                            .long("chart")
                            .value_name("FILE.svg")
                            .required(true)
                            .value_parser(clap::value_parser!(PathBuf))
                            .help("Write an SVG with a bar per match: attackers' wins, draws, defenders' wins (shards of one match make one bar, labelled by their folder)"),
                    )
                    .arg(
                        Arg::new("files")
                            .value_name("JSON")
                            .num_args(1..)
                            .required(true)
                            .value_parser(clap::value_parser!(PathBuf))
                            .help("Match JSON files (--json), shards included"),
                    ),
            )
            .subcommand(
                Command::new("merge")
                    .about("Merge the JSON files of a sharded match into one report")
                    .after_long_help(MERGE_HELP)
                    .arg(
                        Arg::new("files")
                            .value_name("JSON")
                            .num_args(1..)
                            .required(true)
                            .value_parser(clap::value_parser!(PathBuf))
                            .help("The shards' JSON files"),
                    )
                    .arg(group("sprt", "elo0=E0 elo1=E1 [alpha=A] [beta=B]").help(
                        "Judge the merged pairs with this SPRT (default: the shards' own, if \
                         any); the exit status gives the verdict",
                    ))
                    .arg(
                        Arg::new("records")
                            .long("records")
                            .value_name("FILE")
                            .value_parser(clap::value_parser!(PathBuf))
                            .help("Write every game of the shards into FILE, whether a shard wrote one records file or a file per game (--records DIR/ or NAME{game}.otg)"),
                    ),
            )
            .arg(
                Arg::new("log")
                    .long("log")
                    .value_name("FILE")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help("Log every line sent to and received from the engines"),
            )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// All values of every occurrence of a grouped flag.
fn groups(m: &ArgMatches, id: &str) -> Vec<Vec<String>> {
    m.get_occurrences::<String>(id)
        .map(|occ| occ.map(|vals| vals.cloned().collect()).collect())
        .unwrap_or_default()
}

impl FromArgMatches for MatchArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        if let Some(("report", sub)) = m.subcommand() {
            let files = sub
                .get_many::<PathBuf>("files")
                .map(|v| v.cloned().collect())
                .unwrap_or_default();
            let chart = sub.get_one::<PathBuf>("chart").cloned().unwrap_or_default();
            return Ok(MatchArgs(Box::default(), None, Some((chart, files))));
        }
        if let Some(("merge", sub)) = m.subcommand() {
            let sprt: Vec<String> = groups(sub, "sprt").into_iter().flatten().collect();
            return Ok(MatchArgs(
                Box::default(),
                Some(MergeOptions {
                    files: sub
                        .get_many::<PathBuf>("files")
                        .map(|v| v.cloned().collect())
                        .unwrap_or_default(),
                    sprt: (!sprt.is_empty()).then_some(sprt),
                    records: sub.get_one::<PathBuf>("records").cloned(),
                }),
                None,
            ));
        }
        let one = |id: &str| -> Option<Vec<String>> {
            let g = groups(m, id);
            (!g.is_empty()).then(|| g.into_iter().flatten().collect())
        };
        Ok(MatchArgs(
            Box::new(MatchOptions {
                engines: groups(m, "engine"),
                each: groups(m, "each"),
                gauntlet: m.get_flag("gauntlet"),
                games: m.get_one::<u64>("games").copied(),
                rounds: m.get_one::<u64>("rounds").copied(),
                concurrency: m.get_one::<usize>("concurrency").copied().unwrap_or(1),
                openings: one("openings"),
                seed: m.get_one::<u64>("seed").copied(),
                sprt: one("sprt"),
                variant: m.get_one::<String>("variant").cloned(),
                rules: one("rules").unwrap_or_default(),
                records: m.get_one::<PathBuf>("records").cloned(),
                json: m.get_one::<PathBuf>("json").cloned(),
                resign: one("resign"),
                draw: one("draw"),
                maxmoves: m.get_one::<u32>("maxmoves").copied(),
                startup_timeout: m.get_one::<f64>("startup-timeout").copied().unwrap_or(10.0),
                move_timeout: m.get_one::<f64>("move-timeout").copied().unwrap_or(60.0),
                log: m.get_one::<PathBuf>("log").cloned(),
                shard: m.get_one::<String>("shard").cloned(),
            }),
            None,
            None,
        ))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// Parses a `konakis match` argument line split on spaces (for tests).
#[cfg(test)]
fn parse_for_test(line: &str) -> Result<MatchOptions, clap::Error> {
    let cmd = MatchArgs::augment_args(Command::new("match"));
    let m = cmd.try_get_matches_from(std::iter::once("match").chain(line.split_whitespace()))?;
    MatchArgs::from_arg_matches(&m).map(|a| *a.0)
}

/// Set by Ctrl-C (SIGINT) or SIGTERM.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `konakis match`: exit status 0 when done, 1 for bad input or an engine that cannot
/// start, 130 when interrupted.
pub fn run(args: MatchArgs) -> ExitCode {
    if let Some(m) = &args.1 {
        return run_merge(m);
    }
    if let Some((chart, files)) = &args.2 {
        let result = matches::chart::rows(files).and_then(|rows| {
            matches::write_then_rename(chart, &matches::chart::svg(&rows)).map(|_| rows)
        });
        return match result {
            Ok(rows) => {
                for r in rows {
                    println!("{}", r.summary());
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    // Ctrl-C, once the match starts: the first stops the match (the summary and records cover
    // the finished games); a second quits at once.
    let arm = || {
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    };
    match matches::run(&args.0, &INTERRUPTED, arm, show()) {
        Ok(Finish::Completed) => ExitCode::SUCCESS,
        Ok(Finish::Interrupted) => ExitCode::from(130),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Shows a running match: warnings, the header and the progress display on stderr (a bar on
/// a terminal, plain lines otherwise), the summary on stdout.
fn show() -> impl FnMut(Event) {
    let mut progress: Option<Progress<std::io::Stderr>> = None;
    move |event| match event {
        Event::Warning(text) => eprintln!("{text}"),
        Event::Start { games, header } => {
            eprintln!("{header}");
            let err = std::io::stderr();
            let tty = err.is_terminal();
            progress = Some(Progress::new(games, err, tty));
        }
        Event::Note(text) => match progress.as_mut() {
            Some(p) => p.note(text),
            None => eprintln!("{text}"),
        },
        Event::GameDone { line, status } => {
            if let Some(p) = progress.as_mut() {
                p.game_done(line, status);
            }
        }
        Event::Tick => {
            if let Some(p) = progress.as_mut() {
                p.tick();
            }
        }
        Event::GamesOver => {
            if let Some(p) = progress.as_mut() {
                p.finish();
            }
        }
        Event::Summary(text) => {
            print!("{text}");
            let _ = std::io::stdout().flush();
        }
    }
}

/// Runs `konakis match merge`: the report on stdout, the shards on stderr; the exit status as
/// [`merge_exit`] says.
fn run_merge(opts: &MergeOptions) -> ExitCode {
    let merged = match merge::merge(opts) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(merge_exit::ERROR);
        }
    };
    let list = |s: &[konakis::tools::matches::Shard]| {
        s.iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    eprintln!(
        "Merged {} shard(s): {}",
        merged.shards.len(),
        list(&merged.shards)
    );
    if !merged.missing.is_empty() {
        eprintln!(
            "Missing {} shard(s): {}",
            merged.missing.len(),
            list(&merged.missing)
        );
    }
    print!("{}", merged.report);
    let code = match merged.sprt {
        Some((_, _, SprtVerdict::H1)) => merge_exit::DONE,
        Some((_, _, SprtVerdict::H0)) => merge_exit::H0,
        Some((_, _, SprtVerdict::Continue)) => merge_exit::MORE,
        None if merged.missing.is_empty() => merge_exit::DONE,
        None => merge_exit::MORE,
    };
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis::tools::matches::config::{MatchConfig, TimeControl};

    fn args(line: &str) -> Result<MatchConfig, String> {
        let a = parse_for_test(line).map_err(|e| e.to_string())?;
        MatchConfig::from_args(&a).map_err(|e| e.to_string())
    }

    #[test]
    fn the_issue_command_parses() {
        let c = args(
            "--engine name=new cmd=./konakis option.Hash=64 --engine name=old cmd=./konakis-old \
             --each tc=5+0.05 --games 400 --concurrency 2 \
             --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 \
             --rules KingCapture=English --records games.otg --json result.json",
        )
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name, "new");
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "64".into())]);
        assert!(c.engines[1].options.is_empty());
        assert!(c.engines[0].cmd.is_absolute());
        for e in &c.engines {
            assert_eq!(e.limits.tc, Some(TimeControl::parse("5+0.05").unwrap()));
        }
        assert_eq!(c.games_per_pairing, 400);
        assert_eq!(c.concurrency, 2);
        let s = c.sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        assert_eq!(
            c.rules.king_capture,
            konakis_core::rules::KingCapture::English
        );
        assert_eq!(c.pairings(), vec![(0, 1)]);
    }

    #[test]
    fn engine_settings_beat_each_and_names_stay_unique() {
        let c = args(
            "--engine cmd=/bin/k depth=3 option.Hash=8 arg=-q --engine cmd=/bin/k \
             --each nodes=100 depth=5 option.hash=16 arg=--x timemargin=20",
        )
        .unwrap();
        assert_eq!(c.engines[0].name, "k");
        assert_eq!(c.engines[1].name, "k-2");
        assert_eq!(c.engines[0].limits.depth, Some(3));
        assert_eq!(c.engines[1].limits.depth, Some(5));
        assert_eq!(c.engines[0].limits.nodes, Some(100));
        assert_eq!(c.engines[0].limits.margin_ms, 20);
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "8".into())]);
        assert_eq!(c.engines[1].options, vec![("hash".into(), "16".into())]);
        assert_eq!(c.engines[0].args, vec!["-q".to_string(), "--x".to_string()]);
    }

    #[test]
    fn otep_engines_settle_100_ms_unless_told_and_others_not_at_all() {
        use konakis::tools::matches::config::engines::DEFAULT_OTEP_SETTLE_MS;
        let c = args(
            "--engine cmd=/a proto=otep --engine cmd=/b proto=otep settle=0 \
             --engine cmd=/c proto=otep settle=250 --engine cmd=/d --each st=1",
        )
        .unwrap();
        let settle: Vec<u64> = c.engines.iter().map(|e| e.settle_ms).collect();
        assert_eq!(settle, [DEFAULT_OTEP_SETTLE_MS, 0, 250, 0]);
        assert_eq!(DEFAULT_OTEP_SETTLE_MS, 100);
        // From --each, for OTEP engines only.
        let c = args("--engine cmd=/a proto=otep --engine cmd=/b proto=otep --each st=1 settle=7")
            .unwrap();
        assert!(c.engines.iter().all(|e| e.settle_ms == 7));
    }

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        let three = "--engine cmd=/a --engine cmd=/b --engine cmd=/c --each depth=1";
        assert_eq!(
            args(three).unwrap().pairings(),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        let g = args(&format!("{three} --gauntlet")).unwrap();
        assert_eq!(g.pairings(), vec![(0, 1), (0, 2)]);
        assert!(args(&format!("{three} --sprt elo0=0 elo1=5")).is_err());
    }

    #[test]
    fn games_round_up_to_pairs() {
        let base = "--engine cmd=/a --engine cmd=/b --each depth=1";
        assert_eq!(
            args(&format!("{base} --games 3"))
                .unwrap()
                .games_per_pairing,
            4
        );
        assert_eq!(
            args(&format!("{base} --rounds 5"))
                .unwrap()
                .games_per_pairing,
            10
        );
        assert_eq!(args(base).unwrap().games_per_pairing, 2);
    }

    #[test]
    fn mistakes_are_caught_before_play() {
        let base = "--engine cmd=/a --engine cmd=/b --each depth=1";
        let cases = [
            ("--engine cmd=/a depth=1", "at least two engines"),
            ("--engine cmd=/a --engine cmd=/b", "no limit"),
            ("--engine cmd=/a depth=1 --engine name=x depth=1", "no cmd"),
            (
                "--engine cmd=/a depth=x --engine cmd=/b depth=1",
                "bad depth",
            ),
            (
                "--engine cmd=/a colour=red --engine cmd=/b --each depth=1",
                "unknown setting",
            ),
            (
                &format!("{base} --rules KingCapture=Salmi"),
                "invalid value",
            ),
            (
                &format!("{base} --rules Kingcap=English"),
                "unknown rule option",
            ),
            (&format!("{base} --sprt elo0=5 elo1=0"), "greater"),
            (&format!("{base} --sprt elo0=0"), "elo1= is required"),
            (
                &format!("{base} --sprt elo0=0 elo1=5 gamma=1"),
                "unknown setting",
            ),
            (&format!("{base} --games 4 --rounds 2"), "not both"),
            (&format!("{base} --concurrency 0"), "at least 1"),
            (
                &format!("{base} --openings x.txt order=shuffled"),
                "bad order",
            ),
            (
                &format!("{base} --resign movecount=0 score=500"),
                "positive",
            ),
            (&format!("{base} --draw movenumber=x"), "bad movenumber"),
            (&format!("{base} --frobnicate"), "frobnicate"),
            (
                "--engine cmd=/a settle=100 --engine cmd=/b --each depth=1",
                "settle= is for OTEP engines (proto=otep) only",
            ),
            (
                "--engine cmd=/a proto=otep --engine cmd=/b --each st=1 settle=50",
                "not in --each",
            ),
            (
                "--engine cmd=/a proto=otep settle=x --engine cmd=/b --each st=1",
                "bad settle 'x': expected milliseconds from 0 to 5000",
            ),
            (
                "--engine cmd=/a proto=otep settle=5001 --engine cmd=/b --each st=1",
                "bad settle '5001'",
            ),
            (
                "--engine cmd=/a proto=otep settle=-1 --engine cmd=/b --each st=1",
                "bad settle '-1'",
            ),
        ];
        for (line, want) in cases {
            let e = args(line).unwrap_err();
            assert!(e.contains(want), "{line}: {e}");
        }
    }
}
