"""Keras 3 layers wrapping tfgpuaug's transforms, for preprocessing inside models (the
path that exports in a SavedModel). Layers take encoded bytes `tf.string [B]` or uint8
images; random layers act only with `training=True` and are deterministic otherwise.

Saved `.keras` models and SavedModels reload after `import tfgpuaug` (which registers the
layers and the ops).
"""
from __future__ import annotations

from typing import Optional

import keras
import tensorflow as tf

from tfgpuaug import augment as _augment
from tfgpuaug import geometry

_PACKAGE = "tfgpuaug"


class _SeededLayer(keras.layers.Layer):
    """Random layers draw per-call stateless seeds from a Keras SeedGenerator."""

    def __init__(self, seed: Optional[int] = None, **kwargs):
        kwargs.setdefault("autocast", False)
        super().__init__(**kwargs)
        self.seed = seed
        self.seed_generator = keras.random.SeedGenerator(seed)

    def _seed(self) -> tf.Tensor:
        return tf.cast(self.seed_generator.next(), tf.int64)

    def get_config(self):
        return {**super().get_config(), "seed": self.seed}


@keras.saving.register_keras_serializable(package=_PACKAGE)
class RandomResizedCrop(_SeededLayer):
    """Training: Inception-style random-resized-crop (fused decode when given bytes).
    Inference: the matching evaluation crop, shorter side to size*256/224, centre `size`."""

    def __init__(self, size: int, scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3), method="bilinear",
                 antialias=True, seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.size, self.scale, self.ratio = int(size), tuple(scale), tuple(ratio)
        self.method, self.antialias = method, bool(antialias)
        geometry._checks.one_of("method", method, geometry.METHODS)

    def call(self, inputs, training=False):
        if training:
            return geometry.random_resized_crop(inputs, self.size, self.scale, self.ratio,
                                                seed=self._seed(), method=self.method,
                                                antialias=self.antialias)
        return geometry.resize_center_crop(inputs, round(self.size * 256 / 224), self.size,
                                           self.method, self.antialias)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.size, self.size, 3)

    def get_config(self):
        return {**super().get_config(), "size": self.size, "scale": self.scale, "ratio": self.ratio,
                "method": self.method, "antialias": self.antialias}


@keras.saving.register_keras_serializable(package=_PACKAGE)
class ResizeCenterCrop(keras.layers.Layer):
    """Resize the shorter side to `resize_shorter`, take the centred `crop` (deterministic)."""

    def __init__(self, resize_shorter: int = 256, crop: int = 224, method="bilinear",
                 antialias=True, **kwargs):
        kwargs.setdefault("autocast", False)
        super().__init__(**kwargs)
        self.resize_shorter, self.crop = int(resize_shorter), int(crop)
        self.method, self.antialias = method, bool(antialias)

    def call(self, inputs):
        return geometry.resize_center_crop(inputs, self.resize_shorter, self.crop, self.method,
                                           self.antialias)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.crop, self.crop, 3)

    def get_config(self):
        return {**super().get_config(), "resize_shorter": self.resize_shorter, "crop": self.crop,
                "method": self.method, "antialias": self.antialias}


@keras.saving.register_keras_serializable(package=_PACKAGE)
class CropMirrorNormalize(_SeededLayer):
    """(x - mean) / std to float32; horizontal flips with probability `mirror` in training."""

    def __init__(self, mean=geometry.IMAGENET_MEAN, std=geometry.IMAGENET_STD, mirror: float = 0.0,
                 seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.mean, self.std = tuple(float(m) for m in mean), tuple(float(s) for s in std)
        if not 0.0 <= mirror <= 1.0:
            raise ValueError(f"mirror probability must be in [0, 1], got {mirror}")
        self.mirror = float(mirror)

    def call(self, inputs, training=False):
        flags = None
        if training and self.mirror > 0:
            flags = tf.random.stateless_uniform([tf.shape(inputs)[0]], self._seed()) < self.mirror
        return geometry.crop_mirror_normalize(inputs, self.mean, self.std, mirror=flags)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "mean": self.mean, "std": self.std, "mirror": self.mirror}


class _PolicyLayer(_SeededLayer):
    def __init__(self, fill_value=128.0, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(seed, **kwargs)
        self.fill_value, self.interpolation = float(fill_value), interpolation

    def call(self, inputs, training=False):
        return self._apply(inputs, self._seed()) if training else inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "fill_value": self.fill_value,
                "interpolation": self.interpolation}


@keras.saving.register_keras_serializable(package=_PACKAGE)
class RandAugment(_PolicyLayer):
    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31, **kwargs):
        super().__init__(**kwargs)
        self.num_ops, self.magnitude, self.num_magnitude_bins = num_ops, magnitude, num_magnitude_bins
        if num_ops < 0 or not 0 <= magnitude < num_magnitude_bins:
            raise ValueError(f"need num_ops >= 0 and 0 <= magnitude < {num_magnitude_bins}")

    def _apply(self, x, seed):
        return _augment.rand_augment(x, self.num_ops, self.magnitude, self.num_magnitude_bins,
                                     seed=seed, fill_value=self.fill_value,
                                     interpolation=self.interpolation)

    def get_config(self):
        return {**super().get_config(), "num_ops": self.num_ops, "magnitude": self.magnitude,
                "num_magnitude_bins": self.num_magnitude_bins}


@keras.saving.register_keras_serializable(package=_PACKAGE)
class TrivialAugment(_PolicyLayer):
    def __init__(self, num_magnitude_bins: int = 31, **kwargs):
        super().__init__(**kwargs)
        self.num_magnitude_bins = num_magnitude_bins

    def _apply(self, x, seed):
        return _augment.trivial_augment(x, self.num_magnitude_bins, seed=seed,
                                        fill_value=self.fill_value, interpolation=self.interpolation)

    def get_config(self):
        return {**super().get_config(), "num_magnitude_bins": self.num_magnitude_bins}


@keras.saving.register_keras_serializable(package=_PACKAGE)
class AutoAugment(_PolicyLayer):
    def __init__(self, policy: str = "imagenet", **kwargs):
        super().__init__(**kwargs)
        from tfgpuaug.augment.auto_augment_policies import POLICIES
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; known: {', '.join(sorted(POLICIES))}")
        self.policy = policy

    def _apply(self, x, seed):
        return _augment.auto_augment(x, self.policy, seed=seed, fill_value=self.fill_value,
                                     interpolation=self.interpolation)

    def get_config(self):
        return {**super().get_config(), "policy": self.policy}
