"""Pixels replaced by a value, per sample, as stages of the fused augment kernel
(`tfgpuaug.augment.dropouts`): Albumentations' PixelDropout (pixels or single channels, each with
a small probability; the masks' pixels at the same places can take a value too), ChannelDropout
(whole channels) and SaltAndPepper (pixels to 255 or 0)."""
from __future__ import annotations

from typing import Optional, Sequence, Union

import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug.augment.dropouts import (channel_dropout, check_channel_dropout_args, check_pixel_dropout_args,
                                       check_salt_and_pepper_args, pixel_dropout_plan, salt_and_pepper)
from tfgpuaug.augment.ops import apply_stages
from tfgpuaug.transforms import TransformOutput, _PerSample

Value = Union[float, Sequence[float], None]


def _values(name: str, value: Value) -> Optional[tuple]:
    if value is None:
        return None
    values = tuple(float(v) for v in value) if isinstance(value, (list, tuple)) else (float(value),)
    if not values or any(not 0.0 <= v <= 255.0 for v in values):
        raise ValueError(f"{name} must be a level in [0, 255], one per channel, or None, got {value!r}")
    return values


class PixelDropout(_PerSample):
    """Albumentations' PixelDropout: in a sample chosen with probability `probability`, each
    pixel is replaced by `drop_value` with probability `dropout_prob` (each channel on its own
    with `per_channel`). Where `mask_drop_value` is set, the masks take it at the dropped pixels
    (the same pixels: Albumentations 2.0.8 draws the mask's pixels apart from the image's);
    boxes and keypoints pass through. Inference leaves everything alone.

    Args:
      dropout_prob: probability that a pixel (or a channel of it) is dropped, in [0, 1].
      per_channel: drop each channel of a pixel on its own.
      drop_value: the level dropped pixels take: one number, one per channel, or None for a
        uniform random level per dropped value.
      mask_drop_value: the value masks take at the dropped pixels (one number, or one per mask
        channel); None leaves masks alone.
      probability: probability that a sample gets dropout at all.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    accepts_float = False

    def __init__(self, dropout_prob: float = 0.01, per_channel: bool = False, drop_value: Value = 0.0,
                 mask_drop_value: Value = None, probability: float = 0.5, seed: Optional[int] = None):
        check_pixel_dropout_args(dropout_prob, probability)
        super().__init__(probability, seed)
        self.dropout_prob, self.per_channel = float(dropout_prob), bool(per_channel)
        self.drop_value = _values("drop_value", drop_value)
        self.mask_drop_value = _values("mask_drop_value", mask_drop_value)

    @property
    def moves_targets(self) -> bool:
        """Only the masks change, and only with `mask_drop_value`."""
        return self.mask_drop_value is not None

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        channels = images.shape[-1]
        if self.drop_value is not None and len(self.drop_value) > 1 and channels not in (None,
                                                                                         len(self.drop_value)):
            raise ValueError(f"drop_value has {len(self.drop_value)} levels for {channels}-channel images")
        n = tf.shape(images)[0]
        single = self.drop_value is None or len(self.drop_value) == 1
        level = -1.0 if self.drop_value is None else self.drop_value[0]
        plan = pixel_dropout_plan(n, self.dropout_prob, self.per_channel, level, self.probability, seed)
        out = apply_stages(images, *plan) if single else None
        masks = None if targets is None or self.mask_drop_value is None else targets.masks
        if out is not None and masks is None:
            return out, targets
        dropped = self._dropped(images, plan)
        if out is None:  # one level per channel: the kernel finds the places, a select fills them
            out = tf.where(dropped, tf.constant([round(v) for v in self.drop_value], tf.uint8), images)
        if masks is None:
            return out, targets
        if geometry._is_encoded(masks) or isinstance(masks, tf.RaggedTensor):
            raise ValueError("PixelDropout's mask_drop_value needs dense masks [B, H, W, K]")
        fill = tf.cast(tf.round(tf.constant(self.mask_drop_value, tf.float32)), masks.dtype)
        return out, targets.replace(masks=tf.where(tf.reduce_any(dropped, axis=-1, keepdims=True), fill, masks))

    def _dropped(self, images: tf.Tensor, plan) -> tf.Tensor:
        """Where the plan drops bytes of `images`: the same stages on ones, with level 0. A
        pixel's draw does not depend on the channel count (augment.h), so per-pixel dropout
        needs one channel; per-channel dropout, the images' own."""
        shape = tf.shape(images)
        probe = tf.ones(tf.concat([shape[:3], shape[3:] if self.per_channel else [1]], 0), tf.uint8)
        op_ids, params, aux = plan
        level_zero = tf.concat([aux[..., :1], tf.zeros_like(aux[..., 1:])], -1)
        return tf.equal(apply_stages(probe, op_ids, params, level_zero), 0)

    def get_config(self) -> dict:
        return dict(dropout_prob=self.dropout_prob, per_channel=self.per_channel,
                    drop_value=None if self.drop_value is None else list(self.drop_value),
                    mask_drop_value=None if self.mask_drop_value is None else list(self.mask_drop_value),
                    probability=self.probability, seed=self.seed)


class ChannelDropout(_PerSample):
    """Albumentations' ChannelDropout: in a sample chosen with probability `probability`, k of
    its channels (k uniform in `channel_drop_range`, the channels drawn uniformly without
    replacement) take the level `fill`. Annotations pass through; inference leaves images alone.

    Args:
      channel_drop_range: (min, max) channels dropped, 1 <= min <= max, max below the images'
        channel count (checked at graph construction when the count is static, else when the
        batch runs). Images have 1, 3 or 4 channels, as every stage of the augment kernel.
      fill: the level dropped channels take, in [0, 255].
      probability: probability that a sample loses channels.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    moves_targets = False

    def __init__(self, channel_drop_range: Sequence[int] = (1, 1), fill: float = 0.0, probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.channel_drop_range = check_channel_dropout_args(channel_drop_range, fill, probability)
        self.fill = float(fill)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return channel_dropout(images, self.channel_drop_range, self.fill, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(channel_drop_range=self.channel_drop_range, fill=self.fill, probability=self.probability,
                    seed=self.seed)


class SaltAndPepper(_PerSample):
    """Albumentations' SaltAndPepper: in a sample chosen with probability `probability`, with
    `amount` and `salt_ratio` drawn uniformly from their ranges per sample, each pixel becomes
    noise with probability `amount`, and a noisy pixel is salt (255 in every channel) with
    probability `salt_ratio`, else pepper (0). Albumentations picks exactly int(H W amount)
    pixels; here the count is binomial around it (one uniform a pixel instead of a sort).
    Annotations pass through; inference leaves images alone.

    Args:
      amount: (min, max) share of the pixels that become noise, within [0, 1].
      salt_vs_pepper: (min, max) share of the noisy pixels that are salt, within [0, 1].
      probability: probability that a sample gets noise.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    moves_targets = False

    def __init__(self, amount: Sequence[float] = (0.01, 0.06), salt_vs_pepper: Sequence[float] = (0.4, 0.6),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        check_salt_and_pepper_args(amount, salt_vs_pepper, probability)
        self.amount = tuple(float(v) for v in amount)
        self.salt_vs_pepper = tuple(float(v) for v in salt_vs_pepper)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return salt_and_pepper(images, self.amount, self.salt_vs_pepper, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(amount=self.amount, salt_vs_pepper=self.salt_vs_pepper, probability=self.probability,
                    seed=self.seed)
