"""One registry of augmentations: each with its magnitude range, magnitude-to-parameter
mapping and random sign; the policies draw from a registry.

A magnitude bin m of `num_bins` maps to `low + (high - low) * m / (num_bins - 1)`; with
`signed`, the value's sign is flipped with probability 1/2; then `center` is added (so the
enhance ops map to factors 1 +- value). `relative` scales the value by the image width
(translate_x) or height (translate_y). Custom augmentations give `fn(images, params)` in
TF ops instead of an op id: they run outside the fused kernel on the samples that chose them.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Dict, Iterable, Optional, Tuple

import tensorflow as tf

from tfgpuaug.augment.ops import OP_IDS


@dataclasses.dataclass(frozen=True)
class Augmentation:
    name: str
    magnitude_range: Tuple[float, float] = (0.0, 0.0)
    signed: bool = False
    center: float = 0.0
    relative: Optional[str] = None  # "width" or "height"
    integer: bool = False  # truncate the parameter (AutoAugment's posterize bits)
    fn: Optional[Callable[[tf.Tensor, tf.Tensor], tf.Tensor]] = None

    def __post_init__(self):
        if self.fn is None and self.name not in OP_IDS:
            raise ValueError(f"unknown augmentation {self.name!r}: not a kernel op "
                             f"({', '.join(sorted(OP_IDS))}) and no fn given")
        if self.relative not in (None, "width", "height"):
            raise ValueError(f"relative must be None, 'width' or 'height', got {self.relative!r}")

    @property
    def op_id(self) -> Optional[int]:
        return None if self.fn is not None else OP_IDS[self.name]

    def with_range(self, low: float, high: float) -> "Augmentation":
        return dataclasses.replace(self, magnitude_range=(float(low), float(high)))

    def parameter(self, bins: tf.Tensor, num_bins: int, negate: tf.Tensor,
                  height: tf.Tensor, width: tf.Tensor) -> tf.Tensor:
        """Natural-unit parameter for magnitude bins (float [n]) and sign draws (bool [n])."""
        low, high = self.magnitude_range
        frac = bins / float(max(num_bins - 1, 1))
        value = low + (high - low) * frac
        if self.signed:
            value = tf.where(negate, -value, value)
        if self.relative == "width":
            value = value * width
        elif self.relative == "height":
            value = value * height
        if self.integer:
            value = tf.floor(value)
        return value + self.center


def _table(entries: Iterable[Augmentation]) -> Dict[str, Augmentation]:
    return {a.name: a for a in entries}


def _enhance(name, high):
    return Augmentation(name, (0.0, high), signed=True, center=1.0)


# RandAugment / AutoAugment ranges (../shared/DESIGN.md; timm, torchvision, DALI auto_aug).
STANDARD = _table([
    Augmentation("identity"),
    Augmentation("shear_x", (0.0, 0.3), signed=True),
    Augmentation("shear_y", (0.0, 0.3), signed=True),
    Augmentation("translate_x", (0.0, 100 / 224), signed=True, relative="width"),
    Augmentation("translate_y", (0.0, 100 / 224), signed=True, relative="height"),
    Augmentation("rotate", (0.0, 30.0), signed=True),
    _enhance("brightness", 0.9),
    _enhance("color", 0.9),
    _enhance("contrast", 0.9),
    _enhance("sharpness", 0.9),
    Augmentation("posterize", (8.0, 4.0)),
    Augmentation("solarize", (256.0, 0.0)),
    Augmentation("solarize_add", (0.0, 110.0)),
    Augmentation("equalize"),
    Augmentation("auto_contrast"),
    Augmentation("invert"),
    # Beyond the papers' lists (usable in policies by name): gamma 0.5 .. 1.5, sharpen and
    # emboss alpha 0 .. 0.9 (lightness 0.5 .. 1.5 / strength 0.2 .. 1.2 from the stage's aux),
    # median blur 3 .. 7, motion blur 3 .. 15 (angle from aux), hsv_shift the hue alone by
    # 0 .. 20 of OpenCV's 2-degree steps (the aux numbers, its saturation and value shifts in
    # levels, are below 1 and truncate to 0). tone_curve is not here: its two control points
    # are drawn together (tfgpuaug.augment.random_tone_curve). iso_noise: intensity 0 .. 0.5,
    # the colour shift the stage's second aux number (0 .. 1). clahe: clip limit 1 .. 4 on an
    # 8 x 8 grid (aux numbers below 1 mean the default grid). box_blur: sides 3 .. 7. sepia has no magnitude;
    # salt_and_pepper and pixel_dropout(_per_channel) drop 0 .. 10% of the pixels (bytes), the
    # stream from the first aux number, the salt share or the level from the second (a level
    # below 1: dropped bytes turn black). channel_dropout is not here: its parameter is a set
    # of channels, not a magnitude (tfgpuaug.augment.channel_dropout draws it). shot_noise: scale
    # 0 .. 0.3 (the kernel keeps it at least 1e-4: all but no noise at magnitude 0).
    # uniform_noise: half width 0 .. 25 levels, laplace_noise: scale 0 .. 10 levels, a value a
    # byte, truncated toward zero (AdditiveNoise's rule); their location is the stage's second
    # aux number, below one level here (tfgpuaug.augment.additive_noise sets it exactly).
    # illumination_linear and _corner: intensity 0 .. 0.2 either way, the angle (in turns) or
    # the corner from the first aux number; illumination_gaussian is not here (its centre is a
    # packed number and its width the second: tfgpuaug.augment.illumination draws them).
    Augmentation("gamma", (0.0, 0.5), signed=True, center=1.0),
    Augmentation("sharpen", (0.0, 0.9)),
    Augmentation("emboss", (0.0, 0.9)),
    Augmentation("median_blur", (3.0, 7.0)),
    Augmentation("motion_blur", (3.0, 15.0)),
    Augmentation("hsv_shift", (0.0, 20.0), signed=True),
    Augmentation("iso_noise", (0.0, 0.5)),
    Augmentation("clahe", (1.0, 4.0)),
    Augmentation("box_blur", (3.0, 7.0)),
    Augmentation("sepia"),
    Augmentation("salt_and_pepper", (0.0, 0.1)),
    Augmentation("pixel_dropout", (0.0, 0.1)),
    Augmentation("pixel_dropout_per_channel", (0.0, 0.1)),
    Augmentation("shot_noise", (0.0, 0.3)),
    Augmentation("uniform_noise", (0.0, 25.0)),
    Augmentation("laplace_noise", (0.0, 10.0)),
    Augmentation("illumination_linear", (0.0, 0.2), signed=True),
    Augmentation("illumination_corner", (0.0, 0.2), signed=True),
])

# TrivialAugmentWide's wider ranges.
WIDE = dict(STANDARD)
WIDE.update(_table([
    Augmentation("shear_x", (0.0, 0.99), signed=True),
    Augmentation("shear_y", (0.0, 0.99), signed=True),
    Augmentation("translate_x", (0.0, 32.0), signed=True),
    Augmentation("translate_y", (0.0, 32.0), signed=True),
    Augmentation("rotate", (0.0, 135.0), signed=True),
    Augmentation("brightness", (0.01, 0.99), signed=True, center=1.0),
    Augmentation("color", (0.01, 0.99), signed=True, center=1.0),
    Augmentation("contrast", (0.01, 0.99), signed=True, center=1.0),
    Augmentation("sharpness", (0.01, 0.99), signed=True, center=1.0),
    Augmentation("posterize", (8.0, 2.0)),
]))

# AutoAugment's policies were found with TF's original mappings (TF Model Garden, DALI):
# unsigned enhance factors 0.1..1.9, posterize keeping int(m / 10 * 4) bits, solarize
# threshold 0..256 and translations up to 250 pixels.
AUTO_AUGMENT = dict(STANDARD)
AUTO_AUGMENT.update(_table([
    Augmentation("brightness", (0.1, 1.9)),
    Augmentation("color", (0.1, 1.9)),
    Augmentation("contrast", (0.1, 1.9)),
    Augmentation("sharpness", (0.1, 1.9)),
    Augmentation("posterize", (0.0, 4.0), integer=True),
    Augmentation("solarize", (0.0, 256.0)),
    Augmentation("translate_x", (0.0, 250.0), signed=True),
    Augmentation("translate_y", (0.0, 250.0), signed=True),
]))

# The op lists of RandAugment and TrivialAugmentWide (torchvision's and DALI's suites).
RAND_AUGMENT_OPS = ("identity", "shear_x", "shear_y", "translate_x", "translate_y", "rotate",
                    "brightness", "color", "contrast", "sharpness", "posterize", "solarize",
                    "auto_contrast", "equalize")
TRIVIAL_AUGMENT_OPS = RAND_AUGMENT_OPS

# The pixel-level ops of the Albumentations catalogue that the registry holds (issue 36), and
# the papers' list extended by them: `RandAugment(augmentations=EXTENDED_OPS)` draws from both.
PIXEL_LEVEL_OPS = ("gamma", "sharpen", "emboss", "median_blur", "motion_blur", "hsv_shift", "iso_noise", "clahe",
                   "box_blur", "sepia", "salt_and_pepper", "pixel_dropout", "pixel_dropout_per_channel",
                   "shot_noise", "uniform_noise", "laplace_noise", "illumination_linear", "illumination_corner")
EXTENDED_OPS = RAND_AUGMENT_OPS + PIXEL_LEVEL_OPS


def select(names_or_augs, table: Dict[str, Augmentation]):
    """Augmentations by name from `table`, or given Augmentation objects, in order."""
    out = []
    for item in names_or_augs:
        if isinstance(item, Augmentation):
            out.append(item)
        elif isinstance(item, str):
            if item not in table:
                raise ValueError(f"unknown augmentation {item!r}; known: {', '.join(sorted(table))}")
            out.append(table[item])
        else:
            raise TypeError(f"augmentations are names or Augmentation objects, got {type(item).__name__}")
    if not out:
        raise ValueError("the augmentation list is empty")
    return out
