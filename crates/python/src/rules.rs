//! `Rules`: every rule option of Konakis, the presets, and the option table.

use crate::errors;
use konakis_core::rules::{OptionKind, PRESETS, Preset, Rules};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

/// The text of an option value given from Python: a bool as `true`/`false`, a number or a
/// string as written.
pub fn value_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.downcast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    Ok(value.str()?.to_string())
}

/// The rules of a game: a preset, or the reference rules, with options set by name.
///
/// `Rules()` is the reference reading of Linnaeus; `Rules("ashton")` the Tablut Challenge's;
/// `Rules("taflhub", MoveLimit=300)` a preset with one option changed. Option names and values
/// are those of the protocol's `setoption` (`Rules.option_table()` lists them), matched without
/// regard to case; values may be bool, int or str. Rules compare and hash by value and
/// pickle.
#[pyclass(name = "Rules", module = "konakis", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyRules {
    pub rules: Rules,
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (preset=None, **options))]
    fn new(preset: Option<&str>, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyRules> {
        let mut rules = match preset {
            None => Rules::default(),
            Some(id) => Preset::find(id.trim()).map(Preset::rules).ok_or_else(|| {
                let ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
                errors::rules_text(
                    format!("unknown preset '{id}' (presets: {})", ids.join(", ")),
                    "unknown-preset",
                )
            })?,
        };
        if let Some(options) = options {
            for (name, value) in options.iter() {
                let name: String = name.extract()?;
                rules
                    .set(&name, &value_text(&value)?)
                    .map_err(|e| errors::rules(&e))?;
            }
        }
        Ok(PyRules { rules })
    }

    /// A copy with the options given changed.
    #[pyo3(signature = (**options))]
    fn with_options(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyRules> {
        let mut rules = self.rules;
        if let Some(options) = options {
            for (name, value) in options.iter() {
                let name: String = name.extract()?;
                rules
                    .set(&name, &value_text(&value)?)
                    .map_err(|e| errors::rules(&e))?;
            }
        }
        Ok(PyRules { rules })
    }

    /// The value of one option, as text (`"Ashton"`, `"true"`, `"200"`).
    fn get(&self, name: &str) -> PyResult<String> {
        self.rules.get(name).ok_or_else(|| {
            errors::rules_text(format!("unknown rule option '{name}'"), "unknown-option")
        })
    }

    /// Every option's value as text, in table order.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for o in Rules::OPTIONS {
            d.set_item(o.name, self.rules.get(o.name).unwrap_or_default())?;
        }
        Ok(d)
    }

    /// The protocol's `setoption` pairs that give these rules from the defaults, in table
    /// order: every option whose value is not the default.
    fn changed(&self) -> Vec<(String, String)> {
        let default = Rules::default();
        Rules::OPTIONS
            .iter()
            .filter(|o| default.get(o.name) != self.rules.get(o.name))
            .map(|o| {
                (
                    o.name.to_string(),
                    self.rules.get(o.name).unwrap_or_default(),
                )
            })
            .collect()
    }

    /// The number of occurrences of a position that draws (`RepetitionDraw`).
    #[getter]
    fn repetition_draw(&self) -> u32 {
        self.rules.repetition_draw
    }

    /// Plies after which the game is drawn (`MoveLimit`), or None for no limit.
    #[getter]
    fn move_limit(&self) -> Option<u32> {
        (self.rules.move_limit > 0).then_some(self.rules.move_limit)
    }

    /// The camp squares (Ashton's; none under other rules).
    fn camps(&self) -> Vec<String> {
        self.rules.camps().map(|sq| sq.to_string()).collect()
    }

    /// Every rule option: name, kind (`bool`, `int`, `choice`), default, min/max or values,
    /// and a line on what it does.
    #[staticmethod]
    fn option_table(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
        let rows = PyList::empty(py);
        for o in Rules::OPTIONS {
            let d = PyDict::new(py);
            d.set_item("name", o.name)?;
            match o.kind {
                OptionKind::Check { default } => {
                    d.set_item("kind", "bool")?;
                    d.set_item("default", default)?;
                }
                OptionKind::Spin { default, min, max } => {
                    d.set_item("kind", "int")?;
                    d.set_item("default", default)?;
                    d.set_item("min", min)?;
                    d.set_item("max", max)?;
                }
                OptionKind::Combo { default, values } => {
                    d.set_item("kind", "choice")?;
                    d.set_item("default", default)?;
                    d.set_item("values", values.to_vec())?;
                }
            }
            d.set_item("description", o.help)?;
            rows.append(d)?;
        }
        Ok(rows)
    }

    /// Every preset: id, name, description, and its options as `setoption` pairs.
    #[staticmethod]
    fn presets(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
        let rows = PyList::empty(py);
        for p in PRESETS {
            let d = PyDict::new(py);
            d.set_item("id", p.id)?;
            d.set_item("name", p.name)?;
            d.set_item("description", p.description)?;
            let options = PyDict::new(py);
            for (n, v) in p.options() {
                options.set_item(n, v)?;
            }
            d.set_item("options", options)?;
            rows.append(d)?;
        }
        Ok(rows)
    }

    /// The rules as `Name=Value` pairs separated by spaces, as `d` prints them.
    fn __str__(&self) -> String {
        self.rules.to_string()
    }

    fn __repr__(&self) -> String {
        let changed = self.changed();
        if changed.is_empty() {
            return "Rules()".to_string();
        }
        let args: Vec<String> = changed.iter().map(|(n, v)| format!("{n}={v:?}")).collect();
        format!("Rules({})", args.join(", "))
    }

    /// What pickling needs to build the rules again: `Rules(**changed)`, the options in
    /// table order (the ruleset first), as `repr` writes them.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<((Option<String>,), Bound<'py, PyDict>)> {
        let options = PyDict::new(py);
        for (name, value) in self.changed() {
            options.set_item(name, value)?;
        }
        Ok(((None,), options))
    }

    /// Equal rules hash equal: the hash of every option's value.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.rules.hash(&mut h);
        h.finish()
    }
}
