//! # konakis-runner
//!
//! The tools that play many games: the match and tournament runner ([`matches`]), the openings
//! generator ([`openings`]) and the evaluation tuner that learns from self-play ([`tune`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod matches;
pub mod openings;
pub mod tune;
