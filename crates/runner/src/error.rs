//! The errors of the openings generator and the tuner, each with the words the user reads.
//! (The match runner's are in [`matches::error`](crate::matches::error).)

use std::path::PathBuf;
use thiserror::Error;

/// Why `konakis openings` stopped. Display is the whole line it prints, `error: …` or, for
/// [`OpeningsToolError::TooFew`], `warning: …`.
#[derive(Debug, Error)]
pub enum OpeningsToolError {
    /// A `--rules` option is unknown or has a bad value (the rules library's words).
    #[error("error: --rules: {0}")]
    Rules(String),
    /// `--count`, `--depth` or `--margin` out of range.
    #[error("error: --count and --depth must be positive, --margin not negative")]
    Range,
    /// The output file cannot be created.
    #[error("error: cannot create {}: {source}", path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Writing the openings failed.
    #[error("error: cannot write the openings")]
    Write,
    /// `--variant` names no game of the family.
    #[error("error: --variant: no variant '{name}' (variants: {})", known.join(", "))]
    Variant {
        /// The name given.
        name: String,
        /// The variants there are.
        known: Vec<&'static str>,
    },
    /// `--variant` with `--rules`.
    #[error("error: --variant and --rules: a variant's rules are its own")]
    VariantAndRules,
    /// The openings were asked for on another board than the variant's (a caller's mistake).
    #[error("error: the openings' board is not the variant's")]
    Board,
    /// The engine that judges the openings could not be made (the engine's words).
    #[error("error: {0}")]
    Engine(String),
    /// Fewer openings than asked for were found (those found were written).
    #[error("warning: only {kept} of {asked} openings found; widen --margin or change --plies")]
    TooFew {
        /// Openings written.
        kept: usize,
        /// Openings asked for.
        asked: usize,
    },
}

/// Why `konakis tune` stopped.
#[derive(Debug, Error)]
pub enum TuneError {
    /// An `--option` rule is unknown or has a bad value (the rules library's words).
    #[error("{0}")]
    Rules(String),
    /// The output file cannot be created or written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Writing a line of the output failed (the system's words).
    #[error("{0}")]
    Output(#[source] std::io::Error),
    /// The data file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A line of the data file is not `<position string>;<result>`.
    #[error("{path}:{line}: {why}")]
    Line {
        /// The file.
        path: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong: the position's error, or `bad result`.
        why: String,
    },
    /// The data file holds no positions.
    #[error("{path} holds no positions")]
    Empty {
        /// The file.
        path: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{Openings, OpeningsOptions};
    use crate::tune::{fit, rules_from};
    use konakis_core::geometry::{Eleven, Nine};
    use konakis_core::rules::Rules;

    #[test]
    fn tuner_errors_say_the_file_and_line_as_before() {
        let dir = std::env::temp_dir().join(format!("konakis-tune-err-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.txt");
        let start = konakis_core::board::Board::start(&Rules::default()).to_fen();
        std::fs::write(&data, format!("{start};1\n{start};x\n")).unwrap();
        let path = data.display().to_string();
        let e = fit(Rules::default(), &path, 1, |_| {}).unwrap_err();
        assert!(matches!(&e, TuneError::Line { line: 2, why, .. } if why == "bad result"));
        assert_eq!(e.to_string(), format!("{path}:2: bad result"));
        std::fs::write(&data, "").unwrap();
        let e = fit(Rules::default(), &path, 1, |_| {}).unwrap_err();
        assert_eq!(e.to_string(), format!("{path} holds no positions"));
        let e = fit(Rules::default(), "/nonexistent/d.txt", 1, |_| {}).unwrap_err();
        assert!(matches!(e, TuneError::Read { .. }));
        assert!(
            e.to_string()
                .starts_with("cannot read /nonexistent/d.txt: ")
        );
        assert!(matches!(
            rules_from(&["Kingcap=English".into()]),
            Err(TuneError::Rules(_))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn openings_tool_errors_keep_their_lines() {
        let opts = OpeningsOptions {
            count: 0,
            plies: 2,
            seed: 1,
            depth: 1,
            margin: 10,
            absolute: false,
            rules: Vec::new(),
            variant: None,
        };
        let e = Openings::<Nine>::new(&opts).err().unwrap();
        assert!(matches!(e, OpeningsToolError::Range));
        assert_eq!(
            e.to_string(),
            "error: --count and --depth must be positive, --margin not negative"
        );
        let bad_rules = OpeningsOptions {
            count: 1,
            rules: vec!["KingCapture=Salmi".into()],
            ..opts
        };
        let e = Openings::<Nine>::new(&bad_rules).err().unwrap();
        assert!(matches!(e, OpeningsToolError::Rules(_)));
        assert!(e.to_string().starts_with("error: --rules: "));
        let variant_and_rules = OpeningsOptions {
            variant: Some("copenhagen-11".into()),
            ..bad_rules.clone()
        };
        let e = Openings::<Eleven>::new(&variant_and_rules).err().unwrap();
        assert_eq!(
            e.to_string(),
            "error: --variant and --rules: a variant's rules are its own"
        );
        let unknown = OpeningsOptions {
            variant: Some("copenhagen-12".into()),
            rules: Vec::new(),
            ..bad_rules
        };
        let e = unknown.size().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("error: --variant: no variant 'copenhagen-12' (variants: ")
        );
    }
}
