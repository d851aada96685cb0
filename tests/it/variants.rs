//! `UCI_Variant` and variants files, as a front-end and a club use them: load a file of house
//! rules, see its variants in `uci`, choose one and play under it; a bad file, a missing one
//! and an unknown name are refused with their reasons and change nothing; `konakis variants
//! check` reports each mistake with its line.

use crate::common::matches::{engine_session, run, scratch, text};

const CLUB: &str = "# the club's house rules\n\
                    [club]\n\
                    base = taflhub\n\
                    KingArmed = false   ; the king does not fight\n\
                    \n\
                    [club-long]\n\
                    base = club\n\
                    MoveLimit = 400\n";

/// The `Rules:` line `d` prints.
fn rules_line(session: &str) -> Vec<&str> {
    session
        .lines()
        .filter(|l| l.starts_with("Rules: "))
        .collect()
}

#[test]
fn a_loaded_variant_is_offered_chosen_and_played_and_a_preset_chosen_after_it() {
    let dir = scratch("variants-play");
    let file = dir.join("club.ini");
    std::fs::write(&file, CLUB).unwrap();
    let session = engine_session(&[
        "uci",
        &format!("setoption name VariantPath value {}", file.display()),
        "uci",
        "setoption name UCI_Variant value club-long",
        "position startpos moves d1d3",
        "d",
        "go depth 3",
        "setoption name UCI_Variant value English",
        "d",
    ]);
    let variant_lines: Vec<&str> = session
        .lines()
        .filter(|l| l.starts_with("option name UCI_Variant "))
        .collect();
    // Tablut's presets, the family's games, then the file's variants.
    let builtin = konakis_core::rules::VARIANTS.iter().fold(
        "option name UCI_Variant type combo default original var original var english var \
         taflhub var encyclopedia var ashton"
            .to_string(),
        |line, game| format!("{line} var {}", game.id),
    );
    assert_eq!(
        variant_lines,
        [builtin.clone(), format!("{builtin} var club var club-long")],
        "{session}"
    );
    assert_eq!(
        rules_line(&session),
        [
            "Rules: Ruleset=Linnaeus KingCapture=English FirstMove=Attackers KingArmed=false \
             ThroneHostile=true KingReentersThrone=false ThronePassable=true \
             ThroneGuardCapture=false RepetitionDraw=3 MoveLimit=400 Encirclement=false",
            "Rules: Ruleset=Linnaeus KingCapture=English FirstMove=Attackers KingArmed=true \
             ThroneHostile=false KingReentersThrone=true ThronePassable=true \
             ThroneGuardCapture=true RepetitionDraw=3 MoveLimit=200 Encirclement=false",
        ],
        "{session}"
    );
    assert!(session.contains("bestmove "), "{session}");
    assert!(!session.contains("error"), "{session}");
}

#[test]
fn bad_files_and_unknown_names_are_refused_by_reason_and_keep_what_was_loaded() {
    let dir = scratch("variants-bad");
    let good = dir.join("club.ini");
    let bad = dir.join("bad.ini");
    std::fs::write(&good, CLUB).unwrap();
    std::fs::write(&bad, "[x]\nKingArmed = maybe\n[ashton]\n").unwrap();
    let session = engine_session(&[
        &format!("setoption name VariantPath value {}", good.display()),
        "setoption name UCI_Variant value club",
        &format!("setoption name VariantPath value {}", bad.display()),
        &format!(
            "setoption name VariantPath value {}",
            dir.join("none.ini").display()
        ),
        "setoption name UCI_Variant value clubb",
        "setoption name UCI_Variant",
        "d",
        "setoption name UCI_Variant value club-long",
        "d",
        "setoption name VariantPath value <empty>",
        "setoption name UCI_Variant value club",
    ]);
    let errors: Vec<&str> = session
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 5, "{session}");
    assert!(
        errors[0].starts_with(
            "info string error: setoption: VariantPath: line 2: invalid value 'maybe' for \
             KingArmed (allowed: true, false); line 3: 'ashton' is a built-in variant's name"
        ),
        "{session}"
    );
    assert!(
        errors[1].contains("VariantPath: cannot read") && errors[1].contains("none.ini"),
        "{session}"
    );
    // The presets, the family's games, then the file's variants.
    let family = konakis_core::rules::VARIANTS
        .iter()
        .map(|v| v.id)
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(
        errors[2],
        format!(
            "info string error: setoption: UCI_Variant: no variant 'clubb' (variants: \
             original, english, taflhub, encyclopedia, ashton, {family}, club, club-long)"
        )
    );
    assert!(errors[3].contains("UCI_Variant needs a value"), "{session}");
    // After <empty>, the file's variants are gone.
    assert!(
        errors[4].contains(&format!(
            "no variant 'club' (variants: original, english, taflhub, encyclopedia, ashton, \
             {family})"
        )),
        "{session}"
    );
    // The refusals left the club's rules and its file in place.
    let rules = rules_line(&session);
    assert!(rules[0].contains("KingArmed=false") && rules[0].contains("MoveLimit=200"));
    assert!(rules[1].contains("KingArmed=false") && rules[1].contains("MoveLimit=400"));
    for line in session.lines() {
        assert!(line.is_ascii(), "{line:?}");
    }
}

#[test]
fn variants_check_reports_each_mistake_with_its_line_and_lists_a_good_file() {
    let dir = scratch("variants-check");
    let good = dir.join("club.ini");
    let bad = dir.join("bad.ini");
    std::fs::write(&good, CLUB).unwrap();
    std::fs::write(
        &bad,
        "KingArmed = false\n[club]\nbase = nowhere\nKingCapture = Fourfold\n[club]\n",
    )
    .unwrap();
    let out = run(&["variants", "check", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let b = bad.display();
    assert_eq!(
        text(&out.stdout).lines().collect::<Vec<_>>(),
        [
            format!("{b}:1: a setting before the first [name] section"),
            format!(
                "{b}:3: base 'nowhere' is neither a preset (original, english, taflhub, \
                 encyclopedia, ashton), a game of `konakis variants` nor a variant above"
            ),
            format!("{b}:4: invalid value 'Fourfold' for KingCapture (allowed: Original, English)"),
            format!("{b}:5: 'club' is defined already, on line 2"),
        ]
    );
    let out = run(&["variants", "check", good.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        format!(
            "{}: no mistakes; 2 variant(s): club, club-long\n",
            good.display()
        )
    );
    let out = run(&["variants", "list", good.to_str().unwrap()]);
    assert!(out.status.success());
    let listing = text(&out.stdout);
    assert!(
        listing.contains("  taflhub: Ruleset=Linnaeus KingCapture=English"),
        "{listing}"
    );
    assert!(
        listing.contains("  club-long: ") && listing.contains("MoveLimit=400"),
        "{listing}"
    );
    let missing = run(&["variants", "check", dir.join("none.ini").to_str().unwrap()]);
    assert!(!missing.status.success());
    assert!(
        text(&missing.stderr).contains("cannot read"),
        "{}",
        text(&missing.stderr)
    );
}

#[test]
fn a_house_variant_of_copenhagen_plays_on_11x11_and_one_of_tablut_brings_the_board_back() {
    let dir = scratch("variants-family");
    let file = dir.join("club.ini");
    std::fs::write(
        &file,
        "[club-cph]\nbase = copenhagen-11\nMoveLimit = 300\n\n[club-long-cph]\nbase = club-cph\n\
         MoveLimit = 400\n\n[club]\nbase = taflhub\n",
    )
    .unwrap();
    let check = run(&["variants", "check", file.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check.stdout));
    let list = text(&run(&["variants", "list", file.to_str().unwrap()]).stdout);
    assert!(
        list.contains("  club-long-cph: 11x11, based on copenhagen-11; ")
            && list.contains("MoveLimit=400"),
        "{list}"
    );
    let session = engine_session(&[
        &format!("setoption name VariantPath value {}", file.display()),
        "setoption name UCI_Variant value club-long-cph",
        "position startpos moves k4k3",
        "d",
        "go depth 2",
        "setoption name UCI_Variant value club",
        "d",
    ]);
    // Copenhagen's start on 11x11, the move played there, the house rules in force.
    assert!(
        session.contains(
            "Position: 3bbbbb3/5b5/11/b4w4b/b3www3b/bb1wwKww1bb/b3www3b/b4w5/10b/5b5/3bbbbb3 w 1"
        ),
        "{session}"
    );
    assert!(
        session.contains("Game: club-long-cph (variants file, based on copenhagen-11)"),
        "{session}"
    );
    let rules = rules_line(&session);
    assert!(rules[0].contains("MoveLimit=400"), "{session}");
    let best = session
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("{session}"));
    // A defenders' move on 11x11.
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(mv.len() >= 4, "{best}");
    // The Tablut variant brings Tablut's board back, from its start.
    assert!(
        session.contains("Position: 3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0"),
        "{session}"
    );
    assert!(rules[1].contains("KingCapture=English"), "{session}");
    assert!(!session.contains("error"), "{session}");
    // A house variant may not take a family game's name.
    std::fs::write(&file, "[copenhagen-11]\nMoveLimit = 10\n").unwrap();
    let out = run(&["variants", "check", file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("'copenhagen-11' is a built-in variant's name; choose another"),
        "{}",
        text(&out.stdout)
    );
}
