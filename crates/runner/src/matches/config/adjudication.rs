//! Adjudication: `--resign` and `--draw`.

use super::values::{key_values, number};

/// Resignation adjudication: a side whose engine reports at most `-score` centi-soldiers for
/// `movecount` moves in a row loses (with `twosided`, only if the opponent agrees).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Resign {
    /// Consecutive moves.
    pub movecount: u32,
    /// Score threshold in centi-soldiers (positive).
    pub score: i32,
    /// The winner's engine must report at least `score` for those moves too.
    pub twosided: bool,
}

/// Draw adjudication: from move `movenumber` on, when both engines report scores within
/// `score` of zero for `movecount` moves each in a row, the game is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawAdjudication {
    /// The first full move (1 = the first two plies) at which it may apply.
    pub movenumber: u32,
    /// Consecutive moves of each side.
    pub movecount: u32,
    /// Score threshold in centi-soldiers.
    pub score: i32,
}

/// Parses the `--resign` group (defaults: movecount=3 score=1000, one-sided).
pub(super) fn resign(items: &[String]) -> Result<Resign, String> {
    let kv = key_values("--resign", items, &["movecount", "score", "twosided"])?;
    let mut r = Resign {
        movecount: 3,
        score: 1000,
        twosided: false,
    };
    for (k, v) in kv {
        match k {
            "movecount" => r.movecount = number("--resign", k, v)?,
            "score" => r.score = number("--resign", k, v)?,
            _ => {
                r.twosided = v
                    .parse()
                    .map_err(|_| format!("--resign: twosided must be true or false, not '{v}'"))?
            }
        }
    }
    if r.movecount == 0 || r.score <= 0 {
        return Err("--resign: movecount and score must be positive".into());
    }
    Ok(r)
}

/// Parses the `--draw` group (defaults: movenumber=40 movecount=8 score=10).
pub(super) fn draw(items: &[String]) -> Result<DrawAdjudication, String> {
    let kv = key_values("--draw", items, &["movenumber", "movecount", "score"])?;
    let mut d = DrawAdjudication {
        movenumber: 40,
        movecount: 8,
        score: 10,
    };
    for (k, v) in kv {
        match k {
            "movenumber" => d.movenumber = number("--draw", k, v)?,
            "movecount" => d.movecount = number("--draw", k, v)?,
            _ => d.score = number("--draw", k, v)?,
        }
    }
    if d.movecount == 0 || d.score < 0 {
        return Err("--draw: movecount must be positive and score not negative".into());
    }
    Ok(d)
}
