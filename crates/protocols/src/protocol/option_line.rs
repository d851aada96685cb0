//! The `option name … type …` line that the `uci` reply writes for each option.

use konakis_engine::options::{Kind, OptionRow};

/// The `option name … type …` line of `row` in the `uci` reply.
pub fn option_line(row: &OptionRow) -> String {
    let mut s = format!("option name {} type ", row.name);
    match row.kind {
        Kind::Check { default } => s.push_str(&format!("check default {default}")),
        Kind::Spin { default, min, max } => {
            s.push_str(&format!("spin default {default} min {min} max {max}"))
        }
        Kind::Combo { default, values } => {
            s.push_str(&format!("combo default {default}"));
            for v in values {
                s.push_str(" var ");
                s.push_str(v);
            }
        }
        Kind::Button => s.push_str("button"),
        Kind::Text { default } => s.push_str(&format!("string default {default}")),
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_engine::options;

    #[test]
    fn option_lines() {
        let line = |name| option_line(options::find(name).unwrap());
        assert_eq!(
            line("KingCapture"),
            "option name KingCapture type combo default Original var Original var English"
        );
        assert_eq!(line("Clear Hash"), "option name Clear Hash type button");
        assert_eq!(
            line("Skill Level"),
            "option name Skill Level type spin default 20 min 0 max 20"
        );
        assert_eq!(
            line("MoveLimit"),
            "option name MoveLimit type spin default 200 min 0 max 10000"
        );
        assert_eq!(
            line("uci_showwdl"),
            "option name UCI_ShowWDL type check default false"
        );
    }
}
