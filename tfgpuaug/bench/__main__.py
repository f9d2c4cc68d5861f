"""Side-by-side benchmark of tfgpuaug and plain tf.data + tf.image (plus any anchors) on the
same images, in one run, on this machine.

    python -m tfgpuaug.bench [--data DIR] [--suites train,eval,randaugment,detection,micro,large]
                             [--rounds 5] [--batch_size 64] [--json out.json] [--markdown]
                             [--anchors PATH] [--skip NAME,...] [--prepared]
    python -m tfgpuaug.bench --quick      # a few generated images; checks the harness runs

--anchors names a Python file or package with `makers(inputs) -> {suite: {name: maker}}`; the
source tree's `benchmarks/anchors` adds TF Model Garden, Keras 3 and DALI (not in the wheel).

Each pipeline is timed in steady state (warm-up batches first) in interleaved rounds; the
median images/s is reported. Peak RSS is measured per pipeline in its own process, as the
rise of the peak resident set after TensorFlow is up and the images are loaded.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

from absl import app, flags

_DATA = flags.DEFINE_string("data", None, "Image folder (default: generated sample images).")
_SUITES = flags.DEFINE_list("suites", ["train", "eval", "randaugment", "detection", "micro"], "What to run.")
_ROUNDS = flags.DEFINE_integer("rounds", 5, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Batch size.")
_JSON = flags.DEFINE_string("json", None, "Write the results to this JSON file.")
_MARKDOWN = flags.DEFINE_bool("markdown", False, "Also print the README's Markdown table.")
_RSS = flags.DEFINE_bool("rss", True, "Measure each pipeline's peak RSS in a subprocess.")
_ANCHORS = flags.DEFINE_string("anchors", None, "Python file or package with makers(inputs) "
                               "adding other libraries' pipelines (e.g. benchmarks/anchors).")
_PREPARED = flags.DEFINE_bool("prepared", False, "Add rows for the train and large suites on the same JPEGs "
                               "rewritten with restart markers (python -m tfgpuaug.prepare).")
_SKIP = flags.DEFINE_list("skip", [], "Leave out pipelines whose name contains one of these.")
_QUICK = flags.DEFINE_bool("quick", False, "A few generated images, one short round.")
_RSS_OF = flags.DEFINE_string("rss_of", None, "Internal: 'suite/pipeline' to run for peak RSS.")

PIPELINE_SUITES = ("train", "eval", "randaugment", "detection", "large")


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


def _load_anchors(path: str):
    """The module at `path` (a .py file, or a folder with __init__.py loaded as a package)."""
    path = os.path.abspath(path)
    package = os.path.isdir(path)
    spec = importlib.util.spec_from_file_location(
        "tfgpuaug_bench_anchors", os.path.join(path, "__init__.py") if package else path,
        submodule_search_locations=[path] if package else None)
    if spec is None:
        raise app.UsageError(f"--anchors: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _makers(inp):
    from tfgpuaug.bench import pipelines

    builders = {"train": pipelines.train, "eval": pipelines.evaluation, "randaugment": pipelines.randaugment,
                "detection": pipelines.detection, "large": pipelines.large_photos}
    suites = {s: builders[s](inp) for s in PIPELINE_SUITES if s in _SUITES.value}
    if _PREPARED.value:
        for suite in suites:
            suites[suite].update(pipelines.prepared_rows(suite, inp))
    if _ANCHORS.value:
        for suite, extra in _load_anchors(_ANCHORS.value).makers(inp, [s for s in suites]).items():
            if suite in suites:
                suites[suite].update(extra)
    keep = lambda name: not any(part in name for part in _SKIP.value)  # noqa: E731
    return {s: {name: m for name, m in suites[s].items() if keep(name)} for s in suites}


def _measure_rss(spec: str) -> float:
    """The largest peak-RSS rise over timing.RSS_RUNS processes (NaN if one fails)."""
    from tfgpuaug.bench import timing

    cmd = [sys.executable, "-m", "tfgpuaug.bench", f"--rss_of={spec}", f"--suites={spec.split('/')[0]}",
           f"--batch_size={_BATCH.value}", f"--quick={_QUICK.value}", f"--skip={','.join(_SKIP.value)}"]
    cmd += [f"--data={_DATA.value}"] if _DATA.value else []
    cmd += [f"--anchors={os.path.abspath(_ANCHORS.value)}"] if _ANCHORS.value else []
    rises = []
    for _ in range(timing.RSS_RUNS):
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        rises.append(float(out.split("PEAK_RSS_RISE_MB")[-1]) if "PEAK_RSS_RISE_MB" in out else float("nan"))
    return max(rises) if all(r == r for r in rises) else float("nan")


def main(argv):
    del argv
    from tfgpuaug.bench import micro, pipelines, report, timing

    unknown = set(_SUITES.value) - set(PIPELINE_SUITES) - {"micro"}
    if unknown:
        raise app.UsageError(f"unknown suites {sorted(unknown)}; known: {PIPELINE_SUITES + ('micro',)}")
    inp, folder = _inputs()
    n = len(inp.files)
    makers = _makers(inp)
    if _RSS_OF.value:
        suite, name = _RSS_OF.value.split("/", 1)
        per_batch = pipelines.suite_batch(suite, inp)
        batches = max(timing.RSS_MIN_BATCHES, 3 * pipelines.suite_images(suite, inp) // per_batch)
        rise = timing.peak_rss_rise_mb(lambda: makers[suite][name](0), batches)
        print(f"PEAK_RSS_RISE_MB {rise:.1f}")
        return
    rounds = 1 if _QUICK.value else _ROUNDS.value
    # --quick checks that the harness runs: no peak-RSS subprocesses (three TensorFlow start-ups
    # per pipeline, most of its old 3.5 minutes) unless --rss is given explicitly.
    measure_rss = _RSS.value and not (_QUICK.value and not flags.FLAGS["rss"].present)
    info = report.machine()
    print(f"{n} images from {folder}; batch {inp.batch}; {info['cores']} cores ({info['cpu']}); "
          f"median of {rounds} interleaved rounds; GPUs seen: {info['gpus']}")
    prepared_bytes = {}
    if _PREPARED.value:
        for suite in ("train", "large"):
            if suite in makers:
                source = pipelines.large_inputs(inp) if suite == "large" else inp
                before, after = pipelines.prepared_bytes(source)
                prepared_bytes[suite] = {"original": before, "prepared": after}
                print(f"{suite}: prepared JPEGs {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB ({after / before:.4f}x)")
    suites = {}
    for suite, ms in makers.items():
        # At least 20 batches per timed round: short windows mostly time the prefetch buffer.
        batch = pipelines.suite_batch(suite, inp)
        images = pipelines.suite_images(suite, inp)
        count = images if _QUICK.value else max(images, 20 * batch)
        per_round: dict = {}
        rates = timing.interleaved_images_per_second(ms, count, rounds, batch,
                                                     warmup_batches=1 if _QUICK.value else 4,
                                                     per_round=per_round)
        rss = {name: _measure_rss(f"{suite}/{name}") for name in ms} if measure_rss else {}
        suites[suite] = report.suite_rows(rates, rss, per_round)
    micro_rows, bandwidth = None, None
    if "micro" in _SUITES.value:
        bandwidth = micro.memory_bandwidth_gbs(16 if _QUICK.value else 256)
        micro_rows = micro.run([open(f, "rb").read() for f in inp.files], inp.batch,
                               rounds=1 if _QUICK.value else 3, iters=1 if _QUICK.value else 5)
    report.print_tables(suites, micro_rows, bandwidth)
    if _QUICK.value:
        print("\n--quick: one short round on a few images checks that every pipeline runs; its rates and "
              "ratios swing from run to run and are not measurements (drop --quick for those).")
    if _MARKDOWN.value:
        print("\n" + report.markdown(suites, info))
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=info, data=folder, images=n, batch=inp.batch, rounds=rounds,
                           suites=suites, derived=report.derived(suites), micro=micro_rows,
                           memory_copy_gb_per_s=bandwidth, prepared_bytes=prepared_bytes), f, indent=1)
        print(f"wrote {_JSON.value}")


if __name__ == "__main__":
    app.run(main)
