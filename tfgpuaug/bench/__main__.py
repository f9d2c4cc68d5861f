"""Side-by-side benchmark of tfgpuaug and its anchors on the same images, in one run.

    python -m tfgpuaug.bench [--data DIR] [--suites train,eval,randaugment,micro]
                             [--rounds 5] [--batch_size 64] [--json out.json] [--markdown]
    python -m tfgpuaug.bench --quick      # a few generated images; checks the harness runs

Each pipeline is timed in steady state (warm-up batches first) in interleaved rounds; the
median images/s is reported. Peak RSS is measured per pipeline in its own process, as the
rise of the peak resident set after TensorFlow is up and the images are loaded.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

from absl import app, flags

_DATA = flags.DEFINE_string("data", None, "Image folder (default: ../shared/data/imagenet-sample "
                            "beside the repository when present, else generated images).")
_SUITES = flags.DEFINE_list("suites", ["train", "eval", "randaugment", "micro"], "What to run.")
_ROUNDS = flags.DEFINE_integer("rounds", 5, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Batch size.")
_JSON = flags.DEFINE_string("json", None, "Write the results to this JSON file.")
_MARKDOWN = flags.DEFINE_bool("markdown", False, "Also print the README's Markdown table.")
_RSS = flags.DEFINE_bool("rss", True, "Measure each pipeline's peak RSS in a subprocess.")
_KERAS = flags.DEFINE_bool("keras", True, "Include keras.layers.RandAugment (slow).")
_DALI = flags.DEFINE_bool("dali", True, "Include DALI's CPU pipelines when DALI is installed.")
_QUICK = flags.DEFINE_bool("quick", False, "A few generated images, one short round.")
_RSS_OF = flags.DEFINE_string("rss_of", None, "Internal: 'suite/pipeline' to run for peak RSS.")

PIPELINE_SUITES = ("train", "eval", "randaugment")


def _inputs():
    import tensorflow as tf  # noqa: F401 - imported after absl parsed the flags

    from tfgpuaug.bench import pipelines, timing

    data = _DATA.value
    if data is None and _QUICK.value:  # a few generated images, even beside the shared sample
        data = timing.generated_data_dir(per_class=4)
    blobs, files = timing.load_images(data, jpeg_only=True)
    batch = min(_BATCH.value, len(blobs)) if not _QUICK.value else 4
    inp = pipelines.Inputs(blobs, files, batch)
    return inp, os.path.dirname(files[0])


def _makers(inp):
    from tfgpuaug.bench import pipelines

    suites = {"train": pipelines.train(inp), "eval": pipelines.evaluation(inp),
              "randaugment": pipelines.randaugment(inp, with_keras=_KERAS.value)}
    if _DALI.value and pipelines.installed_anchors()["DALI"]:
        from tfgpuaug.bench import dali_pipelines

        for suite, extra in dali_pipelines.makers(inp).items():
            suites[suite].update(extra)
    return {s: suites[s] for s in PIPELINE_SUITES if s in _SUITES.value}


def _measure_rss(spec: str) -> float:
    """The largest peak-RSS rise over timing.RSS_RUNS processes (NaN if one fails)."""
    from tfgpuaug.bench import timing

    cmd = [sys.executable, "-m", "tfgpuaug.bench", f"--rss_of={spec}",
           f"--batch_size={_BATCH.value}", f"--quick={_QUICK.value}", f"--keras={_KERAS.value}",
           f"--dali={_DALI.value}"] + ([f"--data={_DATA.value}"] if _DATA.value else [])
    rises = []
    for _ in range(timing.RSS_RUNS):
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        rises.append(float(out.split("PEAK_RSS_RISE_MB")[-1]) if "PEAK_RSS_RISE_MB" in out else float("nan"))
    return max(rises) if all(r == r for r in rises) else float("nan")


def main(argv):
    del argv
    from tfgpuaug.bench import micro, report, timing

    unknown = set(_SUITES.value) - set(PIPELINE_SUITES) - {"micro"}
    if unknown:
        raise app.UsageError(f"unknown suites {sorted(unknown)}; known: {PIPELINE_SUITES + ('micro',)}")
    inp, folder = _inputs()
    n = len(inp.files)
    makers = _makers(inp)
    if _RSS_OF.value:
        suite, name = _RSS_OF.value.split("/", 1)
        batches = max(timing.RSS_MIN_BATCHES, 3 * n // inp.batch)
        rise = timing.peak_rss_rise_mb(lambda: makers[suite][name](0), batches)
        print(f"PEAK_RSS_RISE_MB {rise:.1f}")
        return
    rounds = 1 if _QUICK.value else _ROUNDS.value
    info = report.machine()
    print(f"{n} images from {folder}; batch {inp.batch}; {info['cores']} cores ({info['cpu']}); "
          f"median of {rounds} interleaved rounds; GPUs seen: {info['gpus']}")
    suites = {}
    for suite, ms in makers.items():
        # At least 20 batches per timed round: short windows mostly time the prefetch buffer.
        count = n if _QUICK.value else max(n, 20 * inp.batch)
        per_round: dict = {}
        rates = timing.interleaved_images_per_second(ms, count, rounds, inp.batch,
                                                     warmup_batches=1 if _QUICK.value else 4,
                                                     per_round=per_round)
        rss = {name: _measure_rss(f"{suite}/{name}") for name in ms} if _RSS.value else {}
        suites[suite] = report.suite_rows(rates, rss, per_round)
    micro_rows, bandwidth = None, None
    if "micro" in _SUITES.value:
        bandwidth = micro.memory_bandwidth_gbs(16 if _QUICK.value else 256)
        micro_rows = micro.run([open(f, "rb").read() for f in inp.files], inp.batch,
                               rounds=1 if _QUICK.value else 3, iters=1 if _QUICK.value else 5)
    report.print_tables(suites, micro_rows, bandwidth)
    if _MARKDOWN.value:
        print("\n" + report.markdown(suites, info))
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=info, data=folder, images=n, batch=inp.batch, rounds=rounds,
                           suites=suites, derived=report.derived(suites), micro=micro_rows,
                           memory_copy_gb_per_s=bandwidth), f, indent=1)
        print(f"wrote {_JSON.value}")


if __name__ == "__main__":
    app.run(main)
