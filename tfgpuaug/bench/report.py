"""The harness's results as a console table, a Markdown table and a JSON document."""
from __future__ import annotations

import datetime
import os
import platform
from typing import Dict, List, Optional

import tensorflow as tf

from tfgpuaug.bench.pipelines import (DETECTION_FLOOR, DETECTION_RANDAUGMENT, DETECTION_TWO_IN_FLIGHT,
                                      EXTENDED_RANDAUGMENT, FLOOR, FULL_SCALE, SAME_SCALE_FLOOR,
                                      WITHOUT_RANDAUGMENT)

OURS = "tfgpuaug"


def machine() -> Dict:
    cpu = _cpuinfo("model name") or platform.processor() or platform.machine()
    try:
        import nvidia.dali as dali
        dali_version = dali.__version__
    except Exception:  # noqa: BLE001 - absent or broken
        dali_version = None
    import tfgpuaug
    from tfgpuaug import _build_info

    # Which libjpeg decodes: the x86-64-v3 build when linked in, the CPU has it and
    # TFGPUAUG_DISABLE_JPEG_V3 is unset (cc/kernels/decode/jpeg_codec_select.cc), else the system's.
    v3 = (getattr(_build_info, "JPEG_X86_64_V3", False) and _cpu_has_x86_64_v3()
          and not os.environ.get("TFGPUAUG_DISABLE_JPEG_V3"))
    return dict(date=datetime.date.today().isoformat(), platform=platform.platform(), cpu=cpu,
                cores=os.cpu_count(), gpus=len(tf.config.list_physical_devices("GPU")),
                tensorflow=tf.__version__, tfgpuaug=tfgpuaug.__version__, dali=dali_version,
                jpeg_decoder="libjpeg-turbo built for x86-64-v3" if v3 else "system libjpeg")


def _cpuinfo(key: str) -> str:
    """The first /proc/cpuinfo line's value for `key` ('' when there is none)."""
    try:
        with open("/proc/cpuinfo") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith(key)), "")
    except OSError:
        return ""


def _cpu_has_x86_64_v3() -> bool:
    return {"avx2", "bmi1", "bmi2", "fma", "movbe", "abm", "f16c"} <= set(_cpuinfo("flags").split())


def suite_rows(rates: Dict[str, float], rss: Dict[str, float],
               per_round: Optional[Dict[str, List[float]]] = None) -> List[Dict]:
    """One row per pipeline: images/s, tfgpuaug's speed as a multiple of it, peak RSS, and
    (with `per_round`) every round's rate and tfgpuaug's ratio to it within each round,
    which machine drift between rounds does not move."""
    ours = rates.get(OURS)
    rows = []
    for name, rate in rates.items():
        row = dict(pipeline=name, images_per_s=round(rate, 1),
                   tfgpuaug_speedup=round(ours / rate, 2) if ours and name != OURS else None,
                   peak_rss_mb=None if name not in rss else round(rss[name], 0))
        if per_round and name in per_round:
            row["round_images_per_s"] = [round(r, 1) for r in per_round[name]]
            if name != OURS and OURS in per_round:
                row["round_speedups"] = [round(o / r, 3) for o, r in zip(per_round[OURS], per_round[name])]
        rows.append(row)
    return rows


def derived(suites: Dict[str, List[Dict]]) -> Dict[str, float]:
    """Ratios the issues' targets are stated in."""
    rate = {(s, r["pipeline"]): r["images_per_s"] for s, rows in suites.items() for r in rows}
    out = {}
    if ("train", FULL_SCALE) in rate and ("train", FLOOR) in rate:  # the same decoding work
        out["train tfgpuaug (full-scale decode) / crop-decode floor"] = rate["train", FULL_SCALE] / rate["train", FLOOR]
    if ("train", OURS) in rate and ("train", FLOOR) in rate:  # default: some boxes at half scale
        out["train tfgpuaug (default) / crop-decode floor"] = rate["train", OURS] / rate["train", FLOOR]
    if ("large", OURS) in rate and ("large", SAME_SCALE_FLOOR) in rate:  # the same crops at the same scale
        out["large tfgpuaug (default) / same-scale crop-decode floor"] = (rate["large", OURS] /
                                                                          rate["large", SAME_SCALE_FLOOR])
    # RandAugment's cost against the plain train pipeline timed in the same rounds.
    plain = rate.get(("randaugment", WITHOUT_RANDAUGMENT), rate.get(("train", OURS)))
    if plain and ("randaugment", OURS) in rate:
        out["RandAugment cost (share of train throughput lost)"] = 1 - rate["randaugment", OURS] / plain
    if plain and ("randaugment", EXTENDED_RANDAUGMENT) in rate:
        out["RandAugment over the extended registry: cost (share of train throughput lost)"] = (
            1 - rate["randaugment", EXTENDED_RANDAUGMENT] / plain)
    for name in (OURS, DETECTION_TWO_IN_FLIGHT):
        if ("detection", name) in rate and ("detection", DETECTION_FLOOR) in rate:
            out[f"detection {name} / full-decode floor"] = rate["detection", name] / rate["detection", DETECTION_FLOOR]
    garden_ra = ("detection", "TF Model Garden + RandAugment.build_for_detection(2, 9)")
    if ("detection", DETECTION_RANDAUGMENT) in rate and garden_ra in rate:
        ours_ra = rate["detection", DETECTION_RANDAUGMENT]
        out["detection with RandAugment: tfgpuaug / Model Garden"] = ours_ra / rate[garden_ra]
    return {k: round(v, 3) for k, v in out.items()}


def print_tables(suites: Dict[str, List[Dict]], micro: Optional[List[Dict]],
                 bandwidth: Optional[float]) -> None:
    for suite, rows in suites.items():
        print(f"\n{suite}")
        print(f"  {'pipeline':40s} {'img/s':>8s} {'tfgpuaug is':>12s} {'peak RSS':>9s}")
        for r in rows:
            speed = f"{r['tfgpuaug_speedup']:.2f}x" if r["tfgpuaug_speedup"] else ""
            rss = f"{r['peak_rss_mb']:.0f} MB" if r["peak_rss_mb"] is not None else ""
            print(f"  {r['pipeline']:40s} {r['images_per_s']:8.1f} {speed:>12s} {rss:>9s}")
    for name, value in derived(suites).items():
        print(f"{name}: {value:.2f}")
    if micro:
        print(f"\nper-op (batch of 224x224 RGB unless named; memory copy bandwidth "
              f"{bandwidth:.1f} GB/s on one core)")
        for r in micro:
            print(f"  {r['op']:38s} {r['implementation']:36s} {r['gb_per_s']:7.2f} GB/s "
                  f"{r['images_per_s']:9.0f} img/s")


def markdown(suites: Dict[str, List[Dict]], info: Dict) -> str:
    gpus = f"{info['gpus']} GPUs" if info["gpus"] else "no GPU"
    lines = [f"Measured {info['date']} on {info['cpu']}, {info['cores']} cores, {gpus} "
             f"(TensorFlow {info['tensorflow']}, DALI {info['dali'] or 'not installed'}; "
             f"JPEGs through the {info.get('jpeg_decoder', 'system libjpeg')}).", "",
             "| pipeline | implementation | img/s | tfgpuaug is | peak RSS rise |",
             "|---|---|---:|---:|---:|"]
    for suite, rows in suites.items():
        for r in rows:
            speed = f"{r['tfgpuaug_speedup']:.2f}x" if r["tfgpuaug_speedup"] else ""
            rss = f"{r['peak_rss_mb']:.0f} MB" if r["peak_rss_mb"] is not None else ""
            lines.append(f"| {suite} | {r['pipeline']} | {r['images_per_s']:.0f} | {speed} | {rss} |")
    return "\n".join(lines)
