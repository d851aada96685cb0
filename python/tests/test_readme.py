"""Every Python example of python/README.md runs (with the konakis program on the PATH)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_a_readme_example_runs(number: int, konakis_bin: str, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    path = os.path.dirname(os.path.abspath(konakis_bin))
    monkeypatch.setenv("PATH", path + os.pathsep + os.environ.get("PATH", ""))
    exec(compile(BLOCKS[number], f"README.md example {number + 1}", "exec"), {"__name__": "ex"})
