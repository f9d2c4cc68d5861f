"""Robustness and fidelity on a folder of odd image files from elsewhere (issue #38).

Every file under FOLDER that tfgpuaug recognises (JPEG, PNG, WebP, GIF, BMP, PNM, TIFF,
JPEG 2000 by their magic bytes) is decoded with `tga.decode_image` (3 channels) in child
processes, so a crash is counted, not fatal; then compared with PIL's `convert("RGB")` where
PIL decodes it. Reports crashes, the error classes raised, and the share of PIL-decodable files
within 3 grey levels on average, with each file over it listed.

    python scripts/odd_corpus_report.py FOLDER [--json out.json] [--mutations 3]

--mutations N also decodes N mutants of every file (1-4 bytes xor-ed, or cut short, seeded) and
reports crashes and error classes for them (they are not compared with PIL).

A corpus this was run on: the Tests/images folder of Pillow's source package (`apt-get source
pillow`), not part of this repository.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

from absl import app, flags

flags.DEFINE_string("json", None, "write the per-file results here")
flags.DEFINE_integer("chunk", 40, "files per child process")
flags.DEFINE_integer("mutations", 0, "mutants of every file to decode as well")
FLAGS = flags.FLAGS

MAGIC = {b"\xff\xd8\xff": "jpeg", b"\x89PNG": "png", b"GIF8": "gif", b"BM": "bmp", b"II*\0": "tiff",
         b"MM\0*": "tiff", b"II+\0": "tiff", b"MM\0+": "tiff", b"\0\0\0\x0cjP  ": "jpeg2000",
         b"\xff\x4f\xff\x51": "jpeg2000"}

CHILD = r"""
import io, json, os, sys
import numpy as np
import tensorflow as tf
import tfgpuaug as tga
from PIL import Image
for path in sys.argv[1:]:
    print(json.dumps({"path": path, "started": True}), flush=True)
    data = open(path, "rb").read()
    row = {"path": path}
    try:
        ours = tga.decode_image(data, channels=3).numpy()
        row["ours"] = list(ours.shape)
    except tf.errors.OpError as e:
        row["error"] = type(e).__name__
        row["message"] = e.message.splitlines()[0][-160:]
        ours = None
    except Exception as e:  # anything but an OpError is a finding
        row["error"] = "python:" + type(e).__name__
        row["message"] = str(e)[:160]
        ours = None
    if os.environ.get("ODD_CORPUS_NO_PIL"):
        print(json.dumps(row), flush=True)
        continue
    try:
        with Image.open(io.BytesIO(data)) as im:
            pil = np.asarray(im.convert("RGB"))
        row["pil"] = list(pil.shape)
        if ours is not None and ours.shape == pil.shape:
            row["mean_diff"] = float(np.abs(ours.astype(int) - pil.astype(int)).mean())
    except Exception as e:
        row["pil_error"] = str(e)[:120]
    print(json.dumps(row), flush=True)
"""


def kind_of(path: str) -> str | None:
    with open(path, "rb") as f:
        head = f.read(12)
    for magic, kind in MAGIC.items():
        if head.startswith(magic):
            return kind
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if len(head) >= 3 and head[0:1] == b"P" and head[1:2] in b"123456" and head[2:3] in b" \t\r\n#":
        return "pnm"
    return None


def run_chunk(paths: list[str], pil: bool = True) -> list[dict]:
    rows, started = [], None
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", **({} if pil else {"ODD_CORPUS_NO_PIL": "1"}))
    proc = subprocess.run([sys.executable, "-c", CHILD, *paths], capture_output=True, text=True, env=env,
                          timeout=1800)
    done = set()
    for line in proc.stdout.splitlines():
        row = json.loads(line)
        if row.get("started"):
            started = row["path"]
            continue
        rows.append(row)
        done.add(row["path"])
    if proc.returncode != 0:  # the file being decoded killed the process: record it, go on after it
        rows.append({"path": started, "error": f"CRASH (exit {proc.returncode})"})
        done.add(started)
        rest = paths[paths.index(started) + 1:] if started in paths else []
        rows += run_chunk(rest, pil) if rest else []
    return rows


def mutants(files: list[str], count: int, directory: str) -> list[str]:
    """`count` mutants of every file in `directory`: 1-4 bytes xor-ed, or (one in five) cut short."""
    import numpy as np
    rng = np.random.default_rng(0)
    out = []
    for i, path in enumerate(files):
        data = open(path, "rb").read()
        for k in range(count):
            m = bytearray(data)
            if rng.random() < 0.2:
                m = m[: int(rng.integers(1, max(2, len(m))))]
            else:
                for pos in rng.integers(0, len(m), rng.integers(1, 5)):
                    m[pos] ^= int(rng.integers(1, 256))
            name = os.path.join(directory, f"{i:05d}_{k}_{os.path.basename(path)}")
            with open(name, "wb") as f:
                f.write(bytes(m))
            out.append(name)
    return out


def main(argv):
    if len(argv) != 2:
        raise app.UsageError("usage: odd_corpus_report.py FOLDER")
    files = []
    for root, _, names in os.walk(argv[1]):
        files += [os.path.join(root, n) for n in sorted(names) if os.path.isfile(os.path.join(root, n))]
    files = [f for f in files if kind_of(f)]
    rows = []
    for i in range(0, len(files), FLAGS.chunk):
        rows += run_chunk(files[i:i + FLAGS.chunk])
    crashes = [r for r in rows if r.get("error", "").startswith("CRASH")]
    errors: dict[str, int] = {}
    for r in rows:
        if "error" in r:
            errors[r["error"].split(" ")[0]] = errors.get(r["error"].split(" ")[0], 0) + 1
    pil_ok = [r for r in rows if "pil" in r]
    agree = [r for r in pil_ok if r.get("mean_diff", 99) <= 3]
    print(f"files recognised: {len(rows)}; crashes: {len(crashes)}; errors by class: {errors}")
    print(f"PIL decodes {len(pil_ok)}: within 3 levels {len(agree)} ({100 * len(agree) / max(1, len(pil_ok)):.1f}%)")
    for r in sorted(pil_ok, key=lambda r: r.get("mean_diff", 999), reverse=True):
        if r.get("mean_diff", 99) > 3:
            why = r.get("message") or f"shape {r.get('ours')} vs {r.get('pil')}" if "mean_diff" not in r \
                else f"mean diff {r['mean_diff']:.1f}"
            print(f"  {os.path.relpath(r['path'], argv[1])} ({kind_of(r['path'])}): {why}")
    for r in crashes:
        print(f"  CRASH: {r['path']}")
    if FLAGS.mutations:
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            mutated = mutants(files, FLAGS.mutations, tmp)
            mrows = []
            for i in range(0, len(mutated), FLAGS.chunk * 4):
                mrows += run_chunk(mutated[i:i + FLAGS.chunk * 4], pil=False)
            outcome: dict[str, int] = {}
            for r in mrows:
                key = r.get("error", "decoded").split(" ")[0]
                outcome[key] = outcome.get(key, 0) + 1
            print(f"mutants: {len(mrows)}; outcomes: {outcome}")
            for r in mrows:
                if r.get("error", "").startswith(("CRASH", "python:")):
                    print(f"  {r['error']}: {r['path']}")
                    keep = os.path.join(os.path.dirname(FLAGS.json or "."), os.path.basename(r["path"]))
                    with open(r["path"], "rb") as src, open(keep, "wb") as dst:
                        dst.write(src.read())
        rows += mrows
    if FLAGS.json:
        with open(FLAGS.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    app.run(main)
