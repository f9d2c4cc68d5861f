"""Atheris fuzz harness over tfgpuaug's Python ops: every input must decode or raise
InvalidArgumentError (anything else, or a crash, is a finding).

Inputs use the seed corpus's format (fuzz/make_corpus.py): 4 knob bytes choosing the op
and its options, then the encoded image.

    python fuzz/make_corpus.py /tmp/corpus
    python fuzz/fuzz_ops.py -runs=2000 /tmp/corpus          # short (CI)
    python fuzz/fuzz_ops.py -max_total_time=3600 /tmp/corpus  # long, on demand
New interesting inputs are added to the corpus folder; a failing input is written to
crash-<hash> in the working directory: add it to fuzz/regressions/ (tests replay them).
"""
from __future__ import annotations

import os
import sys

import atheris

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow  # noqa: E402,F401 - imported first, so it is not instrumented

with atheris.instrument_imports(include=["tfgpuaug"]):
    import tfgpuaug  # noqa: F401 - instrumented before targets.py imports it

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from targets import run_one  # noqa: E402


def main() -> None:
    atheris.Setup(sys.argv, run_one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
