//! The `key=value` groups of the command line and the numbers in them.

/// Parses `key=value` pairs into a map-like list, rejecting unknown keys.
pub(super) fn key_values<'a>(
    flag: &str,
    pairs: &'a [String],
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    pairs
        .iter()
        .map(|p| {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| format!("{flag}: '{p}' is not a setting (expected key=value)"))?;
            if !known.contains(&k) {
                return Err(format!(
                    "{flag}: unknown setting '{k}' (known: {})",
                    known.join(", ")
                ));
            }
            Ok((k, v))
        })
        .collect()
}

pub(super) fn number<T: std::str::FromStr>(
    flag: &str,
    key: &str,
    value: &str,
) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: bad {key} '{value}' (expected a number)"))
}
