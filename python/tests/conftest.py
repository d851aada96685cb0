"""Shared fixtures: the native `konakis` program the tests compare with and drive, and a
Ctrl-C sent to the main thread.

The program is `$KONAKIS_BIN`, else the workspace's `target/release/konakis`, else `konakis` on
the PATH; tests that need it are skipped when there is none.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
from pathlib import Path
from typing import Callable, Optional

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


@pytest.fixture
def interrupt_main_after() -> Callable[[float], threading.Timer]:
    """A function that sends SIGINT to the main thread after its `seconds`, as Ctrl-C does,
    and returns the started timer."""
    def start(seconds: float) -> threading.Timer:
        main = threading.main_thread().ident
        assert main is not None
        timer = threading.Timer(seconds, signal.pthread_kill, (main, signal.SIGINT))
        timer.start()
        return timer

    return start
