"""Dataset preparation: WebDataset shards whose JPEGs carry restart markers.

    python -m tfgpuaug.prepare SRC DEST [--interval_width 64] [--shard_size 1000] [--workers N]

SRC is an image folder (class sub-folders give the labels, as `data.image_folder`), a file
list (a text file of `path label` lines, or bare paths), or TFRecords (a file, a glob, or a
comma-separated list; the classification layout of `data.tfrecord`). DEST gets
`DEST/shard-000000.tar`, ... of `000000042.jpg` + `000000042.cls` samples, in SRC's order,
which `tfgpuaug.data.webdataset("DEST/shard-*.tar")` reads, each with a `shard-000000.json`
of its counts, and `DEST/prepared.json` with the counts, bytes before and after, the class
names and the shard list.

Every JPEG is rewritten losslessly by `tfgpuaug.add_jpeg_restart_markers` (the same DCT
coefficients, a restart marker every ~`interval_width` pixels), so the random crops of
`RandomResizedCrop` entropy-decode only the intervals they cover; each rewritten file is
decoded and checked to give exactly the original's pixels before it is written. Other formats
are copied as they are. Shards are written whole (to `.part`, then renamed), so a run that
stops resumes where it left off: finished shards are kept and not redone. The shards hold the
samples in SRC's order: shuffle at read time (`webdataset(..., shuffle=True)` then
`.shuffle(buffer)`), as WebDataset does.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import io
import json
import os
import sys
import tarfile
import time
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import tensorflow as tf

MANIFEST = "prepared.json"
_MAGIC = ((b"\xff\xd8\xff", "jpg"), (b"\x89PNG", "png"), (b"GIF8", "gif"), (b"BM", "bmp"),
          (b"II*\x00", "tif"), (b"MM\x00*", "tif"))


def extension_of(data: bytes) -> str:
    """The file extension the bytes' format takes in a shard ("bin" when unknown)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return next((ext for magic, ext in _MAGIC if data.startswith(magic)), "bin")


@dataclasses.dataclass
class Sample:
    """One image to prepare: its bytes (read lazily from `path` when None), label, name."""
    name: str
    label: Optional[int]
    data: Optional[bytes] = None

    def read(self) -> bytes:
        return self.data if self.data is not None else tf.io.gfile.GFile(self.name, "rb").read()


def _list_file(path: str) -> Tuple[List[Sample], List[str]]:
    samples = []
    with tf.io.gfile.GFile(path) as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) > 2:
                raise ValueError(f"{path}:{number}: expected 'path [label]', got {line.strip()!r}")
            name = parts[0] if os.path.isabs(parts[0]) else os.path.join(os.path.dirname(path), parts[0])
            samples.append(Sample(name, int(parts[1]) if len(parts) == 2 else None))
    return samples, []


def _tfrecords(files: Sequence[str]) -> Iterator[Sample]:
    from tfgpuaug.data.tfrecord import _FEATURES

    for file in files:
        for i, record in enumerate(tf.data.TFRecordDataset(file)):
            parsed = tf.io.parse_single_example(record, _FEATURES)
            label = int(parsed["image/class/label"])
            yield Sample(f"{file}#{i}", None if label < 0 else label, parsed["image/encoded"].numpy())


def list_source(src: str) -> Tuple[Iterable[Sample], List[str], Optional[int]]:
    """(samples in order, class names, sample count when known) of an image folder, a file
    list or TFRecords."""
    from tfgpuaug.data.readers import IMAGE_EXTENSIONS, _listing

    if tf.io.gfile.isdir(src):
        classes, files, labels = _listing(src)
        if not classes:  # a flat folder: no labels
            files = [os.path.join(src, f) for f in sorted(tf.io.gfile.listdir(src)) if f.endswith(IMAGE_EXTENSIONS)]
            labels = [None] * len(files)
        if not files:
            raise ValueError(f"no images in {src!r} (looked for {', '.join(IMAGE_EXTENSIONS[:6])}, ...)")
        return [Sample(f, label) for f, label in zip(files, labels)], classes, len(files)
    names = [n for part in src.split(",") for n in (sorted(tf.io.gfile.glob(part)) if any(c in part for c in "*?[")
                                                     else [part])]
    if not names or not all(tf.io.gfile.exists(n) for n in names):
        raise ValueError(f"SRC {src!r} is not a folder, a file list or TFRecord files that exist")
    if len(names) == 1 and names[0].endswith((".txt", ".lst", ".csv", ".list")):
        samples, classes = _list_file(names[0])
        return samples, classes, len(samples)
    return _tfrecords(names), [], None


def rewrite(data: bytes, interval_width: int, verify: bool = True) -> bytes:
    """A JPEG with restart markers (other formats unchanged), checked to decode to the same
    pixels as `data` when `verify`. Raises `InvalidArgumentError` for a damaged file, and
    `RuntimeError` if the rewrite's pixels differ (it never should: the coefficients are copied)."""
    import tfgpuaug as tga

    if extension_of(data) != "jpg":
        return data
    out = bytes(tga.add_jpeg_restart_markers(data, interval_width=interval_width).numpy())
    if verify:
        before, after = tga.decode_image(data, 3), tga.decode_image(out, 3)
        if before.shape != after.shape or not np.array_equal(before.numpy(), after.numpy()):
            raise RuntimeError("the rewritten JPEG decodes to other pixels than the original")
    return out


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, 0  # mtime 0: the same input gives the same shard
    tar.addfile(info, io.BytesIO(data))


def _write_shard(path: str, keys: Sequence[int], blobs: Sequence[bytes], labels: Sequence[Optional[int]]) -> None:
    with tf.io.gfile.GFile(path + ".part", "wb") as f:
        with tarfile.open(fileobj=f, mode="w", format=tarfile.USTAR_FORMAT) as tar:
            for key, blob, label in zip(keys, blobs, labels):
                _add(tar, f"{key:09d}.{extension_of(blob)}", blob)
                if label is not None:
                    _add(tar, f"{key:09d}.cls", str(label).encode())
    tf.io.gfile.rename(path + ".part", path, overwrite=True)


class _Progress:
    """One line on stderr, redrawn at most twice a second."""

    def __init__(self, total: Optional[int], stream=sys.stderr):
        self.total, self.stream, self.start, self.last = total, stream, time.time(), 0.0
        self.done = self.bytes_in = self.bytes_out = 0

    def add(self, bytes_in: int, bytes_out: int) -> None:
        self.done, self.bytes_in, self.bytes_out = self.done + 1, self.bytes_in + bytes_in, self.bytes_out + bytes_out
        self.update()

    def update(self, final: bool = False) -> None:
        now = time.time()
        if not final and now - self.last < 0.5:
            return
        self.last = now
        of = f"/{self.total}" if self.total else ""
        rate = self.done / max(now - self.start, 1e-9)
        self.stream.write(f"\rprepare: {self.done}{of} images, {self.bytes_in / 1e6:.1f} -> "
                          f"{self.bytes_out / 1e6:.1f} MB, {rate:.0f} img/s" + ("\n" if final else ""))
        self.stream.flush()


def prepare(src: str, dest: str, interval_width: int = 64, shard_size: int = 1000, workers: Optional[int] = None,
            verify: bool = True, on_error: str = "raise", progress: bool = True) -> dict:
    """Writes SRC's images as WebDataset shards under DEST (see the module docstring) and
    returns the manifest it writes to DEST/prepared.json.

    Args:
      src: an image folder, a file list (`path [label]` lines) or TFRecord files.
      dest: the output folder (made if missing); shards already there are kept.
      interval_width: restart interval width in pixels (`add_jpeg_restart_markers`).
      shard_size: samples per shard.
      workers: images rewritten at once (default: the CPU count).
      verify: decode every rewritten JPEG and compare its pixels with the original's.
      on_error: "raise" stops at the first unreadable or damaged image (naming it); "skip"
        leaves it out and lists it in the manifest's `skipped`.
      progress: draw a progress line on stderr.
    """
    if on_error not in ("raise", "skip"):
        raise ValueError(f"on_error must be 'raise' or 'skip', got {on_error!r}")
    if shard_size < 1 or interval_width < 1:
        raise ValueError("shard_size and interval_width must be positive")
    samples, classes, total = list_source(src)
    tf.io.gfile.makedirs(dest)
    bar = _Progress(total) if progress else None
    manifest = {"source": src, "interval_width": interval_width, "verified": verify, "classes": classes,
                "shards": [], "samples": 0, "bytes_in": 0, "bytes_out": 0, "skipped": []}

    def work(sample: Sample) -> Tuple[int, bytes]:
        data = sample.read()
        return len(data), rewrite(data, interval_width, verify)

    pool = concurrent.futures.ThreadPoolExecutor(workers or os.cpu_count() or 1)
    try:
        for index, chunk in enumerate(_chunks(samples, shard_size)):
            path = os.path.join(dest, f"shard-{index:06d}.tar")
            first = index * shard_size
            keys, blobs, labels = [], [], []
            if tf.io.gfile.exists(path):  # finished by an earlier run
                _count(manifest, json.loads(tf.io.gfile.GFile(_summary_path(path)).read()), path)
                if bar:
                    bar.done += len(chunk)
                continue
            summary = {"samples": 0, "bytes_in": 0, "bytes_out": 0, "skipped": []}
            for k, (sample, (size, result)) in enumerate(zip(chunk, pool.map(_guarded(work), chunk))):
                if isinstance(result, Exception):
                    message = f"{sample.name}: {_message(result)}"
                    if on_error == "raise":
                        if isinstance(result, tf.errors.OpError):
                            raise type(result)(None, None, message) from result
                        raise type(result)(message) from result
                    summary["skipped"].append(message)
                    continue
                keys.append(first + k)
                blobs.append(result)
                labels.append(sample.label)
                summary["samples"] += 1
                summary["bytes_in"] += size
                summary["bytes_out"] += len(result)
                if bar:
                    bar.add(size, len(result))
            # The summary first: a shard whose tar exists is finished, and has one.
            with tf.io.gfile.GFile(_summary_path(path), "w") as f:
                json.dump(summary, f)
            _write_shard(path, keys, blobs, labels)
            _count(manifest, summary, path)
    finally:
        pool.shutdown()
    if bar:
        bar.update(final=True)
    with tf.io.gfile.GFile(os.path.join(dest, MANIFEST), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def _message(error: Exception) -> str:
    """An error's text without TensorFlow's op-name preamble."""
    text = error.message if isinstance(error, tf.errors.OpError) else str(error)
    return text.split("}} ")[-1].split(" [Op:")[0]


def _guarded(fn):
    def call(sample):
        try:
            return fn(sample)
        except (tf.errors.OpError, OSError, RuntimeError, ValueError) as e:
            return 0, e
    return call


def _chunks(samples: Iterable[Sample], size: int) -> Iterator[List[Sample]]:
    chunk: List[Sample] = []
    for sample in samples:
        chunk.append(sample)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _summary_path(shard: str) -> str:
    return shard[:-len(".tar")] + ".json"


def _count(manifest: dict, summary: dict, path: str) -> None:
    for key in ("samples", "bytes_in", "bytes_out"):
        manifest[key] += summary[key]
    manifest["skipped"] += summary["skipped"]
    manifest["shards"].append(os.path.basename(path))


def main(argv) -> None:
    from absl import app, flags

    if len(argv) != 3:
        raise app.UsageError("usage: python -m tfgpuaug.prepare SRC DEST [flags]")
    f = flags.FLAGS
    manifest = prepare(argv[1], argv[2], f.interval_width, f.shard_size, f.workers, f.verify, f.on_error)
    ratio = manifest["bytes_out"] / max(manifest["bytes_in"], 1)
    print(f"{manifest['samples']} images in {len(manifest['shards'])} shards under {argv[2]}: "
          f"{manifest['bytes_in'] / 1e6:.1f} MB -> {manifest['bytes_out'] / 1e6:.1f} MB ({ratio:.3f}x)"
          + (f", {len(manifest['skipped'])} skipped" if manifest["skipped"] else ""))


def _define_flags() -> None:
    from absl import flags

    flags.DEFINE_integer("interval_width", 64, "Restart interval width in pixels.")
    flags.DEFINE_integer("shard_size", 1000, "Samples per shard.")
    flags.DEFINE_integer("workers", None, "Images rewritten at once (default: CPU count).")
    flags.DEFINE_bool("verify", True, "Check every rewritten JPEG decodes to the original pixels.")
    flags.DEFINE_enum("on_error", "raise", ["raise", "skip"], "A damaged image stops the run, or is left out.")


if __name__ == "__main__":
    from absl import app

    _define_flags()
    app.run(main)
