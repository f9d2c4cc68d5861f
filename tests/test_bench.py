"""The benchmark harness in quick mode (a few generated images, one short round): it runs
every suite end to end and writes a complete JSON report. No speed is asserted."""
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(tmp_path, *args):
    out = tmp_path / "bench.json"
    run = subprocess.run([sys.executable, "-m", "tfgpuaug.bench", "--quick", f"--json={out}",
                          "--anchors=benchmarks/anchors", *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=900,
                         env=dict(os.environ, TFGPUAUG_BENCH_RSS_RUNS="1"))  # one process per pipeline
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    return json.loads(out.read_text()), run.stdout


def test_quick_run_reports_every_suite(tmp_path):
    """Every suite in one quick run; quick alone skips peak RSS and says its rates are no
    measurement (`bench --quick` took 3.5 minutes, mostly three TensorFlow start-ups per pipeline
    for peak RSS, and printed swinging ratios without a word: issue #34)."""
    report, stdout = _run(tmp_path)
    assert all(r["peak_rss_mb"] is None for rows in report["suites"].values() for r in rows)
    assert "are not measurements" in stdout
    assert set(report["suites"]) == {"train", "eval", "randaugment", "detection"}
    names = {s: {r["pipeline"] for r in rows} for s, rows in report["suites"].items()}
    full_scale = "tfgpuaug, full-scale decode (max_dct_denom=1)"
    assert {"tf.data + tf.image", "tfgpuaug", full_scale, "floor: crop decode alone"} <= names["train"]
    assert {"tf.data + tf.image", "tfgpuaug", full_scale} <= names["eval"]
    assert {"tfgpuaug", "tfgpuaug without RandAugment", "keras.layers.RandAugment",
            "tfgpuaug, RandAugment over the extended registry"} <= names["randaugment"]
    assert {"tfgpuaug", "tfgpuaug, num_parallel_calls=2", "floor: full-image decode alone",
            "Keras 3 layers (bounding_box_format)"} <= names["detection"]
    assert "detection tfgpuaug / full-decode floor" in report["derived"]
    for rows in report["suites"].values():
        for r in rows:
            assert r["images_per_s"] > 0
            assert (r["tfgpuaug_speedup"] is None) == (r["pipeline"] == "tfgpuaug")
            assert len(r["round_images_per_s"]) == report["rounds"]
            assert ("round_speedups" in r) == (r["pipeline"] != "tfgpuaug")
    assert "RandAugment cost (share of train throughput lost)" in report["derived"]
    assert "RandAugment over the extended registry: cost (share of train throughput lost)" in report["derived"]
    assert "train tfgpuaug (full-scale decode) / crop-decode floor" in report["derived"]
    ops = {r["op"] for r in report["micro"]}
    assert {"decode", "resize 384->224 antialias", "augment rotate", "augment equalize"} <= ops
    assert all(r["bytes"] > 0 and r["gb_per_s"] > 0 for r in report["micro"])
    assert report["memory_copy_gb_per_s"] > 0
    assert report["machine"]["cores"] == os.cpu_count() and report["machine"]["gpus"] == 0
    assert "per-op" in stdout and "tfgpuaug is" in stdout


def test_peak_rss_is_measured_per_pipeline(tmp_path):
    report, _ = _run(tmp_path, "--suites=eval", "--skip=keras", "--markdown", "--rss")
    rows = report["suites"]["eval"]
    assert len(rows) >= 2
    for r in rows:
        # a pipeline that ran allocated something: a zero rise means the measurement is broken
        assert r["peak_rss_mb"] is not None and math.isfinite(r["peak_rss_mb"]) and r["peak_rss_mb"] > 0


def test_large_photo_suite_runs_on_its_own_images(tmp_path):
    """--suites large makes 4000x3000 re-encodes of the images (once, cached) and times the
    train pipeline on them beside tf.image, the full-scale row and the same-scale floor."""
    report, _ = _run(tmp_path, "--suites=large", "--rss=false", "--skip=keras")
    names = {r["pipeline"] for r in report["suites"]["large"]}
    assert {"tf.data + tf.image", "tfgpuaug", "tfgpuaug, full-scale decode (max_dct_denom=1)",
            "floor: crop decode alone, same DCT scale"} <= names
    assert "large tfgpuaug (default) / same-scale crop-decode floor" in report["derived"]
    import glob
    import tempfile

    import numpy as np
    from PIL import Image
    made = glob.glob(os.path.join(tempfile.gettempdir(), "tfgpuaug-bench-large-*", "*.*"))
    sizes = {Image.open(f).size for f in made[:20]}
    assert sizes and sizes <= {(4000, 3000), (3000, 4000)}
    assert np.isfinite(report["derived"]["large tfgpuaug (default) / same-scale crop-decode floor"])
