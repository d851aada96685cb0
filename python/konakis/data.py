"""Reading the self-play data that ``konakis datagen`` writes, into NumPy arrays.

The file (docs/nnue.md, "The data file") is a 64-byte header followed by 48-byte records, all
little-endian. :func:`read` returns the header as a dictionary and the records of the whole
games as a structured array (:data:`RECORD_DTYPE`); the tail of a run killed mid-game (a torn
record, or a game with records missing at the end) is left out and counted, as the Rust reader
does. :func:`planes` turns records into network inputs, :func:`targets` into the game results
from the side to move's point of view::

    from konakis.data import read, planes, targets
    data = read("default.bin")
    x = planes(data.records)        # (N, 4, 9, 9) float32
    y = targets(data.records)       # (N,) float32: 0, 0.5 or 1 for the side to move
    score = data.records["score"]   # the search's score, centi-soldiers, side to move's view
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, Union

import numpy as np

__all__ = [
    "MAGIC",
    "HEADER_SIZE",
    "RECORD_SIZE",
    "RECORD_DTYPE",
    "FAMILIES",
    "DataFile",
    "DataFormatError",
    "read",
    "planes",
    "targets",
]

MAGIC = b"KNKDATA\0"
HEADER_SIZE = 64
RECORD_SIZE = 48
VERSIONS = (1, 2)

#: One record, as the Rust writer lays it out (``konakis_nnue::data::Record::to_bytes``): the
#: bitboards are 128-bit little-endian numbers, bit ``rank * 9 + file``, kept as two uint64
#: halves (low first). ``result``: 0 defenders won, 1 draw, 2 attackers won.
RECORD_DTYPE = np.dtype(
    [
        ("attackers", "<u8", (2,)),
        ("defenders", "<u8", (2,)),
        ("king", "u1"),
        ("defenders_to_move", "u1"),
        ("family", "u1"),
        ("result", "u1"),
        ("plies", "<u2"),
        ("score", "<i2"),
        ("game", "<u4"),
        ("index", "<u2"),
        ("count", "<u2"),
    ]
)
assert RECORD_DTYPE.itemsize == RECORD_SIZE

#: The rule families' codes (``konakis_nnue::RuleFamily``).
FAMILIES = {0: "default", 1: "english", 2: "ashton", 3: "other"}


class DataFormatError(ValueError):
    """The file is not a data file this reader understands."""


@dataclass
class DataFile:
    """What :func:`read` found: the header's fields, the records of the whole games, and the
    bytes after the last whole game that were left out."""

    header: Dict[str, Any]
    records: np.ndarray
    torn_bytes: int

    @property
    def games(self) -> np.ndarray:
        """The numbers of the games in the file."""
        return np.unique(self.records["game"])


def _header(b: bytes) -> Dict[str, Any]:
    if len(b) < HEADER_SIZE:
        raise DataFormatError(f"too short for a data file header ({HEADER_SIZE} bytes)")
    if b[:8] != MAGIC:
        raise DataFormatError("not a Konakis data file (no KNKDATA magic)")

    def u32(i: int) -> int:
        return int.from_bytes(b[i : i + 4], "little")

    def u64(i: int) -> int:
        return int.from_bytes(b[i : i + 8], "little")

    version = u32(8)
    if version == 3:
        side = b[22]
        raise DataFormatError(
            f"the positions are of a {side}x{side} board (data format version 3): this reader "
            "reads Tablut's 9x9 files (versions 1 and 2), as the networks are Tablut's only")
    if version not in VERSIONS:
        raise DataFormatError(f"data format version {version}, this reader reads {VERSIONS}")
    if u32(12) != RECORD_SIZE or u32(16) != HEADER_SIZE:
        raise DataFormatError(f"record size {u32(12)} / header size {u32(16)}")
    return {
        "version": version,
        "family": FAMILIES.get(b[20], str(b[20])),
        "classical_share": b[21],
        "rules_crc": u32(24),
        "random_plies": u32(28),
        "seed": u64(32),
        "nodes": u64(40),
        "margin": u32(48),
        "shard_index": u32(52),
        "shard_count": u32(56),
        "evaluator": u32(60),
    }


def read(path: Union[str, "os.PathLike[str]"]) -> DataFile:
    """Reads a data file: its header and the records of its whole games."""
    with open(path, "rb") as f:
        raw = f.read()
    header = _header(raw[:HEADER_SIZE])
    body = raw[HEADER_SIZE:]
    whole = len(body) // RECORD_SIZE * RECORD_SIZE
    torn = len(body) - whole
    records = np.frombuffer(body[:whole], dtype=RECORD_DTYPE)
    if len(records):
        last = records[-1]
        if int(last["index"]) + 1 < int(last["count"]):
            # The last game was cut short: its records so far are left out.
            keep = len(records) - (int(last["index"]) + 1)
            torn += (len(records) - keep) * RECORD_SIZE
            records = records[:keep]
    if len(records):
        index = records["index"].astype(np.int64)
        count = records["count"].astype(np.int64)
        if (index >= count).any():
            raise DataFormatError("a record's index is not below its game's record count")
        if (records["defenders_to_move"] > 1).any() or (records["result"] > 2).any():
            raise DataFormatError("a record's side to move or result is out of range")
    return DataFile(header, records.copy(), torn)


def _bits(halves: np.ndarray) -> np.ndarray:
    """(N, 2) uint64 little-endian halves -> (N, 81) uint8 bits, bit i = square i."""
    as_bytes = np.ascontiguousarray(halves.astype("<u8")).view(np.uint8).reshape(-1, 16)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :81]


def planes(records: np.ndarray) -> np.ndarray:
    """Network inputs: float32 ``(N, 4, 9, 9)``, ``[plane, rank, file]`` with rank 0 the
    first: attackers, defenders, king, and ones when the attackers are to move."""
    n = len(records)
    out = np.zeros((n, 4, 81), dtype=np.float32)
    out[:, 0] = _bits(records["attackers"])
    out[:, 1] = _bits(records["defenders"])
    out[np.arange(n), 2, records["king"].astype(np.int64)] = 1.0
    out[:, 3] = (records["defenders_to_move"] == 0)[:, None]
    return out.reshape(n, 4, 9, 9)


def targets(records: np.ndarray) -> np.ndarray:
    """The game's result for the side to move of each record: 0, 0.5 or 1 (float32)."""
    attackers = records["result"].astype(np.float32) / 2.0
    return np.where(records["defenders_to_move"] == 1, 1.0 - attackers, attackers).astype(
        np.float32
    )
