"""Check a dataset's images before training: which fail to decode and why, which are not what
their extension says, which need care (CMYK, grayscale, alpha, 16-bit, EXIF-rotated), and
how large they are.

    python -m tfgpuaug.scan DIR_OR_GLOB [--json] [--full_scale] [--batch_size 32]

A directory is walked recursively for image extensions (JPEG, PNG, WebP, GIF, BMP, PNM, TIFF,
JPEG 2000: the keys of EXTENSIONS, any case); a glob
(`tf.io.gfile.glob`, so any filesystem TensorFlow opens) takes every file it matches. Every
file's header is read and the image decoded with tfgpuaug's own decoder (all of the entropy
data, at 1/8 DCT scale unless `--full_scale`: corruption shows the same, faster), in
parallel. Exits 1 when a file fails, so scripts can gate a training run on it.
"""
from __future__ import annotations

import json
import os
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Dict, Iterable, List, Optional

import tensorflow as tf

EXTENSIONS = {".jpg": "jpeg", ".jpeg": "jpeg", ".png": "png", ".webp": "webp", ".gif": "gif", ".bmp": "bmp",
              ".dib": "bmp", ".pbm": "pnm", ".pgm": "pnm", ".ppm": "pnm", ".pnm": "pnm", ".tif": "tiff",
              ".tiff": "tiff", ".jp2": "jpeg2000", ".j2k": "jpeg2000", ".j2c": "jpeg2000", ".jpf": "jpeg2000"}
FORMATS = {1: "jpeg", 2: "png", 3: "webp", 4: "gif", 5: "bmp", 6: "pnm", 7: "tiff", 8: "jpeg2000"}
# Shorter-side buckets of the size histogram (pixels): [lower, upper).
SIZE_BUCKETS = ((0, 64), (64, 128), (128, 256), (256, 512), (512, 1024), (1024, 2048), (2048, 4096),
                (4096, 1 << 31))


@dataclass
class ScanReport:
    files: int = 0
    failed: List[Dict[str, str]] = field(default_factory=list)  # {path, reason}
    extension_mismatch: List[Dict[str, str]] = field(default_factory=list)  # {path, extension, format}
    notable: Dict[str, List[str]] = field(default_factory=dict)  # kind -> paths
    formats: Dict[str, int] = field(default_factory=dict)
    shorter_side: Dict[str, int] = field(default_factory=dict)  # histogram over SIZE_BUCKETS
    largest: Optional[Dict[str, object]] = None  # {path, height, width}

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)


def list_files(dir_or_glob: str) -> List[str]:
    """Image files under a directory (recursively), or the files a glob matches, sorted."""
    if tf.io.gfile.isdir(dir_or_glob):
        found = []
        for root, _, names in tf.io.gfile.walk(dir_or_glob):
            found += [os.path.join(root, n) for n in names if os.path.splitext(n)[1].lower() in EXTENSIONS]
        return sorted(found)
    return sorted(p for p in tf.io.gfile.glob(dir_or_glob) if not tf.io.gfile.isdir(p))


def _bucket(shorter: int) -> str:
    for lo, hi in SIZE_BUCKETS:
        if lo <= shorter < hi:
            return f"{lo}+" if hi == 1 << 31 else f"{lo}-{hi - 1}"
    return "?"


# Magic bytes of formats tfgpuaug does not decode, to say what an unreadable file is.
OTHER_MAGIC = ((b"8BPS", "Photoshop PSD"), (b"\x00\x00\x01\x00", "Windows ICO"), (b"qoif", "QOI"))


def _looks_like(head: bytes) -> Optional[str]:
    if head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"mif1", b"avif"):
        return "HEIF/AVIF"
    return next((name for magic, name in OTHER_MAGIC if head.startswith(magic)), None)


def _png_bit_depth(head: bytes) -> int:
    return head[24] if len(head) > 24 and head[12:16] == b"IHDR" else 8


def _notable(fmt: str, channels: int, orientation: int, progressive: bool, bit_depth: int) -> List[str]:
    kinds = []
    if fmt == "jpeg" and channels == 4:
        kinds.append("cmyk")
    if channels in (1, 2):
        kinds.append("grayscale")
    if fmt != "jpeg" and channels in (2, 4):
        kinds.append("alpha")
    if bit_depth == 16:
        kinds.append("16-bit")
    if orientation != 1:
        kinds.append("exif_rotated")
    if progressive:
        kinds.append("progressive")
    return kinds


def scan(paths: Iterable[str], full_scale: bool = False, batch_size: int = 32,
         progress: bool = False) -> ScanReport:
    """Reads and decodes every file; returns what it found."""
    from tfgpuaug import _loader

    paths = list(paths)
    report = ScanReport(files=len(paths))
    formats, histogram, notable = Counter(), Counter(), {}
    ops = _loader.ops()
    ds = tf.data.Dataset.from_tensor_slices(tf.constant(paths, tf.string) if paths else tf.zeros([0], tf.string))
    ds = ds.map(lambda p: (p, tf.io.read_file(p)), num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.batch(batch_size).prefetch(2)
    done, largest = 0, 0
    for names, contents in ds:
        header, header_errors = ops.tf_gpu_aug_image_header(contents)
        _, _, decode_errors = ops.tf_gpu_aug_decode_image_batch(
            contents, tf.zeros([0, 4], tf.int32), channels=3, dct_denom=1 if full_scale else 8,
            max_batch_bytes=1 << 40, on_error="skip")
        heads = tf.strings.substr(contents, 0, 32).numpy()
        for name, row, herr, derr, head in zip(names.numpy(), header.numpy(), header_errors.numpy(),
                                               decode_errors.numpy(), heads):
            path = name.decode()
            reason = (herr or derr).decode()
            if reason:
                other = _looks_like(head)
                if other and reason.startswith("unknown image format"):
                    reason = f"{reason} (the data is {other}, which tfgpuaug does not decode)"
                report.failed.append({"path": path, "reason": reason})
                continue
            fmt_id, h, w, channels, orientation, progressive = (int(v) for v in row)
            fmt = FORMATS.get(fmt_id, "unknown")
            formats[fmt] += 1
            expected = EXTENSIONS.get(os.path.splitext(path)[1].lower())
            if expected is not None and expected != fmt:
                report.extension_mismatch.append(
                    {"path": path, "extension": os.path.splitext(path)[1], "format": fmt})
            bit_depth = _png_bit_depth(head) if fmt == "png" else 8
            for kind in _notable(fmt, channels, orientation, bool(progressive), bit_depth):
                notable.setdefault(kind, []).append(path)
            histogram[_bucket(min(h, w))] += 1
            if h * w > largest:
                largest, report.largest = h * w, {"path": path, "height": h, "width": w}
        done += len(names)
        if progress:
            print(f"\rscanned {done}/{len(paths)} files, {len(report.failed)} failed", end="",
                  file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    report.formats = dict(formats)
    report.notable = notable
    report.shorter_side = {_bucket(lo): histogram[_bucket(lo)] for lo, _ in SIZE_BUCKETS if histogram[_bucket(lo)]}
    return report


def format_report(report: ScanReport, limit: int = 20) -> str:
    """The human-readable summary (the first `limit` paths of each list)."""
    lines = [f"{report.files} files: " + ", ".join(f"{n} {k}" for k, n in sorted(report.formats.items()))
             + f", {len(report.failed)} failed"]

    def listing(title, rows):
        if rows:
            lines.append(f"\n{title} ({len(rows)}):")
            lines.extend(f"  {r}" for r in rows[:limit])
            if len(rows) > limit:
                lines.append(f"  ... {len(rows) - limit} more (--json lists all)")

    listing("failed to decode", [f"{f['path']}: {f['reason']}" for f in report.failed])
    listing("format does not match the extension",
            [f"{m['path']}: {m['format']} data" for m in report.extension_mismatch])
    for kind, paths in sorted(report.notable.items()):
        listing(kind, paths)
    if report.shorter_side:
        lines.append("\nshorter side (pixels):")
        top = max(report.shorter_side.values())
        for bucket, n in report.shorter_side.items():
            lines.append(f"  {bucket:>11}  {n:7d}  " + "#" * max(1, round(40 * n / top)))
    if report.largest:
        lines.append(f"largest: {report.largest['width']} wide x {report.largest['height']} high "
                     f"{report.largest['path']}")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tfgpuaug.scan", description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a directory (walked recursively) or a glob")
    parser.add_argument("--json", action="store_true", help="print the full report as JSON")
    parser.add_argument("--full_scale", action="store_true", help="decode JPEGs at full size (slower)")
    parser.add_argument("--batch_size", type=int, default=32)
    args = parser.parse_args(argv)
    paths = list_files(args.source)
    if not paths:
        print(f"no image files found at {args.source}", file=sys.stderr)
        return 2
    report = scan(paths, args.full_scale, args.batch_size, progress=not args.json and sys.stderr.isatty())
    print(report.to_json() if args.json else format_report(report))
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
