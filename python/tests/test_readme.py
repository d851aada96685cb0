"""Every Python example of python/README.md runs as written, each in a fresh interpreter with
only this environment's `konakis` command on the PATH (no KONAKIS_BIN, nothing of the
repository): what a user has after `pip install`. python/ci.sh also runs them in a virtual
environment that holds the built wheel alone."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from readme_examples import examples, run  # noqa: E402

EXAMPLES = examples()


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"example{e.number}")
def test_a_readme_example_runs_with_only_the_installed_package(example, konakis_bin: str) -> None:
    done = run(example, native_dir=os.path.dirname(os.path.abspath(konakis_bin)))
    assert done.returncode == 0, done.stdout + done.stderr
