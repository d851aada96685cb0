//! The rules API (to be written).
