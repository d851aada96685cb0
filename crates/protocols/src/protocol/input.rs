//! The input reader: a thread that reads the input line by line, bounds each line's length,
//! and hands whole lines to the session over a channel.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver};

/// Longest line read in full, in bytes. Longer lines are dropped with an error (their bytes are
/// read and discarded, so memory stays bounded whatever arrives).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader thread hands over.
#[derive(Debug)]
pub(crate) enum Input {
    /// One line, without its end, bytes that are not UTF-8 replaced.
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], discarded; its length in bytes.
    TooLong(usize),
    /// The input ended (or failed).
    End,
}

/// Starts the thread that reads `input` line by line.
pub(crate) fn spawn_reader<R: Read + Send + 'static>(input: R) -> Receiver<Input> {
    spawn_reader_with(input, |_| {})
}

/// [`spawn_reader`], calling `seen` with each item just before it is handed over.
pub(super) fn spawn_reader_with<R: Read + Send + 'static>(
    input: R,
    seen: impl Fn(&Input) + Send + 'static,
) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    // Without a reader thread the input cannot be read at all; the session then sees its end.
    let _ = std::thread::Builder::new()
        .name("konakis-input".into())
        .spawn(move || {
            let mut input = BufReader::with_capacity(64 * 1024, input);
            let mut line: Vec<u8> = Vec::new();
            let mut length = 0usize;
            loop {
                let (done, used) = match input.fill_buf() {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => (None, 0),
                    Ok([]) => (None, 0),
                    Ok(chunk) => match chunk.iter().position(|&b| b == b'\n') {
                        Some(i) => {
                            keep(&mut line, &chunk[..i], &mut length);
                            (Some(true), i + 1)
                        }
                        None => {
                            keep(&mut line, chunk, &mut length);
                            (Some(false), chunk.len())
                        }
                    },
                };
                input.consume(used);
                let ended = done.is_none();
                if done == Some(true) || (ended && length > 0) {
                    let item = if length > MAX_LINE_BYTES {
                        Input::TooLong(length)
                    } else {
                        if line.last() == Some(&b'\r') {
                            line.pop();
                        }
                        Input::Line(String::from_utf8_lossy(&line).into_owned())
                    };
                    line.clear();
                    length = 0;
                    seen(&item);
                    if tx.send(item).is_err() {
                        return;
                    }
                }
                if ended {
                    seen(&Input::End);
                    let _ = tx.send(Input::End);
                    return;
                }
            }
        });
    rx
}

/// Appends `bytes` to `line` while it stays within [`MAX_LINE_BYTES`]; counts them all.
fn keep(line: &mut Vec<u8>, bytes: &[u8], length: &mut usize) {
    *length += bytes.len();
    if *length <= MAX_LINE_BYTES {
        line.extend_from_slice(bytes);
    } else {
        line.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn read_all(bytes: &[u8]) -> Vec<String> {
        let rx = spawn_reader(Cursor::new(bytes.to_vec()));
        let mut v = Vec::new();
        loop {
            match rx.recv().unwrap() {
                Input::Line(l) => v.push(l),
                Input::TooLong(n) => v.push(format!("<too long {n}>")),
                Input::End => return v,
            }
        }
    }

    #[test]
    fn reader_splits_lines_and_survives_junk() {
        assert_eq!(
            read_all(b"uci\r\nisready\n\nd"),
            ["uci", "isready", "", "d"]
        );
        assert_eq!(read_all(b"a\xff\xfeb\n"), ["a\u{fffd}\u{fffd}b"]);
        let mut big = vec![b'x'; MAX_LINE_BYTES + 10];
        big.extend_from_slice(b"\nisready\n");
        assert_eq!(
            read_all(&big),
            [
                format!("<too long {}>", MAX_LINE_BYTES + 10),
                "isready".into()
            ]
        );
        assert!(read_all(b"").is_empty());
    }
}
