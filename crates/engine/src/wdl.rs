//! Win, draw and loss chances from a search score: what "+6.59" means to a player.
//!
//! A search score says which side stands better, in centi-soldiers of the evaluation's own
//! making; a player understands "the attackers win about 8 games in 10 from here". The model
//! here turns one into the other. It was fitted by maximum likelihood on Konakis' self-play
//! games (`konakis wdl-fit`, docs/winchances.md), one [`Model`] for each rule family with a
//! network and each side to move: the two sides of tafl are far from symmetric, and a score
//! of +2 soldiers is worth more to the defenders than to the attackers.
//!
//! The form is Stockfish's with a centre: for a score `x` of the side to move (other than 0),
//!
//! ```text
//! win  = 1 / (1 + exp((centre + width - x) / scale))
//! loss = 1 / (1 + exp((x - centre + width) / scale))
//! draw = 1 - win - loss
//! ```
//!
//! `centre` is the score at which a win and a loss are equally likely, `width` half the band of
//! scores where a draw is likely, `scale` how fast the odds turn with the score. Each is a
//! cubic in the game's progress, the plies played as a share of the move limit (draws crowd in
//! as the limit nears), or of [`HORIZON_WITHOUT_LIMIT`] plies under rules without one. A score
//! of exactly 0 is the search's score of a draw it sees coming, and has chances of its own
//! ([`Model::at_zero`]). Rules without a fitted model take the nearest family's
//! ([`fitted_family`]).

use crate::Size;
use crate::network::RuleFamily;
use crate::search::Score;
use konakis_core::board::Status;
use konakis_core::rules::{KingCapture, Rules, Ruleset};
use konakis_core::types::Side;

/// Chances for the side to move, per mille; win + draw + loss == 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Chance of a win, per mille.
    pub win: u32,
    /// Chance of a draw, per mille.
    pub draw: u32,
    /// Chance of a loss, per mille.
    pub loss: u32,
}

impl Wdl {
    /// A certain win.
    pub const WIN: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain loss.
    pub const LOSS: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };

    /// A certain draw.
    pub const DRAW: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };

    /// The chances of probabilities `win` and `loss` (each in 0.0..=1.0, their sum at most
    /// 1.0), rounded to per mille; the draw takes what is left.
    pub fn from_probabilities(win: f64, loss: f64) -> Wdl {
        let per_mille = |p: f64| (p.clamp(0.0, 1.0) * 1000.0).round() as u32;
        let win = per_mille(win);
        let loss = per_mille(loss).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// Expected score in 0.0..=1.0: (win + draw/2) / 1000.
    pub fn expected(&self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }

    /// The same chances for the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }
}

/// The degree of the polynomials in the game's progress.
pub const DEGREE: usize = 3;

/// The smallest `scale` the model uses, in centi-soldiers (a steeper curve would be a step).
pub const MIN_SCALE: f64 = 10.0;

/// The plies that count as a whole game under rules without a move limit (Ashton): past
/// them the progress stays 1. The self-play games the model was fitted on were stopped as
/// draws there (`konakis datagen --max-plies`).
pub const HORIZON_WITHOUT_LIMIT: u32 = 400;

/// The model of one rule family and side to move: three polynomials in the game's progress
/// `u` (0 at the start, 1 at the move limit), coefficients from the constant term up, in
/// centi-soldiers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// The score at which a win and a loss are equally likely.
    pub centre: [f64; DEGREE + 1],
    /// Half the width of the band of likely draws (taken as 0 where it is below).
    pub width: [f64; DEGREE + 1],
    /// Centi-soldiers that multiply the odds of a win by e (at least [`MIN_SCALE`]).
    pub scale: [f64; DEGREE + 1],
    /// The probabilities of a win and of a loss at a score of exactly 0, which is the search's
    /// score of a draw it sees coming (by repetition, or the move limit) far more often than an
    /// even position: of the default rules' self-play positions with the defenders to move,
    /// 87 % of those scored 0 were drawn, against 15 % of those scored 1 to 9 centi-soldiers
    /// either way. The curves are fitted without these positions.
    pub at_zero: (f64, f64),
}

impl Model {
    /// The probabilities of a win and of a loss for the side to move at score `cp` and
    /// progress `u`; the draw's is the rest, never negative.
    pub fn probabilities(&self, cp: f64, u: f64) -> (f64, f64) {
        if cp == 0.0 {
            return self.at_zero;
        }
        let centre = polynomial(&self.centre, u);
        let width = polynomial(&self.width, u).max(0.0);
        let scale = polynomial(&self.scale, u).max(MIN_SCALE);
        let win = logistic((cp - centre - width) / scale);
        let loss = logistic((centre - width - cp) / scale);
        (win, loss)
    }
}

fn polynomial(coefficients: &[f64], u: f64) -> f64 {
    coefficients.iter().rev().fold(0.0, |sum, c| sum * u + c)
}

fn logistic(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// The game's progress after `plies` under `rules`: the share of the move limit played (of
/// [`HORIZON_WITHOUT_LIMIT`] without one), at most 1.
pub fn progress(plies: u32, rules: &Rules) -> f64 {
    let horizon = match rules.move_limit {
        0 => HORIZON_WITHOUT_LIMIT,
        limit => limit,
    };
    (f64::from(plies) / f64::from(horizon)).min(1.0)
}

/// The family whose model serves under `rules`: its own where it has one, else the nearest
/// (Ashton's under `Ruleset=Ashton`, `KingCapture=English`'s under English king capture, the
/// default rules' otherwise).
pub fn fitted_family(rules: &Rules) -> RuleFamily {
    match RuleFamily::of(rules) {
        RuleFamily::Other if rules.ruleset == Ruleset::Ashton => RuleFamily::Ashton,
        RuleFamily::Other if rules.king_capture == KingCapture::English => RuleFamily::English,
        RuleFamily::Other => RuleFamily::Default,
        family => family,
    }
}

/// The fitted model of `family` (a family without one: [`RuleFamily::Default`]'s) with `side`
/// to move.
pub fn model(family: RuleFamily, side: Side) -> &'static Model {
    let row = match family {
        RuleFamily::Default | RuleFamily::Other => 0,
        RuleFamily::English => 1,
        RuleFamily::Ashton => 2,
    };
    &MODELS[row][side as usize]
}

/// Whether the model knows a game on the board `G` under `rules`: Tablut's board under
/// Tablut's rules. The tafl family's games (other boards, or Tablut's board under the
/// family's rules) have no model yet: their win chances are "not modelled".
pub fn modelled<G: Size>(rules: &Rules) -> bool {
    G::TABLUT && !rules.family_rules()
}

/// The chances of a position whose search score is `score` (side to move's view,
/// konakis_engine::search::Score: Cp or Mate), with `plies` played since the start and
/// `board`'s side to move, under `rules`.
pub fn wdl(score: Score, plies: u32, side_to_move: Side, rules: &Rules) -> Wdl {
    match score {
        Score::Mate(n) if n > 0 => Wdl::WIN,
        Score::Mate(_) => Wdl::LOSS,
        Score::Cp(cp) => {
            let model = model(fitted_family(rules), side_to_move);
            let (win, loss) = model.probabilities(f64::from(cp), progress(plies, rules));
            Wdl::from_probabilities(win, loss)
        }
    }
}

/// The chances of a finished game for `side_to_move`, which are certain; `None` while it goes
/// on.
pub fn of_status(status: Status, side_to_move: Side) -> Option<Wdl> {
    match status {
        Status::Ongoing => None,
        Status::Draw(_) => Some(Wdl::DRAW),
        Status::Win(side, _) if side == side_to_move => Some(Wdl::WIN),
        Status::Win(..) => Some(Wdl::LOSS),
    }
}

/// The chances in words, from the attackers' and defenders' view: "attackers win 82 %, draw
/// 10 %, defenders win 8 %" (percentages rounded so that they add up to 100).
pub fn describe(wdl: Wdl, side_to_move: Side) -> String {
    let (attackers, defenders) = match side_to_move {
        Side::Attackers => (wdl.win, wdl.loss),
        Side::Defenders => (wdl.loss, wdl.win),
    };
    let attackers_pc = (attackers + 5) / 10;
    let defenders_pc = ((defenders + 5) / 10).min(100 - attackers_pc);
    let draw_pc = 100 - attackers_pc - defenders_pc;
    format!("attackers win {attackers_pc} %, draw {draw_pc} %, defenders win {defenders_pc} %")
}

// `MODELS`, indexed by family (default, KingCapture=English, Ashton) and side to move
// (attackers, defenders): written by `konakis wdl-fit --out crates/engine/src/wdl_table.rs`.
include!("wdl_table.rs");

#[cfg(test)]
mod tests {
    use super::*;

    fn all_rules() -> [Rules; 3] {
        [
            Rules::default(),
            Rules {
                king_capture: KingCapture::English,
                ..Rules::default()
            },
            Rules::ashton(),
        ]
    }

    #[test]
    fn chances_add_up_to_a_thousand() {
        for rules in all_rules() {
            for side in Side::BOTH {
                for plies in [0, 20, 77, 150, 199, 200, 400] {
                    for cp in (-3000..=3000).step_by(37) {
                        let w = wdl(Score::Cp(cp), plies, side, &rules);
                        assert_eq!(w.win + w.draw + w.loss, 1000, "{w:?} at {cp} cp");
                    }
                }
            }
        }
    }

    #[test]
    fn more_score_never_lowers_the_win_nor_raises_the_loss() {
        // Every score but exactly 0, which is the search's draw score (tested below).
        for rules in all_rules() {
            for side in Side::BOTH {
                for plies in [0, 40, 120, 190] {
                    let mut last = wdl(Score::Cp(-5000), plies, side, &rules);
                    for cp in (-4990..=5000).step_by(10).filter(|&cp| cp != 0) {
                        let w = wdl(Score::Cp(cp), plies, side, &rules);
                        assert!(w.win >= last.win && w.loss <= last.loss, "{last:?} {w:?}");
                        assert!(w.expected() >= last.expected());
                        last = w;
                    }
                    let low = wdl(Score::Cp(-5000), plies, side, &rules);
                    let high = wdl(Score::Cp(5000), plies, side, &rules);
                    assert!(high.win > 900 && low.loss > 900, "{low:?} {high:?}");
                }
            }
        }
    }

    #[test]
    fn a_mate_is_certain() {
        for rules in all_rules() {
            for side in Side::BOTH {
                assert_eq!(wdl(Score::Mate(1), 10, side, &rules), Wdl::WIN);
                assert_eq!(wdl(Score::Mate(7), 10, side, &rules), Wdl::WIN);
                assert_eq!(wdl(Score::Mate(-1), 10, side, &rules), Wdl::LOSS);
                assert_eq!(wdl(Score::Mate(-12), 10, side, &rules), Wdl::LOSS);
            }
        }
    }

    #[test]
    fn flipping_swaps_win_and_loss_and_mirrors_the_expected_score() {
        let w = Wdl {
            win: 700,
            draw: 120,
            loss: 180,
        };
        assert_eq!(
            w.flipped(),
            Wdl {
                win: 180,
                draw: 120,
                loss: 700
            }
        );
        assert_eq!(w.flipped().flipped(), w);
        assert!((w.expected() - 0.76).abs() < 1e-12);
        assert!((w.expected() + w.flipped().expected() - 1.0).abs() < 1e-12);
        assert_eq!(Wdl::WIN.flipped(), Wdl::LOSS);
    }

    #[test]
    fn the_sides_are_not_symmetric() {
        // The models are fitted for each side to move: the same score is not the same chance.
        let rules = Rules::ashton();
        let attackers = wdl(Score::Cp(300), 10, Side::Attackers, &rules);
        let defenders = wdl(Score::Cp(300), 10, Side::Defenders, &rules);
        assert_ne!(attackers, defenders);
    }

    #[test]
    fn a_score_of_zero_is_mostly_a_draw_the_search_saw() {
        // With the defenders to move, 0 is far more often a draw than 1 centi-soldier either
        // way (the self-play data say so under every family with a model).
        for rules in all_rules() {
            let zero = wdl(Score::Cp(0), 60, Side::Defenders, &rules);
            let near = wdl(Score::Cp(1), 60, Side::Defenders, &rules);
            assert!(zero.draw > near.draw, "{zero:?} {near:?}");
        }
    }

    #[test]
    fn rounding_keeps_the_sum_and_the_draw_is_the_rest() {
        assert_eq!(
            Wdl::from_probabilities(0.4996, 0.5004),
            Wdl {
                win: 500,
                draw: 0,
                loss: 500
            }
        );
        assert_eq!(
            Wdl::from_probabilities(0.12345, 0.3),
            Wdl {
                win: 123,
                draw: 577,
                loss: 300
            }
        );
        assert_eq!(Wdl::from_probabilities(1.0, 0.0), Wdl::WIN);
    }

    #[test]
    fn progress_counts_toward_the_move_limit() {
        let rules = Rules::default();
        assert_eq!(progress(0, &rules), 0.0);
        assert_eq!(progress(rules.move_limit / 2, &rules), 0.5);
        assert_eq!(progress(rules.move_limit * 3, &rules), 1.0);
        let unlimited = Rules {
            move_limit: 0,
            ..rules
        };
        assert_eq!(progress(HORIZON_WITHOUT_LIMIT / 4, &unlimited), 0.25);
    }

    #[test]
    fn families_without_a_model_take_the_nearest() {
        let mut rules = Rules::default();
        assert_eq!(fitted_family(&rules), RuleFamily::Default);
        rules.king_armed = false;
        assert_eq!(RuleFamily::of(&rules), RuleFamily::Other);
        assert_eq!(fitted_family(&rules), RuleFamily::Default);
        rules.king_capture = KingCapture::English;
        assert_eq!(fitted_family(&rules), RuleFamily::English);
        assert_eq!(fitted_family(&Rules::ashton()), RuleFamily::Ashton);
        let longer = Rules {
            move_limit: 500,
            ..Rules::ashton()
        };
        assert_eq!(fitted_family(&longer), RuleFamily::Ashton);
    }

    #[test]
    fn a_finished_game_is_certain() {
        use konakis_core::board::{DrawReason, WinReason};
        let won = Status::Win(Side::Defenders, WinReason::KingEscaped);
        assert_eq!(of_status(won, Side::Defenders), Some(Wdl::WIN));
        assert_eq!(of_status(won, Side::Attackers), Some(Wdl::LOSS));
        let drawn = Status::Draw(DrawReason::Repetition);
        assert_eq!(of_status(drawn, Side::Attackers), Some(Wdl::DRAW));
        assert_eq!(of_status(Status::Ongoing, Side::Attackers), None);
    }

    #[test]
    fn the_words_name_each_side_and_add_up_to_100() {
        let w = Wdl {
            win: 823,
            draw: 96,
            loss: 81,
        };
        assert_eq!(
            describe(w, Side::Attackers),
            "attackers win 82 %, draw 10 %, defenders win 8 %"
        );
        assert_eq!(
            describe(w, Side::Defenders),
            "attackers win 8 %, draw 10 %, defenders win 82 %"
        );
        let even = Wdl {
            win: 335,
            draw: 330,
            loss: 335,
        };
        assert_eq!(
            describe(even, Side::Attackers),
            "attackers win 34 %, draw 32 %, defenders win 34 %"
        );
    }
}
