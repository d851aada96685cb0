//! The protocol session (to be written).
