//! Framing: every message of the Tablut Challenge protocol, in both directions, is a 4-byte
//! big-endian length followed by that many bytes of UTF-8 text (JSON); docs/tablut-challenge.md,
//! "Framing".

use std::fmt;
use std::io::{self, Read, Write};

/// Longest message accepted, in bytes. A state is under 1,000 bytes; a length above this is a
/// broken or hostile peer, refused before anything is allocated.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// Why a frame could not be read.
#[derive(Debug)]
pub enum FrameError {
    /// The peer closed the connection cleanly, between two frames.
    Closed,
    /// The connection ended inside a frame (after `got` of `expected` bytes).
    Truncated {
        /// Bytes of the frame (length prefix included) that were expected.
        expected: usize,
        /// Bytes that arrived.
        got: usize,
    },
    /// The length prefix announces more than [`MAX_FRAME_BYTES`].
    TooLong(u32),
    /// The bytes are not UTF-8.
    NotUtf8,
    /// No data within the read timeout.
    TimedOut,
    /// Another I/O error (connection reset and the like).
    Io(io::Error),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Closed => f.write_str("the connection was closed"),
            FrameError::Truncated { expected, got } => write!(
                f,
                "the connection was closed inside a message ({got} of {expected} bytes)"
            ),
            FrameError::TooLong(n) => write!(
                f,
                "a message announces {n} bytes (more than the {MAX_FRAME_BYTES} accepted)"
            ),
            FrameError::NotUtf8 => f.write_str("a message is not UTF-8 text"),
            FrameError::TimedOut => f.write_str("no message arrived in time"),
            FrameError::Io(e) => write!(f, "connection error: {e}"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Whether an I/O error is a read timeout (the kind depends on the platform).
fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Fills `buf` completely; returns how many bytes arrived before the end of input.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> Result<usize, FrameError> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if is_timeout(&e) => return Err(FrameError::TimedOut),
            Err(e) => return Err(FrameError::Io(e)),
        }
    }
    Ok(filled)
}

/// Reads one frame and returns its text.
pub fn read_frame(reader: &mut impl Read) -> Result<String, FrameError> {
    let mut prefix = [0u8; 4];
    match read_full(reader, &mut prefix)? {
        0 => return Err(FrameError::Closed),
        4 => {}
        got => return Err(FrameError::Truncated { expected: 4, got }),
    }
    let len = u32::from_be_bytes(prefix);
    if len as usize > MAX_FRAME_BYTES {
        return Err(FrameError::TooLong(len));
    }
    let mut body = vec![0u8; len as usize];
    let got = read_full(reader, &mut body)?;
    if got < body.len() {
        return Err(FrameError::Truncated {
            expected: 4 + body.len(),
            got: 4 + got,
        });
    }
    String::from_utf8(body).map_err(|_| FrameError::NotUtf8)
}

/// Writes one frame (prefix and text in one write, then a flush).
pub fn write_frame(writer: &mut impl Write, text: &str) -> io::Result<()> {
    let len = u32::try_from(text.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "message too long"))?;
    let mut frame = Vec::with_capacity(4 + text.len());
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(text.as_bytes());
    writer.write_all(&frame)?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn a_frame_is_a_big_endian_length_then_the_text() {
        let mut out = Vec::new();
        write_frame(&mut out, "\"Konakis\"").unwrap();
        assert_eq!(&out[..4], &[0, 0, 0, 9]);
        assert_eq!(&out[4..], b"\"Konakis\"");
        let long = "x".repeat(300);
        let mut out = Vec::new();
        write_frame(&mut out, &long).unwrap();
        assert_eq!(&out[..4], &[0, 0, 1, 44]);
    }

    #[test]
    fn frames_read_back_in_order_and_the_end_is_a_clean_close() {
        let mut bytes = Vec::new();
        for text in ["{}", "", "é∑"] {
            write_frame(&mut bytes, text).unwrap();
        }
        let mut r = Cursor::new(bytes);
        assert_eq!(read_frame(&mut r).unwrap(), "{}");
        assert_eq!(read_frame(&mut r).unwrap(), "");
        assert_eq!(read_frame(&mut r).unwrap(), "é∑");
        assert!(matches!(read_frame(&mut r), Err(FrameError::Closed)));
    }

    #[test]
    fn a_frame_cut_short_is_truncated_not_closed() {
        let mut r = Cursor::new(vec![0u8, 0]);
        assert!(matches!(
            read_frame(&mut r),
            Err(FrameError::Truncated {
                expected: 4,
                got: 2
            })
        ));
        let mut r = Cursor::new(vec![0u8, 0, 0, 5, b'a', b'b']);
        assert!(matches!(
            read_frame(&mut r),
            Err(FrameError::Truncated {
                expected: 9,
                got: 6
            })
        ));
    }

    #[test]
    fn huge_lengths_and_bad_utf8_are_refused() {
        let mut r = Cursor::new(vec![0x7f, 0xff, 0xff, 0xff, 1, 2, 3]);
        assert!(matches!(
            read_frame(&mut r),
            Err(FrameError::TooLong(0x7fff_ffff))
        ));
        let mut r = Cursor::new(vec![0, 0, 0, 2, 0xc3, 0x28]);
        assert!(matches!(read_frame(&mut r), Err(FrameError::NotUtf8)));
    }
}
