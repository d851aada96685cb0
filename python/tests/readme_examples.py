"""The Python examples of python/README.md, run as a user runs them: each in a fresh
interpreter, in an empty directory, with nothing of the repository on the PATH.

    python readme_examples.py [--native-dir DIR] [README]

runs every example with this interpreter (the environment's `konakis` command is the one
beside it) and exits 1 if one fails. An example whose fence says ``python native`` uses a tool
of the native program (``konakis datagen``): it runs only with ``--native-dir``, the directory
of that program, put first on its PATH. python/ci.sh runs this in a virtual environment that
holds the built wheel alone (and NumPy); test_readme.py runs it under pytest.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, NamedTuple, Optional

README = Path(__file__).resolve().parents[1] / "README.md"


class Example(NamedTuple):
    number: int
    code: str
    native: bool


def examples(readme: Path = README) -> List[Example]:
    """The ```python blocks of the README, numbered from 1."""
    found = re.findall(r"```python([^\n]*)\n(.*?)```", readme.read_text(), flags=re.S)
    return [Example(i + 1, code, "native" in info.split()) for i, (info, code) in
            enumerate(found)]


def clean_environment(native_dir: Optional[str]) -> dict:
    """The environment of a user who installed the wheel: this interpreter's directory (where
    pip put the `konakis` command) and the system's on the PATH, no KONAKIS_BIN."""
    path = [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
    if native_dir is not None:
        path.insert(0, native_dir)
    env = {k: v for k, v in os.environ.items()
           if k in ("HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")}
    env["PATH"] = os.pathsep.join(path)
    return env


def run(example: Example, native_dir: Optional[str] = None,
        timeout: float = 300) -> subprocess.CompletedProcess:
    """Runs one example in a fresh interpreter in an empty directory."""
    with tempfile.TemporaryDirectory() as cwd:
        return subprocess.run([sys.executable, "-c", example.code], cwd=cwd,
                              env=clean_environment(native_dir if example.native else None),
                              capture_output=True, text=True, timeout=timeout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--native-dir", help="the directory of the native konakis program")
    parser.add_argument("readme", nargs="?", default=str(README))
    args = parser.parse_args()
    failed = 0
    for example in examples(Path(args.readme)):
        if example.native and args.native_dir is None:
            print(f"example {example.number}: skipped (needs the native program)")
            continue
        done = run(example, args.native_dir)
        if done.returncode == 0:
            print(f"example {example.number}: ok")
        else:
            failed += 1
            print(f"example {example.number}: FAILED\n{done.stdout}{done.stderr}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
