"""The anchors tfgpuaug is measured against, for the harness in the package:

    python -m tfgpuaug.bench --anchors benchmarks/anchors --data ../shared/data/imagenet-sample

They live here, outside the installed package: a user's `python -m tfgpuaug.bench` measures
tfgpuaug and tf.image on their machine; these add TF Model Garden, Keras 3 and DALI where
installed (an anchor whose library is missing or broken is reported and skipped).
"""
from __future__ import annotations

import importlib
import os
from typing import Dict

from tfgpuaug.bench.pipelines import Inputs, Maker

# The workplace's 500 ImageNet JPEGs beside the repository, when present.
SHARED_SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "imagenet-sample")


def sample_data_dir() -> str:
    """The shared ImageNet sample when present, else the harness's generated images."""
    from tfgpuaug.bench import timing

    return os.path.abspath(SHARED_SAMPLE) if os.path.isdir(SHARED_SAMPLE) else timing.default_data_dir()


# module -> the library it needs
ANCHORS = {"keras_layers": "keras", "model_garden": "official.vision.ops.augment",
           "dali": "nvidia.dali.plugin.tf"}


def makers(inp: Inputs, suites_wanted=None) -> Dict[str, Dict[str, Maker]]:
    """Every installed anchor's makers, by suite (only `suites_wanted` when given)."""
    suites: Dict[str, Dict[str, Maker]] = {}
    for module, needs in ANCHORS.items():
        try:
            importlib.import_module(needs)
        except Exception as e:  # noqa: BLE001 - a broken install counts as absent
            print(f"anchor {module} skipped: {needs} not importable ({type(e).__name__})")
            continue
        for suite, make in importlib.import_module(f"{__name__}.{module}").SUITES.items():
            if suites_wanted is None or suite in suites_wanted:
                suites.setdefault(suite, {}).update(make(inp))
    return suites
