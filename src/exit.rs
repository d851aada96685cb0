//! The exit codes of the `konakis` command where they say more than success or failure.

/// The exit codes of `konakis tablut-challenge`.
pub mod challenge {
    use konakis_protocols::challenge::client::{SessionEnd, SessionOutcome};

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

    /// The exit code of a session: the ending's, except that a finished game in which the
    /// server refused a move of Konakis gives [`REFUSED`].
    pub fn code(outcome: &SessionOutcome) -> u8 {
        match &outcome.ending {
            SessionEnd::Over(_) if !outcome.refused.is_empty() => REFUSED,
            SessionEnd::Over(_) => FINISHED,
            SessionEnd::ConnectFailed(_) => CONNECT,
            SessionEnd::Closed(_) => CLOSED,
            SessionEnd::Protocol(_) => PROTOCOL,
            SessionEnd::TimedOut(_) => TIMEOUT,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use konakis_core::Move;
        use konakis_protocols::challenge::state::Turn;

        fn sq(name: &str) -> konakis_core::types::Square {
            name.parse().unwrap()
        }

        #[test]
        fn exit_codes_follow_the_ending() {
            let o = |ending, refused: Vec<Move>| SessionOutcome {
                ending,
                record: Vec::new(),
                refused,
            };
            let m = Move::new(sq("e3"), sq("a3"));
            assert_eq!(code(&o(SessionEnd::Over(Turn::Draw), vec![])), FINISHED);
            assert_eq!(code(&o(SessionEnd::Over(Turn::BlackWin), vec![m])), REFUSED);
            assert_eq!(
                code(&o(SessionEnd::ConnectFailed(String::new()), vec![])),
                CONNECT
            );
            assert_eq!(code(&o(SessionEnd::Closed(String::new()), vec![m])), CLOSED);
            assert_eq!(
                code(&o(SessionEnd::Protocol(String::new()), vec![])),
                PROTOCOL
            );
            assert_eq!(
                code(&o(SessionEnd::TimedOut(String::new()), vec![])),
                TIMEOUT
            );
        }
    }
}
