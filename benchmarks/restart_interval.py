"""Bytes against speed for the restart interval `python -m tfgpuaug.prepare` writes.

For each interval width, the sample's JPEGs are rewritten with `add_jpeg_restart_markers` and the
same Inception-style crops are decoded from them (the train pipeline's crop decode, full scale,
nothing after it), in interleaved rounds beside the original files, all with per-image
optimized Huffman tables ("row": one interval per MCU row, the markers' least cost).

    python benchmarks/restart_interval.py --data ../shared/data/imagenet-sample
"""
from __future__ import annotations

import os
import statistics
import time

from absl import app, flags

_DATA = flags.DEFINE_string("data", None, "JPEG folder (default: generated sample images).")
_WIDTHS = flags.DEFINE_list("interval_widths", ["8", "16", "32", "64", "128", "row"],
                            "Widest interval in pixels ('row': one interval per MCU row).")
_ROUNDS = flags.DEFINE_integer("rounds", 5, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Images per decode call.")
_DENOM = flags.DEFINE_integer("dct_denom", 1, "Decode the crops at 1/dct_denom scale (8: almost no IDCT, so "
                              "the Huffman decoding's share shows).")


def main(argv):
    del argv
    import numpy as np
    import tensorflow as tf

    import tfgpuaug as tga
    from tfgpuaug.bench import timing

    blobs, _ = timing.load_images(_DATA.value, jpeg_only=True)
    windows = timing.windows_for(blobs)
    sets = {"original": blobs}
    for name in _WIDTHS.value:
        width = 1 << 20 if name == "row" else int(name)  # wider than any row: one interval per row
        rewritten = tga.add_jpeg_restart_markers(tf.constant(blobs), interval_width=width).numpy()
        sets[f"intervals of {name} px"] = [bytes(b) for b in rewritten]
    batch, denom = _BATCH.value, _DENOM.value
    scaled = np.concatenate([windows[:, :2] // denom, np.maximum(windows[:, 2:] // denom, 1)], 1).astype(np.int32)
    chunks = [(i, min(i + batch, len(blobs))) for i in range(0, len(blobs), batch)]

    def run(data):
        start = time.perf_counter()
        for lo, hi in chunks:
            tga.decode_image(tf.constant(data[lo:hi]), crop_window=tf.constant(scaled[lo:hi]), dct_denom=denom)
        return len(blobs) / (time.perf_counter() - start)

    rates = {name: [] for name in sets}
    names = list(sets)
    for r in range(_ROUNDS.value + 1):
        for name in names[r % len(names):] + names[:r % len(names)]:
            rate = run(sets[name])
            if r:  # the first round warms up
                rates[name].append(rate)
    base_bytes = sum(map(len, blobs))
    base_rate = statistics.median(rates["original"])
    print(f"{len(blobs)} JPEGs, {base_bytes / 1e6:.2f} MB, crop decode at 1/{denom} scale, batch {batch}, "
          f"{os.cpu_count()} cores, median of {_ROUNDS.value} rounds")
    print(f"{'files':34s} {'MB':>8s} {'bytes':>8s} {'img/s':>8s} {'speed':>7s}")
    for name in names:
        size = sum(map(len, sets[name]))
        rate = statistics.median(rates[name])
        print(f"{name:34s} {size / 1e6:8.2f} {size / base_bytes:8.3f} {rate:8.0f} {rate / base_rate:6.2f}x")
    assert np.all(np.isfinite(list(map(statistics.median, rates.values()))))


if __name__ == "__main__":
    app.run(main)
