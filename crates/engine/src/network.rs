//! The learned evaluation in the search: the `Eval` choice, the networks built into the
//! binary, and which network evaluates under which rules.
//!
//! A network is trained for one family of rules ([`RuleFamily`]) and evaluates only under
//! it. Under `Eval=Network` the search uses the network loaded with `EvalFile` when the rules
//! are of its family, else the network built in for the family, if one is; under any other
//! rules it evaluates classically ([`crate::eval`]). docs/nnue.md says which networks are built
//! in and how each was made.

use konakis_core::board::Board;
use konakis_core::rules::Rules;
pub use konakis_nnue::RuleFamily;
pub use konakis_nnue::network::NetError;
use konakis_nnue::network::Network;
use konakis_nnue::quant::{self, HIDDEN, HIDDEN_WIDE, QuantHeader, QuantNetwork};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The integer network the search runs, of one of the hidden layer sizes it is compiled for
/// (each size is its own type, so that the compiler sees fixed-size loops).
#[derive(Clone, Debug)]
pub enum Net {
    /// [`HIDDEN`] hidden units.
    Narrow(Arc<QuantNetwork<HIDDEN>>),
    /// [`HIDDEN_WIDE`] hidden units.
    Wide(Arc<QuantNetwork<HIDDEN_WIDE>>),
}

/// The hidden layer sizes the search runs.
pub const HIDDEN_SIZES: [usize; 2] = [HIDDEN, HIDDEN_WIDE];

/// The hidden layer size of most networks the search runs (the trainer's default).
pub const HIDDEN_UNITS: usize = HIDDEN;

impl Net {
    /// The integer network for `float`, or why the search cannot run it (a hidden layer of
    /// a size it is not compiled for).
    pub fn from_float(float: &Network) -> Result<Net, NetError> {
        match float.hidden {
            HIDDEN => Ok(Net::Narrow(Arc::new(QuantNetwork::from_float(float)?))),
            HIDDEN_WIDE => Ok(Net::Wide(Arc::new(QuantNetwork::from_float(float)?))),
            found => Err(NetError::Hidden {
                found,
                expected: format!("{HIDDEN} or {HIDDEN_WIDE} (the sizes the search runs)"),
            }),
        }
    }

    /// The integer network of a quantized network file (`konakis_nnue::quant`), or why the
    /// search cannot run it.
    pub fn from_quantized(bytes: &[u8]) -> Result<Net, NetError> {
        match QuantHeader::read(bytes)?.hidden {
            HIDDEN => Ok(Net::Narrow(Arc::new(QuantNetwork::from_bytes(bytes)?))),
            HIDDEN_WIDE => Ok(Net::Wide(Arc::new(QuantNetwork::from_bytes(bytes)?))),
            found => Err(NetError::Hidden {
                found,
                expected: format!("{HIDDEN} or {HIDDEN_WIDE} (the sizes the search runs)"),
            }),
        }
    }

    /// Its quantized network file, naming the float network file whose checksum is
    /// `source_checksum`.
    pub fn to_quantized(&self, source_checksum: u32) -> Vec<u8> {
        match self {
            Net::Narrow(n) => n.to_bytes(source_checksum),
            Net::Wide(n) => n.to_bytes(source_checksum),
        }
    }

    /// The rules the network was trained for.
    pub fn family(&self) -> RuleFamily {
        match self {
            Net::Narrow(n) => n.family(),
            Net::Wide(n) => n.family(),
        }
    }

    /// Its hidden units.
    pub fn hidden(&self) -> usize {
        match self {
            Net::Narrow(_) => HIDDEN,
            Net::Wide(_) => HIDDEN_WIDE,
        }
    }

    /// The evaluation of `board` from scratch, from the side to move's point of view.
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        match self {
            Net::Narrow(n) => n.evaluate_board(board),
            Net::Wide(n) => n.evaluate_board(board),
        }
    }
}

/// Which evaluation the search uses (the `Eval` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalMode {
    /// The network for the rules where there is one, else the classical evaluation.
    Network,
    /// The hand-made evaluation of [`crate::eval`] always.
    Classical,
}

impl EvalMode {
    /// The option's values, as `uci` announces them.
    pub const NAMES: [&'static str; 2] = ["Network", "Classical"];

    /// The mode named `name` (exactly as in [`EvalMode::NAMES`]).
    pub fn parse(name: &str) -> Option<EvalMode> {
        match name {
            "Network" => Some(EvalMode::Network),
            "Classical" => Some(EvalMode::Classical),
            _ => None,
        }
    }

    /// The option value naming this mode.
    pub fn name(self) -> &'static str {
        match self {
            EvalMode::Network => "Network",
            EvalMode::Classical => "Classical",
        }
    }
}

/// The networks built into the binary: the families they were trained for, their float files
/// (docs/nnue.md gives each one's data, training command, SHA-256 and match results) and the
/// quantized files made from them with `konakis quantize`, which are what the binary carries:
/// half the size, a third compressed (the browser build's download), and the very weights
/// the search would make from the float file. A test checks that each quantized file is the
/// quantization of its float file.
///
/// `nets/ashton-1.nnue`, `nets/default-1.nnue` and `nets/english-1.nnue`, first generations,
/// are not built in: they stay in the repository because they played the games the built-in
/// networks were trained on (and `default-2.nnue` starts from `default-1.nnue`'s weights);
/// `nets/english-2.nnue`, built in before `english-4.nnue`, stays as the network that
/// docs/strength.md measures it against.
const BUILT_IN: &[(RuleFamily, &str, &[u8])] = &[
    (
        RuleFamily::Default,
        "default-2.nnue",
        include_bytes!("../nets/default-2.qnnue"),
    ),
    (
        RuleFamily::English,
        "english-4.nnue",
        include_bytes!("../nets/english-4.qnnue"),
    ),
    (
        RuleFamily::Ashton,
        "ashton-2.nnue",
        include_bytes!("../nets/ashton-2.qnnue"),
    ),
];

/// Where the network the search uses comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Built into the binary, under this file name.
    BuiltIn(&'static str),
    /// Loaded with `EvalFile` from this path.
    File(String),
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::BuiltIn(name) => write!(f, "built in, {name}"),
            Source::File(path) => write!(f, "from {path}"),
        }
    }
}

/// A network ready for the search, and where it came from.
#[derive(Clone, Debug)]
pub struct LoadedNet {
    /// The network.
    pub net: Net,
    /// Where it came from.
    pub source: Source,
    /// The checksum of its float file (the file's last four bytes; a quantized file carries
    /// its float file's), which names it in the headers of the training data its games give
    /// (`konakis datagen`).
    pub checksum: u32,
}

impl LoadedNet {
    /// The network in `bytes` (a network file, float or quantized: docs/nnue.md), or why it
    /// is refused.
    pub fn from_bytes(bytes: &[u8], source: Source) -> Result<LoadedNet, NetError> {
        if bytes.starts_with(&quant::FILE_MAGIC) {
            return Ok(LoadedNet {
                net: Net::from_quantized(bytes)?,
                source,
                checksum: QuantHeader::read(bytes)?.source_checksum,
            });
        }
        let float = Network::from_bytes(bytes)?;
        // A file that parses ends with its checksum.
        let checksum = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
        Ok(LoadedNet {
            net: Net::from_float(&float)?,
            source,
            checksum,
        })
    }

    /// The network file at `path`, or why it cannot be used.
    pub fn load(path: &Path) -> Result<LoadedNet, NetError> {
        let bytes = std::fs::read(path).map_err(|source| NetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        LoadedNet::from_bytes(&bytes, Source::File(path.display().to_string()))
    }

    /// The family of rules the network evaluates.
    pub fn family(&self) -> RuleFamily {
        self.net.family()
    }

    /// Its quantized network file (what `konakis quantize` writes).
    pub fn to_quantized(&self) -> Vec<u8> {
        self.net.to_quantized(self.checksum)
    }
}

/// The built-in network for `family`, if the binary has one.
pub fn built_in(family: RuleFamily) -> Option<&'static LoadedNet> {
    static NETS: OnceLock<Vec<LoadedNet>> = OnceLock::new();
    NETS.get_or_init(|| {
        BUILT_IN
            .iter()
            .map(|&(family, name, bytes)| {
                let net = LoadedNet::from_bytes(bytes, Source::BuiltIn(name))
                    .unwrap_or_else(|e| panic!("built-in network {name}: {e}"));
                assert_eq!(net.family(), family, "built-in network {name}'s family");
                net
            })
            .collect()
    })
    .iter()
    .find(|n| n.family() == family)
}

/// The network the search uses under `rules`, given the `Eval` mode and the network loaded
/// with `EvalFile` (if any); `None` means the classical evaluation.
pub fn choose(mode: EvalMode, loaded: Option<&LoadedNet>, rules: &Rules) -> Option<LoadedNet> {
    // The networks know Tablut's rules only, not the family's.
    if mode == EvalMode::Classical || rules.family_rules() {
        return None;
    }
    let family = RuleFamily::of(rules);
    loaded
        .filter(|n| n.family() == family)
        .or_else(|| built_in(family))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_network_is_the_quantization_of_its_float_file() {
        for &(family, name, built_in_bytes) in BUILT_IN {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("nets")
                .join(name);
            let float = LoadedNet::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(float.family(), family, "{name}");
            assert!(
                float.to_quantized() == built_in_bytes,
                "nets/{name} quantized differs from the built-in file: run \
                 konakis quantize crates/engine/nets/{name} (docs/nnue.md)"
            );
            let built = built_in(family).unwrap();
            assert_eq!(
                built.checksum, float.checksum,
                "{name}: named by its float file"
            );
            let board = Board::start(&Rules::default());
            assert_eq!(
                built.net.evaluate_board(&board),
                float.net.evaluate_board(&board)
            );
        }
    }

    #[test]
    fn a_quantized_file_loads_as_its_float_file_does() {
        let board = Board::start(&Rules::ashton());
        for hidden in HIDDEN_SIZES {
            let float = Network::random(hidden, RuleFamily::Ashton, 400.0, 11);
            let from_float = LoadedNet::from_bytes(&float.to_bytes(), Source::File("f".into()))
                .expect("a random network loads");
            let bytes = from_float.to_quantized();
            let from_quant = LoadedNet::from_bytes(&bytes, Source::File("q".into()))
                .expect("its quantized file loads");
            assert_eq!(from_quant.checksum, from_float.checksum);
            assert_eq!(from_quant.net.hidden(), hidden);
            assert_eq!(from_quant.to_quantized(), bytes);
            assert_eq!(
                from_quant.net.evaluate_board(&board),
                from_float.net.evaluate_board(&board)
            );
        }
        let odd = Network::random(128, RuleFamily::Ashton, 400.0, 3);
        let q = QuantNetwork::<128>::from_float(&odd).unwrap().to_bytes(0);
        let err = LoadedNet::from_bytes(&q, Source::File("n".into())).unwrap_err();
        assert_eq!(
            err.to_string(),
            "hidden layer of 128 units, expected 256 or 512 (the sizes the search runs)"
        );
    }

    #[test]
    fn every_built_in_network_loads_for_its_family() {
        for &(family, name, _) in BUILT_IN {
            let net = built_in(family).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(net.source, Source::BuiltIn(name));
        }
    }

    #[test]
    fn the_search_runs_both_hidden_sizes_and_refuses_others_with_the_sizes_it_runs() {
        let board = Board::start(&Rules::ashton());
        for hidden in HIDDEN_SIZES {
            let float = Network::random(hidden, RuleFamily::Ashton, 400.0, 3);
            let loaded = LoadedNet::from_bytes(&float.to_bytes(), Source::File("n".into()))
                .unwrap_or_else(|e| panic!("{hidden} units: {e}"));
            assert_eq!(loaded.net.hidden(), hidden);
            // The integer network scores the start like the float one (a stated tolerance
            // of 20 centi-soldiers, tests/it/nnue.rs).
            let (q, f) = (loaded.net.evaluate_board(&board), float.evaluate(&board));
            assert!(
                (q as f32 - f).abs() <= 20.0,
                "{hidden} units: {q} against {f}"
            );
        }
        let odd = Network::random(128, RuleFamily::Ashton, 400.0, 3);
        let err = LoadedNet::from_bytes(&odd.to_bytes(), Source::File("n".into())).unwrap_err();
        assert_eq!(
            err.to_string(),
            "hidden layer of 128 units, expected 256 or 512 (the sizes the search runs)"
        );
    }

    #[test]
    fn a_loaded_network_serves_its_own_family_only() {
        let ashton = Network::random(HIDDEN_UNITS, RuleFamily::Ashton, 400.0, 7);
        let loaded = LoadedNet::from_bytes(&ashton.to_bytes(), Source::File("a.nnue".into()))
            .expect("a random network loads");
        let chosen = choose(EvalMode::Network, Some(&loaded), &Rules::ashton()).unwrap();
        assert_eq!(chosen.source, Source::File("a.nnue".into()));
        let bytes = ashton.to_bytes();
        assert_eq!(
            chosen.checksum.to_le_bytes(),
            bytes[bytes.len() - 4..],
            "the checksum is the file's"
        );
        let default = choose(EvalMode::Network, Some(&loaded), &Rules::default());
        assert_eq!(
            default.map(|n| n.source),
            built_in(RuleFamily::Default).map(|n| n.source.clone())
        );
        assert!(choose(EvalMode::Classical, Some(&loaded), &Rules::ashton()).is_none());
    }
}
