//! The search's helper threads allocate nothing after their first search (issue 44): a
//! counting global allocator counts the allocations made on every thread but the one that
//! runs this test, which is the main search thread here (`Engine::search` searches on the
//! caller's thread); the other threads are the engine's helpers. The main thread allocates for
//! its reports and is not counted. Run without the test harness (`harness = false` in
//! Cargo.toml), so that no thread of the harness allocates beside the search.
//!
//! Counting allocations takes a global allocator, whose trait is `unsafe` to implement: this
//! test program is the only place with `unsafe`, and it only passes each call on.

use konakis_core::types::Move;
use konakis_engine::Engine;
use konakis_engine::options::Options;
use konakis_engine::search::{Cancel, Limits, Settings, SmpMode};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts the allocations made on threads other than the test's own.
struct Counting;

static ELSEWHERE: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Set on the thread that runs the test.
    static TEST_THREAD: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    // During a thread's teardown its locals may be gone: its allocations are counted then.
    let test_thread = TEST_THREAD.try_with(Cell::get).unwrap_or(false);
    if !test_thread {
        ELSEWHERE.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is passed on to the system allocator unchanged; counting allocates
// nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees are the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Searches `engine`'s position to `depth`: the best move, and the allocations made on other
/// threads meanwhile.
fn search(engine: &mut Engine, depth: u32) -> (Move, u64) {
    let before = ELSEWHERE.load(Ordering::SeqCst);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let outcome = engine
        .search(limits, Cancel::Never, |_, _| {})
        .expect("the search starts");
    let allocations = ELSEWHERE.load(Ordering::SeqCst) - before;
    (outcome.best.expect("the search answers"), allocations)
}

/// Two searches of a game on two threads (the second one move further on): the first makes
/// the helper's state, the second must find it all there.
fn second_search_allocates_nothing_on_helpers(smp: SmpMode) {
    let mut engine = Engine::new(Options {
        settings: Settings {
            threads: 2,
            hash_mib: 4,
            smp,
            ..Settings::default()
        },
        ..Options::default()
    })
    .expect("an engine");
    let (best, first) = search(&mut engine, 8);
    assert!(
        first > 0,
        "{smp:?}: the helper made its state in the first search"
    );
    engine.play(best).expect("the best move is legal");
    let (_, second) = search(&mut engine, 8);
    assert_eq!(
        second, 0,
        "{smp:?}: allocations on helper threads in the second search"
    );
    println!("{smp:?}: {first} allocations on helpers in the first search, none in the second");
}

fn main() {
    if !cfg!(feature = "threads") {
        println!(
            "test second_search_allocates_nothing_on_helpers ... ignored (no helpers without the threads feature)"
        );
        return;
    }
    TEST_THREAD.with(|t| t.set(true));
    second_search_allocates_nothing_on_helpers(SmpMode::Lazy);
    second_search_allocates_nothing_on_helpers(SmpMode::Split);
    println!("test second_search_allocates_nothing_on_helpers ... ok");
}
