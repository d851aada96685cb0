//! `konakis match report --chart FILE.svg`: a bar per match (a rule family, say) showing the
//! share of games the attackers won, drawn and the defenders won, so the balance of several
//! rule sets reads at a glance. Shards of one match (the same fingerprint) make one bar.

use super::error::{MatchError, MergeError};
use super::fingerprint::Fingerprint;
use super::tally::Tally;
use serde_json::Value;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One bar: its label and the games won by the attackers, drawn, won by the defenders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// What the bar stands for.
    pub label: String,
    /// Attackers' wins, draws, defenders' wins.
    pub counts: [u64; 3],
}

/// Reads the match JSON files: one [`Row`] per match, shards of a match added up. A bar is
/// labelled by the folder holding its shards when there are several, else by the file name.
pub fn rows(files: &[PathBuf]) -> Result<Vec<Row>, MatchError> {
    let mut rows: Vec<(Fingerprint, Vec<&Path>, [u64; 3])> = Vec::new();
    for path in files {
        let bad = |why: &str| MergeError::NotAResult {
            path: path.clone(),
            why: why.into(),
        };
        let text = std::fs::read_to_string(path).map_err(|source| MergeError::Read {
            path: path.clone(),
            source,
        })?;
        let v: Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
        let fp = v
            .get("fingerprint")
            .and_then(Fingerprint::from_json)
            .ok_or_else(|| bad("no fingerprint"))?;
        let t = v
            .get("tally")
            .and_then(Tally::from_json)
            .ok_or_else(|| bad("no totals"))?;
        // Tally::sides is attackers' wins, defenders' wins, draws.
        let counts = [t.sides[0], t.sides[2], t.sides[1]];
        match rows.iter_mut().find(|r| r.0 == fp) {
            Some(r) => {
                r.1.push(path);
                for (a, b) in r.2.iter_mut().zip(counts) {
                    *a += b;
                }
            }
            None => rows.push((fp, vec![path.as_path()], counts)),
        }
    }
    Ok(rows
        .into_iter()
        .map(|(_, paths, counts)| {
            let label = if paths.len() > 1 {
                paths[0].parent().and_then(Path::file_name)
            } else {
                paths[0].file_stem()
            };
            Row {
                label: label.map_or("match".into(), |n| n.to_string_lossy().into_owned()),
                counts,
            }
        })
        .collect())
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG: a stacked bar per row (attackers' wins, draws, defenders' wins), with the shares
/// and the number of games written on it.
pub fn svg(rows: &[Row]) -> String {
    const LEFT: f64 = 180.0;
    const WIDTH: f64 = 520.0;
    const BAR: f64 = 26.0;
    const GAP: f64 = 14.0;
    let height = 60.0 + rows.len() as f64 * (BAR + GAP) + 30.0;
    let total_width = LEFT + WIDTH + 90.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total_width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"20\" font-size=\"14\">Share of games: attackers won, drawn, \
         defenders won</text>"
    );
    let colours = ["#b5443a", "#a8a8a8", "#3a6fb5"];
    let names = ["attackers", "draws", "defenders"];
    for (i, (c, n)) in colours.iter().zip(names).enumerate() {
        let x = LEFT + i as f64 * 110.0;
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"30\" width=\"12\" height=\"12\" fill=\"{c}\"/><text x=\"{}\" \
             y=\"40\">{n}</text>",
            x + 16.0
        );
    }
    for (r, row) in rows.iter().enumerate() {
        let y = 60.0 + r as f64 * (BAR + GAP);
        let games: u64 = row.counts.iter().sum();
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            LEFT - 8.0,
            y + BAR / 2.0 + 4.0,
            escape(&row.label)
        );
        let mut x = LEFT;
        for (k, &count) in row.counts.iter().enumerate() {
            let share = if games > 0 {
                count as f64 / games as f64
            } else {
                0.0
            };
            let w = WIDTH * share;
            let _ = writeln!(
                s,
                "<rect x=\"{x:.1}\" y=\"{y}\" width=\"{w:.1}\" height=\"{BAR}\" fill=\"{}\">\
                 <title>{}: {count} of {games}</title></rect>",
                colours[k], names[k]
            );
            if w >= 36.0 {
                let _ = writeln!(
                    s,
                    "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" fill=\"white\">{:.1}%</text>",
                    x + w / 2.0,
                    y + BAR / 2.0 + 4.0,
                    100.0 * share
                );
            }
            x += w;
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{games} games</text>",
            LEFT + WIDTH + 8.0,
            y + BAR / 2.0 + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_as_wide_as_the_shares_and_labels_are_escaped() {
        let out = svg(&[
            Row {
                label: "Ashton <x>".into(),
                counts: [3, 1, 0],
            },
            Row {
                label: "empty".into(),
                counts: [0, 0, 0],
            },
        ]);
        assert!(out.starts_with("<svg "));
        assert!(out.ends_with("</svg>\n"));
        assert!(out.contains("Ashton &lt;x&gt;"));
        // 3 of 4 on a 520-unit bar is 390 units, 1 of 4 is 130.
        assert!(out.contains("width=\"390.0\""), "{out}");
        assert!(out.contains("width=\"130.0\""));
        assert!(out.contains("75.0%") && out.contains("4 games") && out.contains("0 games"));
        assert!(out.is_ascii());
    }
}
