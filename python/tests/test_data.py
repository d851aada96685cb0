"""The reader of `konakis datagen` files, on files the real program writes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from konakis import Game
from konakis.data import RECORD_SIZE, DataFormatError, planes, read, targets


def datagen(binary: str, out: Path, *rules: str) -> None:
    args = [binary, "datagen", "--out", str(out), "--games", "3", "--nodes", "300",
            "--concurrency", "1", "--random-plies", "4"]
    for r in rules:
        args += ["--rules", r]
    subprocess.run(args, check=True, capture_output=True, timeout=120)


@pytest.mark.parametrize("rules,family", [((), "default"), (("Ruleset=Ashton",), "ashton")])
def test_a_datagen_file_reads_into_arrays(konakis_bin: str, tmp_path: Path, rules: tuple,
                                          family: str) -> None:
    out = tmp_path / "data.bin"
    datagen(konakis_bin, out, *rules)
    data = read(out)
    h = data.header
    assert h["family"] == family and h["nodes"] == 300 and h["random_plies"] == 4
    assert h["seed"] == 1 and h["shard_count"] == 1
    r = data.records
    n = len(r)
    assert n > 0 and data.torn_bytes == 0
    assert n * RECORD_SIZE + 64 == out.stat().st_size
    assert (r["index"] < r["count"]).all()
    for game in data.games:
        mine = r[r["game"] == game]
        assert mine["index"].tolist() == list(range(mine["count"][0]))
        assert len(set(mine["result"].tolist())) == 1
    x = planes(r)
    assert x.shape == (n, 4, 9, 9) and x.dtype == np.float32
    assert (x[:, 0].sum(axis=(1, 2)) <= 16).all() and (x[:, 1].sum(axis=(1, 2)) <= 8).all()
    assert (x[:, 2].sum(axis=(1, 2)) == 1).all()
    assert not (x[:, 0] * x[:, 1]).any()
    y = targets(r)
    assert set(np.unique(y).tolist()) <= {0.0, 0.5, 1.0}
    # Each record is a position the rules accept: rebuild its position string.
    for k in range(min(n, 10)):
        rows = []
        for rank in range(8, -1, -1):
            text, empty = "", 0
            for file in range(9):
                cell = "b" if x[k, 0, rank, file] else "w" if x[k, 1, rank, file] else (
                    "K" if x[k, 2, rank, file] else "")
                if cell:
                    text += (str(empty) if empty else "") + cell
                    empty = 0
                else:
                    empty += 1
            rows.append(text + (str(empty) if empty else ""))
        side = "w" if r["defenders_to_move"][k] else "b"
        g = Game(position="/".join(rows) + f" {side} {int(r['plies'][k])}")
        assert g.legal_moves()


def test_a_torn_tail_is_left_out(konakis_bin: str, tmp_path: Path) -> None:
    out = tmp_path / "data.bin"
    datagen(konakis_bin, out)
    whole = read(out)
    raw = out.read_bytes()
    last_game = whole.records[-1]
    (tmp_path / "torn.bin").write_bytes(raw[:-RECORD_SIZE - 5])
    torn = read(tmp_path / "torn.bin")
    assert len(torn.records) == len(whole.records) - int(last_game["count"])
    # Cut: the last record and 5 bytes of the one before, so the game has count - 2 whole
    # records left, and a torn one of RECORD_SIZE - 5 bytes.
    assert torn.torn_bytes == (int(last_game["count"]) - 2) * RECORD_SIZE + RECORD_SIZE - 5
    (tmp_path / "bad.bin").write_bytes(b"NOTDATA!" + raw[8:])
    with pytest.raises(DataFormatError):
        read(tmp_path / "bad.bin")


def test_a_file_of_another_board_is_refused_with_its_board(konakis_bin: str,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "brandubh.bin"
    subprocess.run([konakis_bin, "datagen", "--out", str(out), "--games", "2", "--nodes", "200",
                    "--concurrency", "1", "--random-plies", "2", "--variant",
                    "opentafl-brandub-7"], check=True, capture_output=True, timeout=120)
    with pytest.raises(DataFormatError, match=r"of a 7x7 board \(data format version 3\)"):
        read(out)
