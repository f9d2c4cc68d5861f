"""AugMix (Hendrycks et al. 2020) with torchvision's semantics, per sample.

Each sample mixes `mixture_width` chains of 1 to 3 operations (or `chain_depth`) drawn from
torchvision's AugMix space, each at a magnitude bin in [0, severity) of 10 (signed ops flip
sign with even odds): `mix = m0 * image + sum_i w_i * chain_i`, with `(m0, m1)` drawn from a
Dirichlet(alpha, alpha) (a Beta) and the chain weights `w` from a Dirichlet(alpha, ...) scaled
by `m1`, then truncated to uint8 as torch's `.to(torch.uint8)` does. Every chain is one pass
of the fused augment kernel (PIL's definitions of the ops, as torchvision's PIL path).
"""
from __future__ import annotations

import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.registry import Augmentation

NUM_BINS = 10  # torchvision's AugMix magnitude scale


def _enhance(name: str) -> Augmentation:
    return Augmentation(name, (0.0, 0.9), signed=True, center=1.0)


# torchvision's AugMix space (all_ops=True adds the four enhance ops): posterize 4 -> 0 bits,
# rounded (floor of value + 0.5), solarize 255 -> 0, translations up to a third of the image.
AUGMIX_OPS = (
    Augmentation("shear_x", (0.0, 0.3), signed=True),
    Augmentation("shear_y", (0.0, 0.3), signed=True),
    Augmentation("translate_x", (0.0, 1.0 / 3.0), signed=True, relative="width"),
    Augmentation("translate_y", (0.0, 1.0 / 3.0), signed=True, relative="height"),
    Augmentation("rotate", (0.0, 30.0), signed=True),
    Augmentation("posterize", (4.5, 0.5), integer=True),
    Augmentation("solarize", (255.0, 0.0)),
    Augmentation("auto_contrast"),
    Augmentation("equalize"),
)
AUGMIX_ALL_OPS = AUGMIX_OPS + (_enhance("brightness"), _enhance("color"), _enhance("contrast"),
                               _enhance("sharpness"))


def check_augmix_args(severity: int, mixture_width: int, chain_depth: int, alpha: float) -> None:
    if not 1 <= severity <= NUM_BINS:
        raise ValueError(f"severity must be in [1, {NUM_BINS}], got {severity}")
    if mixture_width < 1:
        raise ValueError(f"mixture_width must be >= 1, got {mixture_width}")
    if chain_depth == 0 or chain_depth < -1 or chain_depth > 3:
        raise ValueError(f"chain_depth must be -1 (1 to 3 at random) or 1..3, got {chain_depth}")
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0, got {alpha}")


def _dirichlet(n, k: int, alpha: float, seed) -> tf.Tensor:
    g = tf.random.stateless_gamma([n, k], seed, alpha=alpha)
    return g / tf.reduce_sum(g, axis=1, keepdims=True)


def augmix(images: Images, severity: int = 3, mixture_width: int = 3, chain_depth: int = -1, alpha: float = 1.0,
           all_ops: bool = True, fill_value: float = 0.0, interpolation: str = "bilinear",
           seed: Seed = None) -> tf.Tensor:
    """AugMix per sample (see the module) on uint8 `[B, H, W, C]`.

    Args:
      images: uint8 `[B, H, W, C]`.
      severity: magnitude bins drawn in [0, severity) of 10.
      mixture_width: chains mixed.
      chain_depth: operations per chain, or -1 for 1 to 3 per chain and sample.
      alpha: the Dirichlet and Beta concentration.
      all_ops: include brightness, color, contrast and sharpness (torchvision's default).
      fill_value: the value of pixels a geometric op moves in (torchvision's None: 0).
      interpolation: "bilinear" or "nearest" for the geometric ops.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    from tfgpuaug.augment import ops as aug_ops
    from tfgpuaug.augment.policies import run_choices
    from tfgpuaug.geometry import _seed_tensor

    check_augmix_args(severity, mixture_width, chain_depth, alpha)
    images = aug_ops.check_images(images)
    n = tf.shape(images)[0]
    augs = list(AUGMIX_ALL_OPS if all_ops else AUGMIX_OPS)
    seeds = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2 + 4 * mixture_width))
    m = _dirichlet(n, 2, alpha, seeds[0])
    weights = _dirichlet(n, mixture_width, alpha, seeds[1]) * m[:, 1:2]
    x = tf.cast(images, tf.float32)
    mix = m[:, 0, None, None, None] * x
    for i in range(mixture_width):
        s_choice, s_bins, s_depth, s_run = seeds[2 + 4 * i: 6 + 4 * i]
        choice = tf.random.stateless_uniform([n, 3], s_choice, 0, len(augs), dtype=tf.int32)
        bins = tf.random.stateless_uniform([n, 3], s_bins, 0, severity, dtype=tf.int32)
        if chain_depth > 0:
            depth = tf.fill([n], chain_depth)
        else:
            depth = tf.random.stateless_uniform([n], s_depth, 1, 4, dtype=tf.int32)
        applied = tf.range(3)[None, :] < depth[:, None]
        chain = run_choices(images, augs, choice, bins, NUM_BINS, s_run, fill_value, interpolation, applied)
        mix += weights[:, i, None, None, None] * tf.cast(chain, tf.float32)
    return tf.cast(tf.clip_by_value(mix, 0.0, 255.0), tf.uint8)  # truncates, as torch's .to(uint8)
