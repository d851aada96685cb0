//! The engine every front-end works through: stale reports are dropped, stop and wait keep
//! their deadlines, a host's position is caught up with or taken as given, and bad options
//! are refused with nothing changed.

use konakis::protocol::options::Options;
use konakis::search::{Cancel, Limits, Report, SearchError};
use konakis::{Board, GameError, Move, Rules};
use konakis::{Engine, EngineError, Explain, GameReset, SearchId, Start, Synced};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn engine() -> Engine {
    let mut config = Options::default();
    config.settings.hash_mib = 1;
    Engine::new(config).expect("a 1 MiB table")
}

fn mv(text: &str) -> Move {
    Move::parse(text).expect("a move")
}

fn infinite() -> Limits {
    Limits {
        infinite: true,
        ..Limits::default()
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// A callback that keeps every report it gets, with its search id.
type Log = Arc<Mutex<Vec<(SearchId, Report)>>>;

fn logger() -> (Log, impl FnMut(SearchId, Report) + Send + 'static) {
    let log: Log = Arc::default();
    let l = Arc::clone(&log);
    (log, move |id, r| l.lock().unwrap().push((id, r)))
}

fn best_moves(log: &Log) -> usize {
    log.lock()
        .unwrap()
        .iter()
        .filter(|(_, r)| matches!(r, Report::BestMove { .. }))
        .count()
}

#[test]
fn a_cancelled_search_delivers_nothing_more_and_the_next_search_has_a_new_id() {
    let mut d = engine();
    let (old, callback) = logger();
    let first = d.think(infinite(), callback).unwrap();
    std::thread::sleep(Duration::from_millis(30));
    d.cancel();
    assert!(!d.is_searching());
    let seen = old.lock().unwrap().len();
    assert_eq!(best_moves(&old), 0, "a cancelled search gives no answer");

    let (new, callback) = logger();
    let second = d.think(depth(3), callback).unwrap();
    assert!(second > first, "{second:?} after {first:?}");
    assert!(d.wait(Some(Instant::now() + Duration::from_secs(30))));
    assert_eq!(
        old.lock().unwrap().len(),
        seen,
        "nothing of the cancelled search came after cancel"
    );
    let new = new.lock().unwrap();
    assert!(new.iter().all(|(id, _)| *id == second));
    assert!(matches!(
        new.last(),
        Some((_, Report::BestMove { best: Some(_), .. }))
    ));
    assert_eq!(
        new.iter()
            .filter(|(_, r)| matches!(r, Report::BestMove { .. }))
            .count(),
        1
    );
    assert!(d.outcome().answered);
}

#[test]
fn a_stopped_search_still_answers() {
    let mut d = engine();
    let (log, callback) = logger();
    d.think(infinite(), callback).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    d.stop();
    assert!(d.wait(None));
    assert_eq!(best_moves(&log), 1);
    let outcome = d.outcome();
    assert!(outcome.answered && outcome.best.is_some(), "{outcome:?}");
}

#[test]
fn wait_keeps_its_deadline_and_a_stop_ends_the_search_soon() {
    let mut d = engine();
    assert!(d.wait(Some(Instant::now())), "nothing running: at once");
    d.think(infinite(), |_, _| {}).unwrap();
    let asked = Instant::now();
    assert!(!d.wait(Some(asked + Duration::from_millis(100))));
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_millis(100) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    assert!(d.is_searching(), "an infinite search outlives the wait");
    d.stop();
    let stopped = Instant::now();
    assert!(d.wait(Some(stopped + Duration::from_secs(5))));
    assert!(
        stopped.elapsed() < Duration::from_secs(1),
        "{:?}",
        stopped.elapsed()
    );
    assert!(!d.is_searching());
}

#[test]
fn a_search_on_the_calling_thread_stops_when_its_flag_is_set() {
    let mut d = engine();
    let cancel = Arc::new(AtomicBool::new(false));
    let c = Arc::clone(&cancel);
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        c.store(true, Ordering::SeqCst);
    });
    let started = Instant::now();
    let mut reports = 0;
    let outcome = d
        .search(infinite(), Cancel::Flag(&cancel), |_, _| reports += 1)
        .unwrap();
    setter.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(outcome.answered && outcome.best.is_some(), "{outcome:?}");
    assert!(reports >= 1);
    assert_eq!(d.outcome(), outcome);
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let mut d = engine();
    assert_eq!(d.ponderhit(), Err(EngineError::NotPondering));
    let bad = Limits {
        searchmoves: vec![mv("a1a2")],
        ..Limits::default()
    };
    assert!(matches!(
        d.think(bad, |_, _| {}),
        Err(EngineError::SearchMove { .. })
    ));
    assert!(!d.is_searching());

    d.think(infinite(), |_, _| {}).unwrap();
    assert_eq!(
        d.think(depth(1), |_, _| {}),
        Err(EngineError::Search(SearchError::Busy))
    );
    assert_eq!(
        d.set_option("Hash", Some("2")),
        Err(EngineError::Search(SearchError::Busy))
    );
    assert_eq!(d.options().settings.hash_mib, 1);
    assert_eq!(
        d.ponderhit(),
        Err(EngineError::NotPondering),
        "not a ponder search"
    );
    d.cancel();

    d.think(
        Limits {
            ponder: true,
            ..depth(2)
        },
        |_, _| {},
    )
    .unwrap();
    assert_eq!(d.ponderhit(), Ok(()));
    assert!(d.wait(Some(Instant::now() + Duration::from_secs(30))));
}

#[test]
fn options_go_through_the_table_and_errors_change_nothing() {
    let mut d = engine();
    let before = *d.options();
    let e = d.set_option("Hashh", Some("4")).unwrap_err();
    assert!(matches!(e, EngineError::Option(_)));
    assert!(e.to_string().starts_with("unknown option 'Hashh'"), "{e}");
    let e = d.set_option("Threads", Some("0")).unwrap_err();
    assert!(e.to_string().contains("from 1 to 512"), "{e}");
    let e = d.set_option("Hash", Some("16385")).unwrap_err();
    assert!(e.to_string().contains("from 1 to 16384"), "{e}");
    assert_eq!(*d.options(), before);

    assert_eq!(d.set_option("move   overhead", Some("100")), Ok(None));
    assert_eq!(d.options().settings.move_overhead_ms, 100);
    assert_eq!(d.set_option("clear hash", None), Ok(None));

    // The one time rule, with the option's overhead.
    let b = d
        .budget(&Limits {
            movetime: Some(1_000),
            ..Limits::default()
        })
        .unwrap();
    assert_eq!(b.hard, Duration::from_millis(900));
}

#[test]
fn a_rule_option_replays_the_game_or_resets_it() {
    let mut d = engine();
    // The attackers' first move.
    let moves = [mv("d1d3")];
    d.set_position(Start::StartPos, &moves[..1]).unwrap();
    assert_eq!(d.set_option("ThroneHostile", Some("true")), Ok(None));
    assert_eq!(
        d.game().moves(),
        &moves[..1],
        "replayed under the new rules"
    );

    // Under FirstMove=Defenders the attackers' move is out of turn.
    let reset = d.set_option("FirstMove", Some("Defenders")).unwrap();
    assert!(
        matches!(
            reset,
            Some(GameReset {
                moves: 1,
                error: GameError::Move { index: 0, .. }
            })
        ),
        "{reset:?}"
    );
    assert!(d.game().moves().is_empty());
    assert_eq!(*d.board(), Board::start(&d.options().rules));

    // A bad position leaves the game as it was.
    assert!(d.set_position(Start::StartPos, &[mv("a1a2")]).is_err());
    assert_eq!(*d.board(), Board::start(&d.options().rules));
}

#[test]
fn sync_finds_the_one_move_or_takes_the_host_position() {
    let mut d = engine();
    let rules: Rules = d.options().rules;
    let start = *d.board();
    let same = |target: Board| move |b: &Board| b.same_position(&target);
    let never = |_: &Board| -> Result<Board, String> { Err("no board".to_string()) };

    // The position held.
    assert_eq!(
        d.sync(same(start), Explain::OneMove(&[]), never),
        Ok(Synced::Same)
    );
    // One legal move explains it: found among all, and played.
    let m = start.legal_moves(&rules)[7];
    let mut after = start;
    after.play(&rules, m);
    assert_eq!(
        d.sync(same(after), Explain::OneMove(&[]), never),
        Ok(Synced::Played(vec![m]))
    );
    assert_eq!(d.game().moves(), &[m]);

    // Two moves away: no one move explains it. An error building the host's board leaves the
    // game as it was; otherwise the board is taken as given, without history.
    let mut two = after;
    let m1 = two.legal_moves(&rules)[0];
    two.play(&rules, m1);
    let m2 = two.legal_moves(&rules)[0];
    two.play(&rules, m2);
    assert_eq!(
        d.sync(same(two), Explain::OneMove(&[]), never),
        Err("no board".to_string())
    );
    assert_eq!(d.game().moves(), &[m]);
    assert_eq!(
        d.sync(same(two), Explain::OneMove(&[]), |_| Ok::<_, String>(two)),
        Ok(Synced::Taken)
    );
    assert!(d.board().same_position(&two));
    assert!(
        d.game().moves().is_empty(),
        "a position taken as given has no history"
    );

    // Only the lines allowed: a line of two moves is followed, a single move not offered is
    // not looked for.
    d.set_position(Start::StartPos, &[]).unwrap();
    assert_eq!(
        d.sync(
            same(two),
            Explain::Lines(&[&[m1][..], &[m, m1, m2][..]]),
            never
        ),
        Ok(Synced::Played(vec![m, m1, m2]))
    );
    assert_eq!(d.game().moves(), &[m, m1, m2]);
    d.set_position(Start::StartPos, &[]).unwrap();
    assert_eq!(
        d.sync(same(after), Explain::Lines(&[&[]]), |_| Ok::<_, String>(
            after
        )),
        Ok(Synced::Taken)
    );
}
