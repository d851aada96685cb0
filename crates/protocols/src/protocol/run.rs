//! The protocol's run loop on a byte stream: a reader thread, the session, a writer thread.

use super::command::{self, Command};
use super::input::{Input, spawn_reader_with};
use super::output::Output;
use super::reply::Reply;
use super::session::Session;
use konakis_engine::search::SearchError;
use std::io::{Read, Write};

/// Runs the protocol on any input and output (stdin and stdout for the program; in-memory
/// pipes in tests). Returns when `quit` arrives or the input ends, or at once with the error
/// (after saying so on the output) if the engine cannot be set up.
pub fn run<R, W>(input: R, output: W) -> Result<(), SearchError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Output::new(output);
    let last = out.clone();
    // Once `quit` or the end of the input has been read, output that finds the queue full is
    // dropped: nobody will wait for it, and waiting could hang the process.
    let lines = spawn_reader_with(input, move |item| {
        let last_word = match item {
            Input::End => true,
            Input::Line(l) => is_quit(l),
            Input::TooLong(_) => false,
        };
        if last_word {
            last.abandon();
        }
    });
    let result = match Session::threaded(out.clone()) {
        Ok(session) => {
            session.serve(lines);
            Ok(())
        }
        Err(e) => {
            out.error(&format!("cannot start the engine: {e}"));
            Err(e)
        }
    };
    out.drain();
    result
}

/// Whether `line` is the `quit` command.
fn is_quit(line: &str) -> bool {
    line.trim_start()
        .get(..4)
        .is_some_and(|w| w.eq_ignore_ascii_case("quit"))
        && matches!(command::parse(line), Ok(Some(Command::Quit)))
}
