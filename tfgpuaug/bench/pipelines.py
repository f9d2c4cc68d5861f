"""The pipelines the harness always has (tfgpuaug and plain tf.data + tf.image), as makers:
each takes the round's seed and returns a tf.data dataset of batches (repeated), so they are
timed the same way and every round draws new crops and augmentations (tf.image's and the
anchors' stateful RNG redraws anyway).

train: random-resized-crop 224 + random flip + normalize to float32.
eval: resize the shorter side to 256, centre crop 224, normalize.
randaugment: train with RandAugment(2, 9) between the crop and the normalisation.

Other libraries' pipelines (TF Model Garden, Keras 3, DALI) are anchors outside the package:
`--anchors benchmarks/anchors` in a source checkout.
"""
from __future__ import annotations

from typing import Callable, Dict

import tensorflow as tf

import tfgpuaug as tga

AUTOTUNE = tf.data.AUTOTUNE
Maker = Callable[[int], tf.data.Dataset]
FULL_SCALE = "tfgpuaug, full-scale decode (max_dct_denom=1)"
FLOOR = "floor: crop decode alone"


class Inputs:
    """The benchmark's images: encoded bytes and their paths."""

    def __init__(self, blobs: list[bytes], files: list[str], batch: int, size: int = 224):
        self.blobs, self.files = tf.constant(blobs), files
        self.batch, self.size = batch, size
        self.mean, self.std = tf.constant(tga.IMAGENET_MEAN), tf.constant(tga.IMAGENET_STD)

    def images(self) -> tf.data.Dataset:
        return tf.data.Dataset.from_tensor_slices(self.blobs).repeat()

    def batches(self) -> tf.data.Dataset:
        return self.images().batch(self.batch, drop_remainder=True)

    def per_image(self, fn) -> tf.data.Dataset:
        """tf.data's idiom: a parallel per-image map, then batch."""
        ds = self.images().map(fn, num_parallel_calls=AUTOTUNE)
        return ds.batch(self.batch, drop_remainder=True).prefetch(AUTOTUNE)


def tf_random_crop_uint8(x: tf.Tensor, size: int) -> tf.Tensor:
    """tf.image's Inception crop: decode_and_crop_jpeg on sample_distorted_bounding_box,
    resize, random flip (float32 in [0, 255])."""
    shape = tf.io.extract_jpeg_shape(x)
    begin, box, _ = tf.image.sample_distorted_bounding_box(
        shape, tf.zeros([0, 0, 4]), min_object_covered=0.0, aspect_ratio_range=(3 / 4, 4 / 3),
        area_range=(0.08, 1.0), max_attempts=10, use_image_if_no_bounding_boxes=True)
    img = tf.io.decode_and_crop_jpeg(x, tf.stack([begin[0], begin[1], box[0], box[1]]), channels=3)
    img = tf.image.resize(img, [size, size])
    return tf.image.random_flip_left_right(img)


def train(inp: Inputs) -> Dict[str, Maker]:
    def tf_image(seed):
        return inp.per_image(lambda x: (tf_random_crop_uint8(x, inp.size) - inp.mean) / inp.std)

    crop = tga.RandomResizedCrop(inp.size)

    def ours(seed, max_dct_denom=2):  # decode, crop, resize, flip, normalize: one pass per image
        first = tga.RandomResizedCrop(inp.size, max_dct_denom=max_dct_denom)
        return inp.batches().apply(tga.gpu_augment(
            [first, tga.CropMirrorNormalize(mirror=0.5)], seed=seed))

    def floor(seed):  # decoding the crops `ours` decodes, at full scale, nothing after it
        def crops_alone(contents, seed):
            # Compose hands its first transform fold_in(seed, 0): the same boxes as ours.
            boxes = tga.random_crop_boxes(tga.image_shape(contents)[:, :2], crop.scale, crop.ratio,
                                          seed=tf.random.experimental.stateless_fold_in(seed, 0))
            return tga.decode_image(contents, crop_window=tf.cast(boxes, tf.int32)).flat_values[:1]
        return inp.batches().apply(tga.gpu_augment(crops_alone, seed=seed, prefetch=AUTOTUNE,
                                                   num_parallel_calls=AUTOTUNE))

    # The floor decodes every box at full scale; tfgpuaug's default decodes large boxes at half
    # DCT scale. The full-scale row is the one to read against the floor.
    return {"tf.data + tf.image": tf_image, "tfgpuaug": ours,
            FULL_SCALE: lambda seed: ours(seed, max_dct_denom=1), FLOOR: floor}


def evaluation(inp: Inputs) -> Dict[str, Maker]:
    def tf_image(seed):
        def one(x):
            img = tf.io.decode_jpeg(x, channels=3)
            shape = tf.cast(tf.shape(img)[:2], tf.float32)
            img = tf.image.resize(img, tf.cast(tf.round(shape * 256.0 / tf.reduce_min(shape)), tf.int32))
            img = tf.image.resize_with_crop_or_pad(img, inp.size, inp.size)
            return (img - inp.mean) / inp.std
        return inp.per_image(one)

    def ours(seed, max_dct_denom=2):
        return inp.batches().apply(tga.gpu_augment(
            [tga.ResizeCenterCrop(256, inp.size, max_dct_denom=max_dct_denom),
             tga.CropMirrorNormalize()], seed=seed))

    # The anchors decode at full scale; the full-scale row does the same work they do.
    return {"tf.data + tf.image": tf_image, "tfgpuaug": ours,
            FULL_SCALE: lambda seed: ours(seed, max_dct_denom=1)}


WITHOUT_RANDAUGMENT = "tfgpuaug without RandAugment"


def randaugment(inp: Inputs) -> Dict[str, Maker]:
    def ours(seed):
        return inp.batches().apply(tga.gpu_augment(
            [tga.RandomResizedCrop(inp.size), tga.RandAugment(num_ops=2, magnitude=9),
             tga.CropMirrorNormalize(mirror=0.5)], seed=seed))

    # The train pipeline again, timed in the same interleaved rounds: RandAugment's cost is
    # read against it, not against the train suite measured minutes earlier (machine drift).
    makers = {"tfgpuaug": ours, WITHOUT_RANDAUGMENT: train(inp)["tfgpuaug"]}
    return makers
