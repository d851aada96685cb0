//! `konakis match report --chart FILE.svg`: a bar per match (a rule family, say) showing the
//! share of games the attackers won, drawn and the defenders won, so the balance of several
//! rule sets reads at a glance. Shards of one match (the same fingerprint) make one bar. Each
//! bar carries whiskers for the 95 % interval of the attackers' and the defenders' share, and
//! [`Row::summary`] says the same in words with the ways the games ended.

use super::error::{MatchError, MergeError};
use super::fingerprint::Fingerprint;
use super::json::Finished;
use super::stats::wilson_95;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One bar: its label and the games won by the attackers, drawn, won by the defenders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// What the bar stands for.
    pub label: String,
    /// Attackers' wins, draws, defenders' wins.
    pub counts: [u64; 3],
    /// Plies played in all.
    pub plies: u64,
    /// How the games ended (the `ending` of each game: `escape`, `capture`, …, `time`), in
    /// the order first seen, with their counts.
    pub endings: Vec<(String, u64)>,
}

impl Row {
    /// One line: the games, each side's share with its 95 % interval, the draws, the average
    /// length and the endings.
    pub fn summary(&self) -> String {
        let [a, d, b] = self.counts;
        let n = a + d + b;
        let share = |k: u64| {
            let (lo, hi) = wilson_95(k, n);
            let p = if n > 0 { k as f64 / n as f64 } else { 0.0 };
            format!("{:.1}% ({:.1}-{:.1})", 100.0 * p, 100.0 * lo, 100.0 * hi)
        };
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(w, c)| format!("{w} {c}"))
            .collect();
        format!(
            "{}: {n} games; attackers {}, draws {}, defenders {} (95% intervals); \
             {:.1} plies on average; endings: {}",
            self.label,
            share(a),
            share(d),
            share(b),
            if n > 0 {
                self.plies as f64 / n as f64
            } else {
                0.0
            },
            if endings.is_empty() {
                "none recorded".into()
            } else {
                endings.join(", ")
            }
        )
    }
}

/// Reads the match JSON files: one [`Row`] per match, shards of a match added up. A bar is
/// labelled by the folder holding its shards when there are several, else by the file name.
pub fn rows(files: &[PathBuf]) -> Result<Vec<Row>, MatchError> {
    struct Bar<'a> {
        fingerprint: Fingerprint,
        paths: Vec<&'a Path>,
        counts: [u64; 3],
        plies: u64,
        endings: Vec<(String, u64)>,
    }
    let mut bars: Vec<Bar> = Vec::new();
    for path in files {
        let bad = |why: &str| MergeError::NotAResult {
            path: path.clone(),
            why: why.into(),
        };
        let text = std::fs::read_to_string(path).map_err(|source| MergeError::Read {
            path: path.clone(),
            source,
        })?;
        let v: Finished = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
        let fp = v.fingerprint.ok_or_else(|| bad("no fingerprint"))?;
        let t = v.tally.ok_or_else(|| bad("no totals"))?;
        // Tally::sides is attackers' wins, defenders' wins, draws.
        let counts = [t.sides[0], t.sides[2], t.sides[1]];
        let i = match bars.iter().position(|b| b.fingerprint == fp) {
            Some(i) => i,
            None => {
                bars.push(Bar {
                    fingerprint: fp,
                    paths: Vec::new(),
                    counts: [0; 3],
                    plies: 0,
                    endings: Vec::new(),
                });
                bars.len() - 1
            }
        };
        let bar = &mut bars[i];
        bar.paths.push(path);
        for (a, b) in bar.counts.iter_mut().zip(counts) {
            *a += b;
        }
        bar.plies += t.plies;
        for ending in v.games.into_iter().flatten().filter_map(|g| g.ending) {
            match bar.endings.iter_mut().find(|(w, _)| *w == ending) {
                Some((_, c)) => *c += 1,
                None => bar.endings.push((ending, 1)),
            }
        }
    }
    Ok(bars
        .into_iter()
        .map(
            |Bar {
                 paths,
                 counts,
                 plies,
                 endings,
                 ..
             }| {
                let label = if paths.len() > 1 {
                    paths[0].parent().and_then(Path::file_name)
                } else {
                    paths[0].file_stem()
                };
                Row {
                    label: label.map_or("match".into(), |n| n.to_string_lossy().into_owned()),
                    counts,
                    plies,
                    endings,
                }
            },
        )
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
         defenders won (whiskers: 95 % intervals)</text>"
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
        // The 95 % intervals of the attackers' share (from the left) and the defenders' (from
        // the right), as whiskers across the bar's middle.
        let [a, _, b] = row.counts;
        let (alo, ahi) = wilson_95(a, games);
        let (blo, bhi) = wilson_95(b, games);
        let mid = y + BAR / 2.0;
        for (x0, x1) in [
            (LEFT + WIDTH * alo, LEFT + WIDTH * ahi),
            (LEFT + WIDTH * (1.0 - bhi), LEFT + WIDTH * (1.0 - blo)),
        ] {
            if games > 0 {
                let _ = writeln!(
                    s,
                    "<path d=\"M{x0:.1} {:.1}V{:.1}M{x0:.1} {mid:.1}H{x1:.1}M{x1:.1} {:.1}V{:.1}\" \
                     stroke=\"black\" stroke-width=\"1.5\" fill=\"none\"/>",
                    mid - 5.0,
                    mid + 5.0,
                    mid - 5.0,
                    mid + 5.0
                );
            }
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
                plies: 200,
                endings: vec![("capture".into(), 3), ("repetition".into(), 1)],
            },
            Row {
                label: "empty".into(),
                counts: [0, 0, 0],
                plies: 0,
                endings: Vec::new(),
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
        // Whiskers only for the bar with games: two, one per side's share.
        assert_eq!(out.matches("<path ").count(), 2, "{out}");
    }

    #[test]
    fn summary_gives_shares_with_intervals_length_and_endings() {
        let row = Row {
            label: "ashton".into(),
            counts: [20, 0, 80],
            plies: 5000,
            endings: vec![("escape".into(), 80), ("capture".into(), 20)],
        };
        assert_eq!(
            row.summary(),
            "ashton: 100 games; attackers 20.0% (13.3-28.9), draws 0.0% (0.0-3.7), defenders \
             80.0% (71.1-86.7) (95% intervals); 50.0 plies on average; endings: escape 80, \
             capture 20"
        );
    }
}
