"""AutoAugment, RandAugment and TrivialAugment as batched policies: per-sample op and
magnitude choices drawn with stateless RNG, executed by the fused augment kernel (one pass
per stage over the whole batch), with custom TF-op augmentations run on the samples that
chose them."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug.augment import ops as aug_ops
from tfgpuaug.augment import registry
from tfgpuaug.augment.auto_augment_policies import POLICIES
from tfgpuaug.geometry import _seed_tensor
from tfgpuaug._types import Images, Seed

# The augmented images, or (images, plan) with return_plan=True.
ImagesOrPlan = Union[tf.Tensor, Tuple[tf.Tensor, dict]]


def _split(seed, n):
    return tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), n))


class _ParameterTable:
    """The augmentations as columns, so each sample's op id and parameter come from a gather
    by its choice: one set of graph ops for any number of augmentations (not one tf.where pair
    per augmentation). The formula is `Augmentation.parameter`'s, element for element."""

    def __init__(self, augs):
        col = lambda f, dtype=tf.float32: tf.constant([f(a) for a in augs], dtype)
        self.op_id = col(lambda a: a.op_id if a.op_id is not None else 0, tf.int32)
        self.low = col(lambda a: a.magnitude_range[0])
        self.span = col(lambda a: a.magnitude_range[1] - a.magnitude_range[0])
        self.center = col(lambda a: a.center)
        self.signed = col(lambda a: a.signed, tf.bool)
        self.width = col(lambda a: a.relative == "width", tf.bool)
        self.height = col(lambda a: a.relative == "height", tf.bool)
        self.integer = col(lambda a: a.integer, tf.bool)

    def lookup(self, choice, bins, num_bins, negate, height, width):
        at = lambda column: tf.gather(column, choice)
        value = at(self.low) + at(self.span) * (bins / float(max(num_bins - 1, 1)))
        value = tf.where(at(self.signed) & negate, -value, value)
        value = tf.where(at(self.width), value * width, tf.where(at(self.height), value * height, value))
        value = tf.where(at(self.integer), tf.floor(value), value)
        return at(self.op_id), value + at(self.center)


def run_choices(images, augs, choice, bins, num_bins, seed, fill_value=128.0,
                interpolation="bilinear", apply_mask=None, return_plan=False):
    """Applies, per sample i and stage k, augmentation augs[choice[i, k]] at magnitude
    bins[i, k] (skipped where apply_mask[i, k] is False). With `return_plan`, also returns
    the kernel's op ids and parameters `[B, K]` (custom augmentations show as -1)."""
    images = aug_ops.check_images(images)
    s_sign, s_aux = _split(seed, 2)
    negate = tf.random.stateless_uniform(tf.shape(choice), s_sign) < 0.5
    aux = tf.random.stateless_uniform(tf.concat([tf.shape(choice), [2]], 0), s_aux)
    dims = tf.cast(tf.shape(images)[1:3], tf.float32)
    table = _ParameterTable(augs)
    op_ids, params = table.lookup(choice, tf.cast(bins, tf.float32), num_bins, negate, dims[0], dims[1])
    if apply_mask is not None:  # skipped stages: identity (id 0) with parameter 0
        op_ids = tf.where(apply_mask, op_ids, 0)
        params = tf.where(apply_mask, params, 0.0)
    custom = [(j, a) for j, a in enumerate(augs) if a.fn is not None]
    out = _apply_plan(images, custom, choice, op_ids, params, aux, fill_value,
                      interpolation, apply_mask)
    if not return_plan:
        return out
    for j, _ in custom:  # custom augmentations show as -1 in the plan
        chosen = tf.equal(choice, j) if apply_mask is None else tf.equal(choice, j) & apply_mask
        op_ids = tf.where(chosen, -1, op_ids)
    return out, op_ids, params


def _apply_plan(images, custom, choice, op_ids, params, aux, fill_value, interpolation,
                apply_mask):
    if not custom:  # every stage in one kernel call
        return aug_ops.apply_stages(images, op_ids, params, aux, fill_value, interpolation)
    stages = choice.shape[1]
    if stages is None:
        raise ValueError("custom augmentations need a static number of stages")
    for stage in range(stages):
        images = aug_ops.apply_stages(images, op_ids[:, stage:stage + 1], params[:, stage:stage + 1],
                                      aux[:, stage:stage + 1], fill_value, interpolation)
        for j, a in custom:
            mask = tf.equal(choice[:, stage], j)
            if apply_mask is not None:
                mask &= apply_mask[:, stage]
            idx = tf.where(mask)
            sub = tf.gather_nd(images, idx)
            out = tf.cast(a.fn(sub, tf.gather_nd(params[:, stage], idx)), tf.uint8)
            images = tf.tensor_scatter_nd_update(images, idx, out)
    return images


def check_rand_augment_args(num_ops: int, magnitude: int, num_magnitude_bins: int) -> None:
    """RandAugment's argument check, shared by the function, the transform and the layer."""
    if num_ops < 0:
        raise ValueError(f"num_ops must be >= 0, got {num_ops}")
    if num_magnitude_bins < 2 or not 0 <= magnitude < num_magnitude_bins:
        raise ValueError(f"magnitude must be in [0, {num_magnitude_bins - 1}] "
                         f"(num_magnitude_bins={num_magnitude_bins}), got {magnitude}")


def rand_augment(images: Images, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31,
                 monotonic_mag: bool = True, augmentations: Optional[Sequence] = None, seed: Seed = None,
                 fill_value: float = 128.0, interpolation: str = "bilinear",
                 return_plan: bool = False) -> ImagesOrPlan:
    """RandAugment: each sample gets `num_ops` ops chosen uniformly, all at `magnitude`.

    `monotonic_mag=False` uses the original implementations' posterize and solarize mappings,
    which weaken as the magnitude grows (bits 4..8, threshold 0..256).

    Args:
      images: uint8 `[B, H, W, C]`.
      num_ops: ops per sample.
      magnitude: strength in [0, num_magnitude_bins).
      num_magnitude_bins: the magnitude scale's size.
      monotonic_mag: posterize and solarize strengthen with the magnitude.
      augmentations: the op names to choose from (None: the standard list).
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      fill_value: the value of pixels a geometric op moves in from outside the image.
      interpolation: "bilinear" or "nearest" for the geometric ops.
      return_plan: also return what each sample drew (see Returns).
    """
    check_rand_augment_args(num_ops, magnitude, num_magnitude_bins)
    table = dict(registry.STANDARD)
    if not monotonic_mag:
        table["posterize"] = table["posterize"].with_range(4, 8)
        table["solarize"] = table["solarize"].with_range(0, 256)
    augs = registry.select(augmentations or registry.RAND_AUGMENT_OPS, table)
    images = aug_ops.check_images(images)
    if num_ops == 0:
        empty = tf.zeros([tf.shape(images)[0], 0])
        return (images, tf.cast(empty, tf.int32), empty) if return_plan else images
    s_choice, s_run = _split(seed, 2)
    n = tf.shape(images)[0]
    choice = tf.random.stateless_uniform([n, num_ops], s_choice, 0, len(augs), tf.int32)
    bins = tf.fill([n, num_ops], float(magnitude))
    return run_choices(images, augs, choice, bins, num_magnitude_bins, s_run, fill_value,
                       interpolation, return_plan=return_plan)


def trivial_augment(images: Images, num_magnitude_bins: int = 31, augmentations: Optional[Sequence] = None,
                    seed: Seed = None, fill_value: float = 128.0, interpolation: str = "bilinear",
                    return_plan: bool = False) -> ImagesOrPlan:
    """TrivialAugmentWide: one op per sample, uniformly chosen, at a uniform magnitude bin.

    Args:
      images: uint8 `[B, H, W, C]`.
      num_magnitude_bins: the magnitude scale's size.
      augmentations: the op names to choose from (None: the wide list).
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      fill_value: the value of pixels a geometric op moves in from outside the image.
      interpolation: "bilinear" or "nearest" for the geometric ops.
      return_plan: also return what each sample drew (see Returns).
    """
    if num_magnitude_bins < 2:
        raise ValueError(f"num_magnitude_bins must be >= 2, got {num_magnitude_bins}")
    augs = registry.select(augmentations or registry.TRIVIAL_AUGMENT_OPS, registry.WIDE)
    images = aug_ops.check_images(images)
    s_choice, s_bins, s_run = _split(seed, 3)
    n = tf.shape(images)[0]
    choice = tf.random.stateless_uniform([n, 1], s_choice, 0, len(augs), tf.int32)
    bins = tf.random.stateless_uniform([n, 1], s_bins, 0, num_magnitude_bins, tf.int32)
    return run_choices(images, augs, choice, bins, num_magnitude_bins, s_run, fill_value,
                       interpolation, return_plan=return_plan)


AUTO_AUGMENT_BINS = 11  # magnitudes 0..10, as the AutoAugment paper's policies


def auto_augment(images: Images, policy: str = "imagenet", seed: Seed = None, fill_value: float = 128.0,
                 interpolation: str = "bilinear", return_plan: bool = False) -> ImagesOrPlan:
    """AutoAugment: each sample draws one sub-policy; each of its ops applies with its
    probability at its magnitude (11 bins).

    Args:
      images: uint8 `[B, H, W, C]`.
      policy: the policy's name (`auto_augment_policies.POLICIES`).
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      fill_value: the value of pixels a geometric op moves in from outside the image.
      interpolation: "bilinear" or "nearest" for the geometric ops.
      return_plan: also return what each sample drew (see Returns).
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; known: {', '.join(sorted(POLICIES))}")
    subs = POLICIES[policy]
    names = sorted({name for sub in subs for name, _, _ in sub})
    augs = registry.select(names, registry.AUTO_AUGMENT)
    index = {name: j for j, name in enumerate(names)}
    sub_ops = tf.constant([[index[name] for name, _, _ in sub] for sub in subs], tf.int32)
    sub_probs = tf.constant([[p for _, p, _ in sub] for sub in subs], tf.float32)
    sub_mags = tf.constant([[m or 0 for _, _, m in sub] for sub in subs], tf.float32)
    images = aug_ops.check_images(images)
    s_pick, s_apply, s_run = _split(seed, 3)
    n = tf.shape(images)[0]
    pick = tf.random.stateless_uniform([n], s_pick, 0, len(subs), tf.int32)
    choice = tf.gather(sub_ops, pick)
    apply = tf.random.stateless_uniform(tf.shape(choice), s_apply) < tf.gather(sub_probs, pick)
    return run_choices(images, augs, choice, tf.gather(sub_mags, pick), AUTO_AUGMENT_BINS, s_run,
                       fill_value, interpolation, apply_mask=apply, return_plan=return_plan)
