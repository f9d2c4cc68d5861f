"""docs/augmentations.md's table of names (issue 36): every Albumentations transform and every
torchvision v2 transform is listed, with tfgpuaug's equivalent or "not yet", and every tfgpuaug
name the table offers exists."""
import inspect
import os
import re

import pytest

import tfgpuaug as tga

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# torchvision 0.24's transforms.v2 classes (torchvision is not a test dependency here).
TORCHVISION_V2 = """
Resize ScaleJitter RandomShortestSize RandomResize RandomCrop RandomResizedCrop RandomIoUCrop CenterCrop FiveCrop
TenCrop Pad RandomZoomOut RandomRotation RandomAffine RandomPerspective ElasticTransform RandomHorizontalFlip
RandomVerticalFlip ColorJitter RandomChannelPermutation RandomPhotometricDistort Grayscale RGB RandomGrayscale
GaussianBlur GaussianNoise RandomInvert RandomPosterize RandomSolarize RandomAdjustSharpness RandomAutocontrast
RandomEqualize RandomApply RandomChoice RandomOrder LinearTransformation Normalize RandomErasing Lambda
SanitizeBoundingBoxes ClampBoundingBoxes ClampKeyPoints SanitizeKeyPoints ConvertBoundingBoxFormat
UniformTemporalSubsample JPEG ToImage PILToTensor ToPILImage ToDtype ConvertImageDtype ToPureTensor AutoAugment
RandAugment TrivialAugmentWide AugMix CutMix MixUp
""".split()


def _table() -> list:
    """(their names cell, our cell) of each row of the names table."""
    with open(os.path.join(ROOT, "docs", "augmentations.md")) as f:
        text = f.read()
    start = text.index("## Names from Albumentations and torchvision v2")
    section = text[start:text.index("### Speed against", start)]
    rows = [line.split("|")[1:3] for line in section.splitlines() if line.startswith("| ")]
    return [(theirs.strip(), ours.strip()) for theirs, ours in rows[1:]]  # past the header


def _listed_names() -> set:
    return {word for theirs, _ in _table() for word in re.findall(r"[A-Za-z0-9]+", theirs)}


def test_every_torchvision_v2_transform_is_listed():
    missing = sorted(set(TORCHVISION_V2) - _listed_names())
    assert not missing, f"torchvision v2 transforms missing from the names table: {missing}"


def test_every_albumentations_transform_is_listed():
    A = pytest.importorskip("albumentations")
    from albumentations.core.transforms_interface import BasicTransform, DualTransform, ImageOnlyTransform
    bases = {BasicTransform, DualTransform, ImageOnlyTransform}
    names = {n for n, c in vars(A).items()
             if inspect.isclass(c) and issubclass(c, BasicTransform) and c not in bases and not n.startswith("_")
             and n != "Transform3D"}
    missing = sorted(names - _listed_names())
    assert not missing, f"Albumentations {A.__version__} transforms missing from the names table: {missing}"


def test_the_names_the_table_offers_exist():
    """Every backquoted transform (`Name`) and module function (`boxes.x`, `augment.x`,
    `augment.ops.x`) in the tfgpuaug column is something tfgpuaug has."""
    checked = 0
    for theirs, ours in _table():
        for ref in re.findall(r"`((?:[A-Z][A-Za-z0-9]*)|(?:(?:boxes|augment)\.[a-z_.]+))[`(]", ours):
            obj = tga
            for part in ref.split("."):
                obj = getattr(obj, part, None)
            assert obj is not None, f"row {theirs!r} names {ref!r}, which tfgpuaug lacks"
            checked += 1
    assert checked > 60  # the pattern still finds the names
