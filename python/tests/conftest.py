"""Shared fixtures: the native `konakis` program the tests compare with and drive.

The program is `$KONAKIS_BIN`, else the workspace's `target/release/konakis`, else `konakis` on
the PATH; tests that need it are skipped when there is none.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional

import pytest

REPO = Path(__file__).resolve().parents[2]


def find_konakis() -> Optional[str]:
    given = os.environ.get("KONAKIS_BIN")
    if given:
        return given
    built = REPO / "target" / "release" / "konakis"
    if built.exists():
        return str(built)
    return shutil.which("konakis")


@pytest.fixture(scope="session")
def konakis_bin() -> str:
    path = find_konakis()
    if path is None:
        pytest.skip("no konakis program (set KONAKIS_BIN or build target/release/konakis)")
    return path
