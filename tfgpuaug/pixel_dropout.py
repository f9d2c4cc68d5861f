"""Pixels replaced by a value, per sample in the graph: Albumentations' PixelDropout (pixels or
single channels, each with a small probability; the masks' pixels at the same places can take a
value too), ChannelDropout (whole channels) and SaltAndPepper (pixels to 255 or 0)."""
from __future__ import annotations

from typing import Optional, Sequence, Union

import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed
from tfgpuaug.transforms import TransformInput, TransformOutput, _PerSample

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
        if not 0.0 <= dropout_prob <= 1.0:
            raise ValueError(f"dropout_prob must be in [0, 1], got {dropout_prob}")
        super().__init__(probability, seed)
        self.dropout_prob, self.per_channel = float(dropout_prob), bool(per_channel)
        self.drop_value = _values("drop_value", drop_value)
        self.mask_drop_value = _values("mask_drop_value", mask_drop_value)

    @property
    def moves_targets(self) -> bool:
        """Only the masks change, and only with `mask_drop_value`."""
        return self.mask_drop_value is not None

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        images = self._dense_uint8(images)
        channels = images.shape[-1]
        if self.drop_value is not None and len(self.drop_value) > 1 and channels not in (None,
                                                                                         len(self.drop_value)):
            raise ValueError(f"drop_value has {len(self.drop_value)} levels for {channels}-channel images")
        s_drop, s_value, s_apply = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 3))
        shape = tf.shape(images)
        per = shape if self.per_channel else tf.concat([shape[:3], [1]], 0)
        applied = tf.random.stateless_uniform(shape[:1], s_apply) < self.probability
        drop = (tf.random.stateless_uniform(per, s_drop) < self.dropout_prob) & applied[:, None, None, None]
        if self.drop_value is None:
            value = tf.random.stateless_uniform(shape, s_value, 0, 256, tf.int32)
        else:
            value = tf.round(tf.constant(self.drop_value, tf.float32))
        out = tf.where(drop, tf.cast(value, tf.uint8), images)
        if targets is None or self.mask_drop_value is None or targets.masks is None:
            return out, targets
        masks = targets.masks
        if geometry._is_encoded(masks) or isinstance(masks, tf.RaggedTensor):
            raise ValueError("PixelDropout's mask_drop_value needs dense masks [B, H, W, K]")
        dropped = tf.reduce_any(drop, axis=-1, keepdims=True)
        fill = tf.cast(tf.round(tf.constant(self.mask_drop_value, tf.float32)), masks.dtype)
        return out, targets.replace(masks=tf.where(dropped, fill, masks))

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
        channel count (checked when the count is known at graph construction).
      fill: the level dropped channels take, in [0, 255].
      probability: probability that a sample loses channels.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    moves_targets = False

    def __init__(self, channel_drop_range: Sequence[int] = (1, 1), fill: float = 0.0, probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(probability, seed)
        lo, hi = (int(v) for v in channel_drop_range)
        if not 1 <= lo <= hi:
            raise ValueError(f"channel_drop_range must be (min, max) with 1 <= min <= max, got {channel_drop_range}")
        if not 0.0 <= fill <= 255.0:
            raise ValueError(f"fill must be a level in [0, 255], got {fill}")
        self.channel_drop_range, self.fill = (lo, hi), float(fill)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        images = self._dense_uint8(images)
        channels = images.shape[-1]
        if channels is not None and self.channel_drop_range[1] >= channels:
            raise ValueError(f"ChannelDropout would drop up to {self.channel_drop_range[1]} of {channels} channels: "
                             "at least one must stay (channel_drop_range's max below the channel count)")
        s_count, s_pick, s_apply = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 3))
        n, c = tf.shape(images)[0], tf.shape(images)[3]
        lo, hi = self.channel_drop_range
        count = tf.random.stateless_uniform([n], s_count, lo, hi + 1, tf.int32)
        # channels in a uniform random order per sample: the first `count` of it are dropped
        rank = tf.argsort(tf.argsort(tf.random.stateless_uniform(tf.stack([n, c]), s_pick), axis=1), axis=1)
        applied = tf.random.stateless_uniform([n], s_apply) < self.probability
        drop = (rank < count[:, None]) & applied[:, None]
        fill = tf.constant(round(self.fill), tf.uint8)
        return tf.where(drop[:, None, None, :], fill, images), targets

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
        for name, r in (("amount", amount), ("salt_vs_pepper", salt_vs_pepper)):
            if len(tuple(r)) != 2 or not 0.0 <= r[0] <= r[1] <= 1.0:
                raise ValueError(f"{name} must be (min, max) with 0 <= min <= max <= 1, got {r}")
        self.amount = tuple(float(v) for v in amount)
        self.salt_vs_pepper = tuple(float(v) for v in salt_vs_pepper)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        images = self._dense_uint8(images)
        seeds = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 5))
        shape = tf.shape(images)
        n = shape[:1]
        amount = tf.random.stateless_uniform(n, seeds[0], *self.amount)
        salt_ratio = tf.random.stateless_uniform(n, seeds[1], *self.salt_vs_pepper)
        applied = tf.random.stateless_uniform(n, seeds[2]) < self.probability
        pixels = tf.concat([shape[:3], [1]], 0)
        noisy = (tf.random.stateless_uniform(pixels, seeds[3]) < amount[:, None, None, None]) & \
            applied[:, None, None, None]
        salt = tf.random.stateless_uniform(pixels, seeds[4]) < salt_ratio[:, None, None, None]
        value = tf.where(salt, tf.constant(255, tf.uint8), tf.constant(0, tf.uint8))
        return tf.where(noisy, value, images), targets

    def get_config(self) -> dict:
        return dict(amount=self.amount, salt_vs_pepper=self.salt_vs_pepper, probability=self.probability,
                    seed=self.seed)
