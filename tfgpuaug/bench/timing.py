"""Benchmark plumbing: the image set, timing tf.data pipelines side by side, peak RSS."""
from __future__ import annotations

import os
import resource
import statistics
import time
from typing import Callable

import numpy as np
import tensorflow as tf

def default_data_dir(generated_per_class: int = 40) -> str:
    """A folder of generated sample images (pass --data for real photos)."""
    return generated_data_dir(generated_per_class)


def generated_data_dir(per_class: int) -> str:
    """A folder of generated sample images (made once, then reused)."""
    from tfgpuaug import samples

    folder = f"/tmp/tfgpuaug-bench-samples-{per_class}"
    if not os.path.isdir(folder):
        samples.make_sample_images(folder, per_class=per_class)
    return folder


LARGE_SIZE, LARGE_QUALITY, LARGE_COUNT = (3000, 4000), 90, 128


def _upscale(job: tuple) -> None:
    from PIL import Image

    source, target, (short, long) = job
    with Image.open(source) as img:
        img = img.convert("RGB")
        size = (long, short) if img.width >= img.height else (short, long)
        img.resize(size, Image.BICUBIC).save(target + ".part", "JPEG", quality=LARGE_QUALITY)
    os.replace(target + ".part", target)


def large_photos_dir(files: list[str], count: int = LARGE_COUNT, size: tuple = LARGE_SIZE) -> str:
    """`count` of `files` upscaled to 4000x3000 (3000x4000 for portraits) and re-encoded at
    quality 90: phone-photo sized JPEGs made from the benchmark's images, once per source set
    (cached under the temp folder, keyed by the sources and the size)."""
    import hashlib
    import multiprocessing
    import tempfile

    chosen = files[:count]
    key = hashlib.sha1(repr((chosen, size, LARGE_QUALITY)).encode()).hexdigest()[:12]
    folder = os.path.join(tempfile.gettempdir(), f"tfgpuaug-bench-large-{key}")
    targets = [os.path.join(folder, f"{i:04d}_{os.path.basename(f)}") for i, f in enumerate(chosen)]
    jobs = [(f, t, size) for f, t in zip(chosen, targets) if not os.path.exists(t)]
    if jobs:
        os.makedirs(folder, exist_ok=True)
        with multiprocessing.get_context("spawn").Pool(os.cpu_count() or 1) as pool:
            pool.map(_upscale, jobs)
    return folder


def list_image_files(data_dir: str, jpeg_only: bool = False) -> list[str]:
    """Image files in data_dir or its class folders, sorted."""
    exts = (".jpg", ".jpeg") if jpeg_only else (".jpg", ".jpeg", ".png")
    files = sorted(tf.io.gfile.glob(os.path.join(data_dir, "*.*")) +
                   tf.io.gfile.glob(os.path.join(data_dir, "*", "*.*")))
    return [f for f in files if f.lower().endswith(exts)]


def load_images(data_dir: str | None, jpeg_only: bool = False) -> tuple[list[bytes], list[str]]:
    """(encoded bytes, paths) of every image in data_dir (default: default_data_dir())."""
    files = list_image_files(data_dir or default_data_dir(), jpeg_only)
    if not files:
        raise ValueError(f"no images in {data_dir}")
    return [open(f, "rb").read() for f in files], files


def windows_for(blobs: list[bytes]) -> np.ndarray:
    """Inception-style windows [N, 4] for these encoded images."""
    import tfgpuaug as tga

    shapes = tga.image_shape(tf.constant(blobs)).numpy()[:, :2]
    return inception_windows(shapes)


def inception_windows(shapes: np.ndarray, seed: int = 0, scale=(0.08, 1.0),
                      ratio=(3 / 4, 4 / 3)) -> np.ndarray:
    """Inception-style random crop boxes [y, x, h, w] (10 attempts, then the whole image)."""
    rng = np.random.default_rng(seed)
    out = []
    for h, w in shapes:
        box = [0, 0, int(h), int(w)]
        for _ in range(10):
            area = h * w * rng.uniform(*scale)
            aspect = np.exp(rng.uniform(np.log(ratio[0]), np.log(ratio[1])))
            cw, ch = int(round(np.sqrt(area * aspect))), int(round(np.sqrt(area / aspect)))
            if 0 < cw <= w and 0 < ch <= h:
                box = [int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1)), ch, cw]
                break
        out.append(box)
    return np.asarray(out, np.int32)


def interleaved_images_per_second(makers: dict[str, Callable[[int], tf.data.Dataset]], count: int,
                                  rounds: int, batch_size: int, warmup_batches: int = 4,
                                  per_round: dict[str, list[float]] | None = None) -> dict[str, float]:
    """Median images/s of each pipeline, timed in interleaved rounds of `count` images.

    Each maker returns a dataset of batches, repeated so that the timed batches are in
    steady state (no epoch tail); round r passes seed 1000 + r to every maker, so no pipeline
    replays the same batches round after round. Only one pipeline runs at a time: its iterator
    is made, warmed up, timed and dropped, then the next one's; the order rotates by one each
    round, so neither machine drift nor a predecessor's after-effects favour one pipeline.
    """
    batches = max(1, count // batch_size)
    rates: dict[str, list[float]] = {name: [] for name in makers}
    names = list(makers)
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            it = iter(makers[name](1000 + r).repeat())
            for _ in range(warmup_batches):
                next(it)
            start = time.perf_counter()
            for _ in range(batches):
                next(it)
            rates[name].append(batches * batch_size / (time.perf_counter() - start))
            del it
    if per_round is not None:
        per_round.update(rates)
    return {name: statistics.median(r) for name, r in rates.items()}


# processes per pipeline; the maximum is reported (the peak is bimodal). The tests set 1: they
# check that the measurement works, not its value.
RSS_RUNS = int(os.environ.get("TFGPUAUG_BENCH_RSS_RUNS", "3"))
RSS_MIN_BATCHES = 100  # batches per process


def ratio_rows(rates: dict[str, float], width: int = 40) -> list[dict]:
    """Rows of pipeline rates named "op: library", each with tfgpuaug's rate for the same op
    over it (`tfgpuaug_ratio`), printed one per line as they are made."""
    rows = []
    for name, rate in rates.items():
        ours = rates[f"{name.split(':')[0]}: tfgpuaug"]
        rows.append(dict(pipeline=name, images_per_s=round(rate, 1), tfgpuaug_ratio=round(ours / rate, 2)))
        print(f"{name:{width}s} {rate:9.1f} img/s   tfgpuaug is {ours / rate:5.2f}x")
    return rows


def peak_rss_rise_mb(make: Callable[[], tf.data.Dataset], batches: int) -> float:
    """The peak-RSS rise of this process while `make()`'s pipeline yields `batches` batches."""
    reset_peak_rss()  # count the pipeline, not TensorFlow or the loaded images
    base = peak_rss_mb()
    it = iter(make())
    for _ in range(batches):
        next(it)
    return peak_rss_mb() - base


def reset_peak_rss() -> None:
    """Resets the kernel's peak-RSS mark (VmHWM) of this process, where Linux allows it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_rss_mb() -> float:
    """Peak resident set since the last reset_peak_rss (VmHWM), else since start."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
