//! The cluster recipes (`cluster/*.sh`, `cluster/slurm/*.sh`) on a machine that lacks what
//! they need: each stops before it starts anything, with one line on stderr that says what is
//! missing and a non-zero exit status, and leaves no empty result file behind, also when a
//! later step fails. The recipes running for real (Slurm, GNU parallel, ssh) are
//! `.ci/slurm-test`'s part.

use std::collections::HashSet;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const KONAKIS: &str = env!("CARGO_BIN_EXE_konakis");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("konakis-recipes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A folder for `PATH` holding every program of this process's `PATH` except `hidden`, plus
/// the `fakes` (name, script).
fn path_without(dir: &Path, hidden: &[&str], fakes: &[(&str, &str)]) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let mut seen: HashSet<std::ffi::OsString> = HashSet::new();
    for (name, script) in fakes {
        let path = bin.join(name);
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        seen.insert(name.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for folder in std::env::split_paths(&path) {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if hidden.iter().any(|h| name == *h) || !seen.insert(name.clone()) {
                continue;
            }
            let _ = symlink(entry.path(), bin.join(&name));
        }
    }
    bin
}

/// Runs `script` (a path from the repository's root) under bash with only `PATH` and `vars`
/// in its environment.
fn recipe(script: &str, path: &Path, vars: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new("/bin/bash");
    c.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
        .args(args)
        .env_clear()
        .env("PATH", path)
        .envs(vars.iter().copied())
        .stdin(Stdio::null());
    c.output().expect("bash runs")
}

/// The recipe stopped with exit status 1 and exactly the line `line` on stderr.
fn assert_stops(out: &Output, line: &str, context: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{context}: {err}");
    assert_eq!(err, format!("{line}\n"), "{context}: one line on stderr");
    assert!(out.stdout.is_empty(), "{context}: nothing on stdout");
}

/// Every file under `dir`, and whether one is empty.
fn files_under(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            found.extend(files_under(&p));
        } else {
            found.push((p.clone(), e.metadata().unwrap().len()));
        }
    }
    found
}

/// Environment variables of a recipe, as (name, value).
type Vars<'a> = Vec<(&'a str, &'a str)>;

/// `base` with the variables of `extra` set to theirs.
fn overridden<'a>(
    base: &[(&'a str, &'a str)],
    extra: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut v = base.to_vec();
    for (k, val) in extra {
        v.retain(|(key, _)| key != k);
        v.push((k, val));
    }
    v
}

const MATCH: [&str; 6] = [
    "--engine",
    "cmd=konakis",
    "--engine",
    "cmd=konakis",
    "--games",
    "2",
];

#[test]
fn parallel_sh_says_in_one_line_what_is_missing_and_creates_nothing() {
    let dir = scratch("parallel");
    let results = dir.join("results");
    let r = results.to_str().unwrap();
    let no_tools = path_without(&dir, &["parallel", "konakis", "sbatch"], &[]);
    let base = [("RESULTS", r), ("SHARDS", "2"), ("KONAKIS", KONAKIS)];
    let vars = |extra: &[(&'static str, &'static str)]| overridden(&base, extra);
    let cases: [(&str, Vars, &str); 5] = [
        (
            "no GNU parallel",
            vars(&[]),
            "parallel.sh: GNU parallel not found: install it (apt-get install parallel)",
        ),
        (
            "no RESULTS",
            vars(&[("RESULTS", "")]),
            "parallel.sh: set RESULTS to the folder for the results, e.g. RESULTS=results",
        ),
        (
            "SHARDS not a number",
            vars(&[("SHARDS", "eight")]),
            "parallel.sh: set SHARDS to the number of shards (1 or more), e.g. SHARDS=8",
        ),
        (
            "KONAKIS not a program",
            vars(&[("KONAKIS", "/nonexistent/konakis")]),
            "parallel.sh: konakis program '/nonexistent/konakis' not found: set KONAKIS to it \
             or put it on the PATH",
        ),
        (
            "no konakis on the PATH",
            vars(&[("KONAKIS", "")]),
            "parallel.sh: konakis program 'konakis' not found: set KONAKIS to it or put it on \
             the PATH",
        ),
    ];
    for (context, vars, line) in &cases {
        let out = recipe("cluster/parallel.sh", &no_tools, vars, &MATCH);
        assert_stops(&out, line, context);
        assert!(!results.exists(), "{context}: RESULTS not created");
    }
    // A `parallel` that is not GNU parallel (moreutils' has no --version).
    let dir2 = scratch("parallel-moreutils");
    let moreutils = path_without(
        &dir2,
        &["parallel", "konakis", "sbatch"],
        &[(
            "parallel",
            "#!/bin/sh\necho 'parallel: invalid option' >&2\nexit 1\n",
        )],
    );
    let out = recipe("cluster/parallel.sh", &moreutils, &vars(&[]), &MATCH);
    assert_stops(
        &out,
        "parallel.sh: 'parallel' on the PATH is not GNU parallel (moreutils has another): \
         install GNU parallel",
        "moreutils' parallel",
    );
    // A RESULTS folder that cannot be made (under a file), with a GNU parallel present.
    let gnu = path_without(
        &dir2.join("gnu"),
        &["parallel", "konakis", "sbatch"],
        &[(
            "parallel",
            "#!/bin/sh\n[ \"$1\" = --version ] && echo 'GNU parallel 20240222'\nexit 0\n",
        )],
    );
    std::fs::write(dir.join("file"), "x").unwrap();
    let under_file = dir.join("file/results");
    let out = recipe(
        "cluster/parallel.sh",
        &gnu,
        &overridden(&base, &[("RESULTS", under_file.to_str().unwrap())]),
        &MATCH,
    );
    assert_stops(
        &out,
        &format!(
            "parallel.sh: cannot create the folder {}/games",
            under_file.display()
        ),
        "RESULTS under a file",
    );
    // The shards all fail (here the stand-in parallel runs none): no empty shards.txt or
    // merged.txt, and a line that says so.
    let out = recipe("cluster/parallel.sh", &gnu, &vars(&[]), &MATCH);
    assert_stops(
        &out,
        "parallel.sh: no shard finished (the shards' errors are above)",
        "no shard ran",
    );
    assert_eq!(files_under(&results), vec![], "no file left in RESULTS");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

#[test]
fn sprt_waves_sh_checks_its_runner_and_its_arguments_first() {
    let dir = scratch("waves");
    let results = dir.join("results");
    let r = results.to_str().unwrap();
    let no_tools = path_without(&dir, &["parallel", "konakis", "sbatch"], &[]);
    let base = [
        ("RESULTS", r),
        ("SHARDS", "4"),
        ("WAVE", "2"),
        ("KONAKIS", KONAKIS),
    ];
    let with = |extra: (&'static str, &'static str)| {
        let mut v = base.to_vec();
        v.push(extra);
        v
    };
    let mut args = vec!["--sprt", "elo0=0", "elo1=5", "--"];
    args.extend(MATCH);
    let cases = [
        (
            with(("RUN", "slurm")),
            args.clone(),
            "sprt-waves.sh: RUN=slurm needs sbatch (Slurm) on the PATH",
        ),
        (
            with(("RUN", "parallel")),
            args.clone(),
            "sprt-waves.sh: GNU parallel not found: install it (apt-get install parallel) or \
             use RUN=slurm",
        ),
        (
            with(("RUN", "local")),
            args.clone(),
            "sprt-waves.sh: RUN must be slurm or parallel, not 'local'",
        ),
        (
            with(("WAVE", "")),
            args.clone(),
            "sprt-waves.sh: set WAVE to the number of shards per wave (1 or more), e.g. WAVE=10",
        ),
        (
            with(("RUN", "slurm")),
            vec!["--sprt", "elo0=0", "elo1=5"],
            "sprt-waves.sh: usage: sprt-waves.sh --sprt elo0=.. elo1=.. -- <konakis match \
             flags>",
        ),
    ];
    for (vars, args, line) in &cases {
        let out = recipe("cluster/sprt-waves.sh", &no_tools, vars, args);
        assert_stops(&out, line, line);
        assert!(!results.exists(), "{line}: RESULTS not created");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slurm_recipes_check_sbatch_and_their_task_and_leave_no_empty_tables() {
    let dir = scratch("slurm");
    let results = dir.join("results");
    let r = results.to_str().unwrap();
    let no_tools = path_without(&dir, &["parallel", "konakis", "sbatch"], &[]);
    let out = recipe(
        "cluster/slurm/submit.sh",
        &no_tools,
        &[("RESULTS", r), ("SHARDS", "4"), ("KONAKIS", KONAKIS)],
        &MATCH,
    );
    assert_stops(
        &out,
        "submit.sh: sbatch (Slurm) not found on the PATH",
        "submit without Slurm",
    );
    assert!(!results.exists());
    let out = recipe(
        "cluster/slurm/match-array.sh",
        &no_tools,
        &[("RESULTS", r), ("KONAKIS", KONAKIS)],
        &MATCH,
    );
    assert_stops(
        &out,
        "match-array.sh: run this with sbatch --array (SLURM_ARRAY_TASK_ID is not set)",
        "an array task outside Slurm",
    );
    assert!(!results.exists());

    // A task whose match fails (an engine that does not exist): konakis says why, and the
    // task leaves no empty shard-K.txt.
    let task = [
        ("RESULTS", r),
        ("KONAKIS", KONAKIS),
        ("SLURM_ARRAY_TASK_ID", "0"),
        ("SHARDS", "2"),
    ];
    let out = recipe(
        "cluster/slurm/match-array.sh",
        &no_tools,
        &task,
        &[
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            "cmd=/nonexistent/engine",
        ],
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
    assert_eq!(files_under(&results), vec![], "no empty shard-0.txt");

    // The merge with no shard, then with a shard that is not one: one line, no merged.txt.
    let merge_vars = [("RESULTS", r), ("KONAKIS", KONAKIS)];
    let out = recipe("cluster/slurm/merge.sh", &no_tools, &merge_vars, &[]);
    assert_stops(
        &out,
        &format!(
            "merge.sh: no shard-*.json in {r}: no task of the array finished (see \
             konakis-match-*.log)"
        ),
        "merge of nothing",
    );
    std::fs::write(results.join("shard-0.json"), "{}\n").unwrap();
    let out = recipe("cluster/slurm/merge.sh", &no_tools, &merge_vars, &[]);
    assert_stops(
        &out,
        &format!(
            "error: {r}/shard-0.json: not a finished match's JSON: no fingerprint (written by \
             an older konakis?)"
        ),
        "merge of a bad shard",
    );
    let left: Vec<_> = files_under(&results).into_iter().map(|f| f.0).collect();
    assert_eq!(left, vec![results.join("shard-0.json")], "no merged.txt");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn balance_sh_checks_its_families_and_tools_before_the_first_match() {
    let dir = scratch("balance");
    let results = dir.join("results");
    let r = results.to_str().unwrap();
    let no_tools = path_without(&dir, &["parallel", "konakis", "sbatch"], &[]);
    let out = recipe(
        "cluster/balance.sh",
        &no_tools,
        &[
            ("RESULTS", r),
            ("KONAKIS", KONAKIS),
            ("FAMILIES", "ashton nine"),
        ],
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("balance.sh: unknown family 'nine' (the families: ")
            && err.lines().count() == 1,
        "{err}"
    );
    let out = recipe(
        "cluster/balance.sh",
        &no_tools,
        &[("RESULTS", r), ("KONAKIS", KONAKIS), ("FAMILIES", "ashton")],
        &[],
    );
    assert_stops(
        &out,
        "balance.sh: GNU parallel not found: install it (apt-get install parallel)",
        "balance without GNU parallel",
    );
    assert!(!results.exists(), "no folder made before the checks pass");
    let _ = std::fs::remove_dir_all(&dir);
}
