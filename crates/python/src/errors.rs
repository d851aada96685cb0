//! The Python exceptions: one class per kind of failure, all under `KonakisError`, each
//! instance carrying `reason`, the Rust error's variant in kebab case, and the native message.
//! Their module is `konakis`, where the package exports them, so that they pickle (a worker
//! process of a vector environment sends its exception back pickled).

use konakis_core::board::{GameError, IllegalReason, MoveError};
use konakis_core::types::MoveParseError;
use konakis_core::{board, rules as core_rules};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::fmt;

create_exception!(
    konakis,
    KonakisError,
    PyException,
    "Every error of the konakis package; `reason` names it in a word."
);
create_exception!(
    konakis,
    MoveSyntaxError,
    KonakisError,
    "Text that is not a move or not a square."
);
create_exception!(
    konakis,
    IllegalMoveError,
    KonakisError,
    "A well-formed move the position does not allow; `move` is the move."
);
create_exception!(
    konakis,
    GameOverError,
    KonakisError,
    "A move after the end of the game."
);
create_exception!(
    konakis,
    PositionError,
    KonakisError,
    "A bad position string."
);
create_exception!(
    konakis,
    RulesError,
    KonakisError,
    "An unknown preset or option, or a value it does not allow."
);
create_exception!(
    konakis,
    RecordError,
    KonakisError,
    "An OpenTafl record that cannot be read or written."
);
create_exception!(
    konakis,
    SearchError,
    KonakisError,
    "The in-process engine refused a request."
);

/// `ArgumentError`, made once: a `KonakisError` that is also a `ValueError` (what Python code
/// catches for a bad value), which `create_exception!` cannot make since it takes one base.
static ARGUMENT_ERROR: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// The class `ArgumentError`.
fn argument_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    ARGUMENT_ERROR
        .get_or_try_init(py, || {
            let bases = PyTuple::new(
                py,
                [
                    py.get_type::<KonakisError>(),
                    py.get_type::<pyo3::exceptions::PyValueError>(),
                ],
            )?;
            let namespace = PyDict::new(py);
            namespace.set_item("__module__", "konakis")?;
            namespace.set_item(
                "__doc__",
                "A number out of its range, or an argument value the function does not take \
                 (reason: `negative`, `too-large`, `not-a-side`, ...); also a ValueError.",
            )?;
            let class = py
                .get_type::<PyType>()
                .call1(("ArgumentError", bases, namespace))?
                .downcast_into::<PyType>()?;
            Ok(class.unbind())
        })
        .map(|class| class.bind(py))
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("KonakisError", py.get_type::<KonakisError>())?;
    m.add("MoveSyntaxError", py.get_type::<MoveSyntaxError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("SearchError", py.get_type::<SearchError>())?;
    m.add("ArgumentError", argument_error_type(py)?)?;
    Ok(())
}

/// `NotASquare { .. }` -> `not-a-square`: the variant name of a `Debug` text, in kebab case.
pub fn kebab(debug: &str) -> String {
    let name = debug
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or_default();
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// An exception of class `E` with `message` and the attributes `reason` (and more).
fn raise<E: pyo3::PyTypeInfo>(
    message: impl fmt::Display,
    reason: &str,
    extra: &[(&str, String)],
) -> PyErr {
    Python::with_gil(|py| raise_class(&py.get_type::<E>(), message, reason, extra))
}

/// An exception of `class` with `message` and the attributes `reason` (and more).
fn raise_class(
    class: &Bound<'_, PyType>,
    message: impl fmt::Display,
    reason: &str,
    extra: &[(&str, String)],
) -> PyErr {
    let py = class.py();
    let err = PyErr::from_type(class.clone(), message.to_string());
    let value = err.value(py);
    // Setting an attribute on a fresh exception instance cannot fail.
    let _ = value.setattr("reason", reason);
    for (k, v) in extra {
        let _ = value.setattr(*k, v.as_str());
    }
    err
}

/// The exception for a move that cannot be parsed.
pub fn move_syntax(e: &MoveParseError) -> PyErr {
    raise::<MoveSyntaxError>(e, &kebab(&format!("{e:?}")), &[])
}

/// The word for an illegal move's reason.
pub fn illegal_reason(reason: IllegalReason) -> &'static str {
    match reason {
        IllegalReason::GameOver => "game-over",
        IllegalReason::NoPiece => "no-piece",
        IllegalReason::WrongSide(_) => "wrong-side",
        IllegalReason::SameSquare => "same-square",
        IllegalReason::Occupied => "occupied",
        IllegalReason::Throne => "throne",
        IllegalReason::Camp => "camp",
        IllegalReason::Corner => "corner",
        IllegalReason::Repetition => "repetition",
        IllegalReason::NotStraight => "not-straight",
        IllegalReason::Blocked => "blocked",
    }
}

/// The exception for a move error.
pub fn move_error(e: &MoveError) -> PyErr {
    match e {
        MoveError::Parse(p) => move_syntax(p),
        MoveError::Illegal(i) => {
            raise::<IllegalMoveError>(i, illegal_reason(i.reason), &[("move", i.mv.to_string())])
        }
    }
}

/// The exception for a game error.
pub fn game_error(e: &GameError) -> PyErr {
    match e {
        GameError::Move { error, .. } => move_error(error),
        GameError::Position(p) => position(p),
        GameError::Over(status) => raise::<GameOverError>(
            e,
            status.ending().unwrap_or("game-over"),
            &[("status", status.to_string())],
        ),
        GameError::AfterEnd { status, .. } => raise::<GameOverError>(
            e,
            status.ending().unwrap_or("game-over"),
            &[("status", status.to_string())],
        ),
    }
}

/// The exception for a bad position string.
pub fn position(e: &board::PositionError) -> PyErr {
    raise::<PositionError>(e, &kebab(&format!("{e:?}")), &[])
}

/// The exception for a rules error.
pub fn rules(e: &core_rules::RulesError) -> PyErr {
    raise::<RulesError>(e, &kebab(&format!("{e:?}")), &[])
}

/// A rules error with a message of its own.
pub fn rules_text(message: impl fmt::Display, reason: &str) -> PyErr {
    raise::<RulesError>(message, reason, &[])
}

/// The exception for a record that cannot be read or written.
pub fn record(message: impl fmt::Display) -> PyErr {
    raise::<RecordError>(message, "record", &[])
}

/// The exception for an argument out of its range or not among the values it takes.
pub fn argument(message: impl fmt::Display, reason: &str) -> PyErr {
    Python::with_gil(|py| match argument_error_type(py) {
        Ok(class) => raise_class(class, message, reason, &[]),
        Err(e) => e,
    })
}

/// The exception for an action number that is not below `ACTIONS` (module `game`).
pub fn not_an_action(message: impl fmt::Display) -> PyErr {
    raise::<MoveSyntaxError>(message, "not-an-action", &[])
}

/// A whole number from 0 to `max` given from Python, for the argument `name`: an integer of any
/// size (or anything with `__index__`, NumPy's integers too) out of range raises
/// `ArgumentError` (`negative` or `too-large`) with the argument's name, not the
/// `OverflowError` of a plain conversion; a value that is not an integer raises `TypeError`,
/// as Python does.
pub fn whole(value: &Bound<'_, PyAny>, name: &str, max: u64) -> PyResult<u64> {
    let py = value.py();
    match value.extract::<u64>() {
        Ok(n) if n <= max => Ok(n),
        Ok(n) => Err(argument(
            format!("{name} {n} is above {max}, the largest it can be"),
            "too-large",
        )),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) => {
            let shown = value.str().map(|s| s.to_string()).unwrap_or_default();
            if value.lt(0)? {
                Err(argument(
                    format!("{name} {shown} is negative: it is a whole number from 0 to {max}"),
                    "negative",
                ))
            } else {
                Err(argument(
                    format!("{name} {shown} is above {max}, the largest it can be"),
                    "too-large",
                ))
            }
        }
        Err(e) => Err(e),
    }
}

/// The exception for a refused search or option.
pub fn search(message: impl fmt::Display, reason: &str) -> PyErr {
    raise::<SearchError>(message, reason, &[])
}

#[cfg(test)]
mod tests {
    use super::kebab;

    #[test]
    fn variant_names_become_kebab_words() {
        assert_eq!(kebab("NotASquare { text: \"x\" }"), "not-a-square");
        assert_eq!(kebab("RankTooLong { rank: 3 }"), "rank-too-long");
        assert_eq!(kebab("NoKing"), "no-king");
        assert_eq!(kebab("UnknownOption(\"x\")"), "unknown-option");
    }
}
