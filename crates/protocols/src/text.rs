//! Text helpers for the protocols' replies: a peer may send anything, and every message that
//! quotes it must stay one readable line. The libraries below return typed values; these turn
//! a peer's text into something safe to print inside a reply.

/// Shortens arbitrary input for quoting in a message (40 characters), and escapes what is not
/// printable ASCII, so that a reply stays one readable line whatever was sent.
///
/// ```
/// use konakis_protocols::text::quote;
/// assert_eq!(quote("go\tdepth\n"), "go\\tdepth\\n");
/// assert_eq!(quote(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
/// ```
pub fn quote(text: &str) -> String {
    bounded_line(text, 40)
}

pub use konakis_core::text::bounded_line;

/// The start of a message for an error text (60 characters, then `...`), with Rust's escapes
/// for quotes, backslashes and everything outside printable ASCII: messages may be long or
/// binary junk.
///
/// ```
/// use konakis_protocols::text::excerpt;
/// assert_eq!(excerpt("e3-e1\"x"), "e3-e1\\\"x");
/// assert_eq!(excerpt(&"a".repeat(61)), format!("{}...", "a".repeat(60)));
/// ```
pub fn excerpt(text: &str) -> String {
    konakis_core::text::escaped_excerpt(text, 60)
}
