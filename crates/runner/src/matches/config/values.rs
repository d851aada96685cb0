//! The `key=value` groups of the command line and the numbers in them.

use thiserror::Error;

/// A `key=value` setting of a command-line group (`--sprt`, `--resign`, `--draw`,
/// `--openings`) that cannot be read. Display names the flag.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingError {
    /// An item without `=`.
    #[error("{flag}: '{item}' is not a setting (expected key=value)")]
    NotASetting {
        /// The flag.
        flag: String,
        /// The item as given.
        item: String,
    },
    /// A key the flag does not know.
    #[error("{flag}: unknown setting '{key}' (known: {known})")]
    Unknown {
        /// The flag.
        flag: String,
        /// The key as given.
        key: String,
        /// The keys it knows, joined by `, `.
        known: String,
    },
    /// A value that is not a number.
    #[error("{flag}: bad {key} '{value}' (expected a number)")]
    NotANumber {
        /// The flag.
        flag: String,
        /// The key.
        key: String,
        /// The value as given.
        value: String,
    },
}

/// The private readers of the groups (`--resign`, `--draw`, `--openings`) still speak in
/// message strings.
impl From<SettingError> for String {
    fn from(e: SettingError) -> String {
        e.to_string()
    }
}

/// Parses `key=value` pairs into a map-like list, rejecting unknown keys.
pub(super) fn key_values<'a>(
    flag: &str,
    pairs: &'a [String],
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, SettingError> {
    pairs
        .iter()
        .map(|p| {
            let (k, v) = p.split_once('=').ok_or_else(|| SettingError::NotASetting {
                flag: flag.to_string(),
                item: p.clone(),
            })?;
            if !known.contains(&k) {
                return Err(SettingError::Unknown {
                    flag: flag.to_string(),
                    key: k.to_string(),
                    known: known.join(", "),
                });
            }
            Ok((k, v))
        })
        .collect()
}

pub(super) fn number<T: std::str::FromStr>(
    flag: &str,
    key: &str,
    value: &str,
) -> Result<T, SettingError> {
    value.parse().map_err(|_| SettingError::NotANumber {
        flag: flag.to_string(),
        key: key.to_string(),
        value: value.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_errors_name_the_flag_and_the_key() {
        let items = vec!["elo0=1".to_string(), "elo2=3".to_string()];
        let e = key_values("--sprt", &items, &["elo0", "elo1"]).unwrap_err();
        assert_eq!(
            e,
            SettingError::Unknown {
                flag: "--sprt".into(),
                key: "elo2".into(),
                known: "elo0, elo1".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "--sprt: unknown setting 'elo2' (known: elo0, elo1)"
        );
        let e = number::<u32>("--draw", "score", "x").unwrap_err();
        assert_eq!(e.to_string(), "--draw: bad score 'x' (expected a number)");
        let e = key_values("--draw", &["score".to_string()], &["score"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--draw: 'score' is not a setting (expected key=value)"
        );
    }
}
