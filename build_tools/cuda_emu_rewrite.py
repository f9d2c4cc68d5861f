"""Rewrites a CUDA source for the CPU emulation (cc/testing/cuda_emu): each launch
`Kernel<T><<<grid, block, shared, stream>>>(args)` becomes
`::cuda_emu::LaunchConfig(grid, block, shared, stream).Launch(Kernel<T>, args)`. Line numbers are
kept (a #line directive names the original file), so compiler errors and sanitizer reports point
at the real source.

    python build_tools/cuda_emu_rewrite.py SRC.cu.cc OUT.cc
"""
from __future__ import annotations

import re
import sys

# A kernel name (namespaced, with template arguments that hold no nested angle brackets),
# then the launch configuration up to the first ">>>" and the opening parenthesis of its arguments.
LAUNCH = re.compile(r"([A-Za-z_][\w:]*(?:<[^<>;]*>)?)\s*<<<(.*?)>>>\s*\(", re.S)


def rewrite(text: str) -> tuple[str, int]:
    count = 0

    def launch(m: re.Match) -> str:
        nonlocal count
        count += 1
        config = m.group(2)
        # Keep the line count: newlines inside the configuration stay where they were.
        return f"::cuda_emu::LaunchConfig({config}).Launch({m.group(1)}, "

    out = LAUNCH.sub(launch, text)
    if "<<<" in out:
        raise ValueError("a kernel launch the rewrite does not understand is left")
    return out, count


def main(src: str, out: str) -> None:
    with open(src) as f:
        text, count = rewrite(f.read())
    with open(out, "w") as f:
        f.write(f'#line 1 "{src}"\n' + text)
    print(f"{src}: {count} launches rewritten")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
