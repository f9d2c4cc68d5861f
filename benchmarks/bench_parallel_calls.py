"""The train pipeline with one batch in flight (gpu_augment's default) against two
(`num_parallel_calls=2, prefetch=0`), side by side with the crop-decode floor and DALI
when it is installed; speed in interleaved rounds, peak-RSS rise in a subprocess each.

    python benchmarks/bench_parallel_calls.py [--rounds 7] [--json out.json]

Reports each variant's median images/s and its median ratio, within rounds, to the floor
and to DALI (ratios of rates timed minutes apart drift with the machine).
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys

from absl import app, flags

import anchors  # benchmarks/anchors (this script's folder is on sys.path)
import tfgpuaug as tga
from tfgpuaug.bench import pipelines, timing

_ROUNDS = flags.DEFINE_integer("rounds", 7, "Interleaved rounds.")
_JSON = flags.DEFINE_string("json", None, "Write results to this JSON file.")
_RSS_OF = flags.DEFINE_string("rss_of", None, "Internal: the variant to run for peak RSS.")

ONE, TWO = "tfgpuaug (1 batch in flight)", "tfgpuaug (num_parallel_calls=2, prefetch=0)"


def makers(inp: pipelines.Inputs) -> dict:
    crop = tga.RandomResizedCrop(inp.size)

    def two_in_flight(seed):
        return inp.batches().apply(tga.gpu_augment(
            [crop, tga.CropMirrorNormalize(mirror=0.5)], seed=seed, num_parallel_calls=2, prefetch=0))

    train = pipelines.train(inp)
    out = {ONE: train["tfgpuaug"], TWO: two_in_flight, "floor": train[pipelines.FLOOR]}
    dali = anchors.makers(inp, ["train"]).get("train", {}).get("DALI CPU (TF plugin)")
    if dali is not None:
        out["DALI"] = dali
    return out


def peak_rss_rise(name: str) -> float:
    """The largest rise over timing.RSS_RUNS processes."""
    return max(float(subprocess.run([sys.executable, __file__, f"--rss_of={name}"], capture_output=True,
                                    text=True, check=True).stdout.split("PEAK_RSS_RISE_MB")[-1])
               for _ in range(timing.RSS_RUNS))


def main(argv):
    del argv
    blobs, files = timing.load_images(anchors.sample_data_dir(), jpeg_only=True)
    inp = pipelines.Inputs(blobs, files, 64)
    ms = makers(inp)
    if _RSS_OF.value:
        batches = max(timing.RSS_MIN_BATCHES, 3 * len(blobs) // inp.batch)
        print(f"PEAK_RSS_RISE_MB {timing.peak_rss_rise_mb(lambda: ms[_RSS_OF.value](0), batches):.1f}")
        return
    per_round: dict = {}
    medians = timing.interleaved_images_per_second(ms, max(len(blobs), 20 * inp.batch),
                                                   _ROUNDS.value, inp.batch, per_round=per_round)
    rows = []
    for name in (ONE, TWO):
        row = dict(variant=name, images_per_s=round(medians[name], 1),
                   peak_rss_mb=round(peak_rss_rise(name), 0),
                   round_images_per_s=[round(r, 1) for r in per_round[name]])
        for anchor in ("floor", "DALI"):
            if anchor in per_round:
                row[f"median_ratio_to_{anchor}"] = round(statistics.median(
                    a / b for a, b in zip(per_round[name], per_round[anchor])), 3)
        rows.append(row)
        print(row)
    anchor_rates = {a: round(medians[a], 1) for a in ("floor", "DALI") if a in medians}
    print("anchors (median img/s):", anchor_rates)
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(rounds=_ROUNDS.value, images=len(blobs), variants=rows, anchors=anchor_rates,
                           anchor_rounds={a: per_round[a] for a in anchor_rates}), f, indent=1)


if __name__ == "__main__":
    app.run(main)
