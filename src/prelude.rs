//! The names a program that embeds Konakis needs most, to import in one line:
//!
//! ```
//! use konakis::prelude::*;
//!
//! let rules = Rules::default();
//! let mut game = Game::start(rules);
//! let mv = game.board().parse_move(&rules, "d1d3").unwrap();
//! assert_eq!(game.play(mv), Ok(Status::Ongoing));
//! assert_eq!(game.board().side_to_move(), Side::Defenders);
//! ```
//!
//! It holds the rules core's prelude (positions, moves, games, the rule options and their
//! errors, from `konakis-core`), the engine session a program drives ([`Engine`], with its
//! [`Options`], [`Start`] and [`SearchOutcome`], with the search's [`Limits`], [`Settings`] and
//! [`Report`]s), from `konakis-engine`.

pub use konakis_core::prelude::*;
pub use konakis_engine::options::Options;
pub use konakis_engine::search::SearchOutcome;
pub use konakis_engine::search::{Cancel, Info, Limits, Report, Score, SearchError, Settings};
pub use konakis_engine::{Engine, EngineError, SearchId, Start};
