//! Text quoted back in messages: whatever a peer or a file sent, a message that quotes it stays
//! one readable ASCII line. The one place every crate above takes these from.

/// `text` with control characters (line ends included) and everything else outside ASCII
/// escaped, and at most `max` characters kept (then `...`): safe to print as part of one
/// ASCII line.
///
/// ```
/// use konakis_core::text::bounded_line;
/// assert_eq!(bounded_line("go\tdepth\n", 40), "go\\tdepth\\n");
/// assert_eq!(bounded_line("caf\u{e9} au lait", 5), "caf\\u{e9} ...");
/// ```
pub fn bounded_line(text: &str, max: usize) -> String {
    let mut s = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            s.push_str("...");
            break;
        }
        if c.is_control() || !c.is_ascii() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// The first `max` characters of `text` (then `...`), with Rust's escapes for quotes,
/// backslashes and everything outside printable ASCII: for error messages about input that
/// may be long or binary junk.
///
/// ```
/// use konakis_core::text::escaped_excerpt;
/// assert_eq!(escaped_excerpt("e3-e1\"x", 60), "e3-e1\\\"x");
/// assert_eq!(escaped_excerpt(&"a".repeat(61), 60), format!("{}...", "a".repeat(60)));
/// ```
pub fn escaped_excerpt(text: &str, max: usize) -> String {
    let mut s: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        s.push_str("...");
    }
    s.escape_default().to_string()
}
