//! Where a session's lines go: the [`Reply`] trait, and the one-line form of a message.

use super::command;

/// Where a session's lines go: the program's output, or a browser host's callback.
pub trait Reply: Clone + Send + 'static {
    /// Writes several lines at once (each without its line end), none of another thread's
    /// between them.
    fn lines(&self, texts: &[String]);

    /// From now on nothing more is written (after `quit`).
    fn close(&self);

    /// Writes one line.
    fn line(&self, text: &str) {
        self.lines(&[text.to_string()]);
    }

    /// `info string error: <message>`, as one line whatever the message holds.
    fn error(&self, message: &str) {
        self.line(&format!("info string error: {}", one_line(message)));
    }

    /// `info string <message>`, as one line.
    fn info(&self, message: &str) {
        self.line(&format!("info string {}", one_line(message)));
    }
}

/// Escapes control characters (line ends included) and bounds the length, so that a message
/// built from input is one line.
fn one_line(message: &str) -> String {
    command::bounded_line(message, 1_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(one_line("a\nb\u{1b}"), "a\\nb\\u{1b}");
        assert!(one_line(&"y".repeat(5000)).chars().count() <= 1003);
    }
}
