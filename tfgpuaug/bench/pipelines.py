"""The pipelines the harness always has (tfgpuaug and plain tf.data + tf.image), as makers:
each takes the round's seed and returns a tf.data dataset of batches (repeated), so they are
timed the same way and every round draws new crops and augmentations (tf.image's and the
anchors' stateful RNG redraws anyway).

train: random-resized-crop 224 + random flip + normalize to float32.
eval: resize the shorter side to 256, centre crop 224, normalize.
randaugment: train with RandAugment(2, 9) between the crop and the normalisation.
large: train on 4000x3000 upscales of the images (phone-photo size), batch 16.

Other libraries' pipelines (TF Model Garden, Keras 3, DALI) are anchors outside the package:
`--anchors benchmarks/anchors` in a source checkout.
"""
from __future__ import annotations

from typing import Callable, Dict

import numpy as np
import tensorflow as tf

import tfgpuaug as tga

AUTOTUNE = tf.data.AUTOTUNE
Maker = Callable[[int], tf.data.Dataset]
FULL_SCALE = "tfgpuaug, full-scale decode (max_dct_denom=1)"
FLOOR = "floor: crop decode alone"
SKIPPING = "tfgpuaug, on_error=\"skip\" (clean data)"


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

    # decode, crop, resize, flip, normalize: one pass per image
    def ours(seed, max_dct_denom=tga.geometry.DEFAULT_MAX_DCT_DENOM, on_error="raise"):
        first = tga.RandomResizedCrop(inp.size, max_dct_denom=max_dct_denom)
        return inp.batches().apply(tga.gpu_augment(
            [first, tga.CropMirrorNormalize(mirror=0.5)], seed=seed, on_error=on_error))

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
            FULL_SCALE: lambda seed: ours(seed, max_dct_denom=1), FLOOR: floor,
            SKIPPING: lambda seed: ours(seed, on_error="skip")}


def evaluation(inp: Inputs) -> Dict[str, Maker]:
    def tf_image(seed):
        def one(x):
            img = tf.io.decode_jpeg(x, channels=3)
            shape = tf.cast(tf.shape(img)[:2], tf.float32)
            img = tf.image.resize(img, tf.cast(tf.round(shape * 256.0 / tf.reduce_min(shape)), tf.int32))
            img = tf.image.resize_with_crop_or_pad(img, inp.size, inp.size)
            return (img - inp.mean) / inp.std
        return inp.per_image(one)

    def ours(seed, max_dct_denom=tga.geometry.DEFAULT_MAX_DCT_DENOM):
        return inp.batches().apply(tga.gpu_augment(
            [tga.ResizeCenterCrop(256, inp.size, max_dct_denom=max_dct_denom),
             tga.CropMirrorNormalize()], seed=seed))

    # The anchors decode at full scale; the full-scale row does the same work they do.
    return {"tf.data + tf.image": tf_image, "tfgpuaug": ours,
            FULL_SCALE: lambda seed: ours(seed, max_dct_denom=1)}


WITHOUT_RANDAUGMENT = "tfgpuaug without RandAugment"
EXTENDED_RANDAUGMENT = "tfgpuaug, RandAugment over the extended registry"


def randaugment(inp: Inputs) -> Dict[str, Maker]:
    def ours(seed, augmentations=None):
        return inp.batches().apply(tga.gpu_augment(
            [tga.RandomResizedCrop(inp.size), tga.RandAugment(num_ops=2, magnitude=9, augmentations=augmentations),
             tga.CropMirrorNormalize(mirror=0.5)], seed=seed))

    # The train pipeline again, timed in the same interleaved rounds: RandAugment's cost is
    # read against it, not against the train suite measured minutes earlier (machine drift).
    # The extended row draws from the papers' 14 ops and the 18 pixel-level ones of issue 36
    # (blurs, noise, CLAHE, colour, dropout, illumination), each sample its own two.
    makers = {"tfgpuaug": ours, WITHOUT_RANDAUGMENT: train(inp)["tfgpuaug"],
              EXTENDED_RANDAUGMENT: lambda seed: ours(seed, tga.augment.EXTENDED_OPS)}
    return makers


LARGE_BATCH = 16
SAME_SCALE_FLOOR = "floor: crop decode alone, same DCT scale"
_LARGE_INPUTS: dict = {}


def large_inputs(inp: Inputs) -> Inputs:
    """The large-photo suite's images: the first 128 of the benchmark's, upscaled to 4000x3000
    and re-encoded at quality 90 (timing.large_photos_dir), batch 16."""
    from tfgpuaug.bench import timing

    folder = timing.large_photos_dir(inp.files)
    if folder not in _LARGE_INPUTS:
        files = timing.list_image_files(folder, jpeg_only=True)
        _LARGE_INPUTS[folder] = Inputs([open(f, "rb").read() for f in files], files,
                                       min(LARGE_BATCH, inp.batch), inp.size)
    return _LARGE_INPUTS[folder]


def _dct_denoms(boxes: tf.Tensor, size: int, max_dct_denom: int) -> tf.Tensor:
    """The DCT denominator the fused decode picks per box (ChooseDctDenom): the largest power
    of two up to max_dct_denom that keeps the box at least the output size."""
    shorter = tf.minimum(boxes[:, 2], boxes[:, 3])
    denom = tf.ones_like(shorter)
    for d in (2, 4, 8):
        if d <= max_dct_denom:
            denom = tf.where(tf.floor(shorter / d) >= size, float(d), denom)
    return denom


def large_photos(inp: Inputs, large: Inputs = None) -> Dict[str, Maker]:
    """The train pipeline on phone-photo sized JPEGs, with the floor decoding the same crops at
    the same DCT scale as tfgpuaug's default (decoding is the whole job there). `large`: the
    photos to use instead of `large_inputs(inp)` (the prepared ones)."""
    large = large or large_inputs(inp)
    makers = train(large)
    del makers[FLOOR]  # the full-scale floor is the full-scale row's; this one matches the default
    del makers[SKIPPING]
    default = tga.RandomResizedCrop(large.size)

    def floor(seed):
        def crops_alone(contents, seed):
            boxes = tga.random_crop_boxes(tga.image_shape(contents)[:, :2], default.scale, default.ratio,
                                          seed=tf.random.experimental.stateless_fold_in(seed, 0))
            denoms = _dct_denoms(boxes, large.size, default.max_dct_denom)
            firsts = []
            for d in (1, 2, 4, 8):  # one batched decode per scale present
                pick = tf.where(tf.equal(denoms, float(d)))[:, 0]
                window = tf.cast(tf.math.floordiv(tf.gather(boxes, pick), float(d)), tf.int32)
                window = tf.concat([window[:, :2], tf.maximum(window[:, 2:], 1)], 1)
                firsts.append(tga.decode_image(tf.gather(contents, pick), crop_window=window,
                                               dct_denom=d).flat_values[:1])
            return tf.concat(firsts, 0)
        return large.batches().apply(tga.gpu_augment(crops_alone, seed=seed, prefetch=AUTOTUNE,
                                                     num_parallel_calls=AUTOTUNE))

    makers[SAME_SCALE_FLOOR] = floor
    return makers


PREPARED = "tfgpuaug, prepared JPEGs (restart markers)"
PREPARED_FLOOR = "floor: crop decode alone, prepared JPEGs"
_PREPARED_INPUTS: dict = {}


def prepared_inputs(inp: Inputs) -> Inputs:
    """`inp`'s JPEGs as `python -m tfgpuaug.prepare` writes them (restart markers, default
    interval width), in memory like the originals, so the rows differ only in the files."""
    if id(inp) not in _PREPARED_INPUTS:
        chunks = [tga.add_jpeg_restart_markers(inp.blobs[i:i + 64]) for i in range(0, int(inp.blobs.shape[0]), 64)]
        rewritten = [bytes(b) for chunk in chunks for b in chunk.numpy()]
        _PREPARED_INPUTS[id(inp)] = Inputs(rewritten, inp.files, inp.batch, inp.size)
    return _PREPARED_INPUTS[id(inp)]


def prepared_bytes(inp: Inputs) -> tuple:
    """(bytes of the original JPEGs, bytes of the prepared ones)."""
    def total(x):
        return int(tf.reduce_sum(tf.strings.length(x.blobs)))
    return total(inp), total(prepared_inputs(inp))


def prepared_rows(suite: str, inp: Inputs) -> Dict[str, Maker]:
    """The train or large-photo suite's tfgpuaug pipeline and floor on prepared JPEGs."""
    if suite == "train":
        makers = train(prepared_inputs(inp))
        return {PREPARED: makers["tfgpuaug"], PREPARED_FLOOR: makers[FLOOR]}
    if suite == "large":
        makers = large_photos(inp, prepared_inputs(large_inputs(inp)))
        return {PREPARED: makers["tfgpuaug"], PREPARED_FLOOR + ", same DCT scale": makers[SAME_SCALE_FLOOR]}
    return {}


DETECTION_SIZE, DETECTION_BATCH, MAX_BOXES = 640, 16, 100
DETECTION_FLOOR = "floor: full-image decode alone"
DETECTION_TWO_IN_FLIGHT = "tfgpuaug, num_parallel_calls=2"
DETECTION_RANDAUGMENT = "tfgpuaug + box-aware RandAugment(2, 9)"


def suite_batch(suite: str, inp: Inputs) -> int:
    """Images per batch of a suite: detection and large photos run batch 16 (at most the
    harness's batch)."""
    if suite in ("detection", "large"):
        return min(DETECTION_BATCH if suite == "detection" else LARGE_BATCH, inp.batch)
    return inp.batch


def suite_images(suite: str, inp: Inputs) -> int:
    """Images a suite draws from (the large-photo suite makes its own)."""
    return len(large_inputs(inp).files) if suite == "large" else len(inp.files)


class DetectionInputs:
    """The detection suite's images, each with 1-8 synthetic boxes (a fixed seed): normalized
    `yxyx` (Model Garden's layout) and `xyxy` pixels (Keras 3's and tfgpuaug's)."""

    def __init__(self, inp: Inputs, size: int = DETECTION_SIZE):
        self.inp, self.batch, self.size = inp, suite_batch("detection", inp), size
        dims = tga.image_shape(inp.blobs)[:, :2].numpy().astype(np.float32)
        rng = np.random.default_rng(0)
        rel, labels = [], []
        for _ in dims:
            k = int(rng.integers(1, 9))
            y0x0 = rng.uniform(0.0, 0.8, (k, 2))
            y1x1 = np.minimum(y0x0 + rng.uniform(0.05, 0.5, (k, 2)), 1.0)
            rel.append(np.concatenate([y0x0, y1x1], 1).astype(np.float32))
            labels.append(rng.integers(0, 80, k).astype(np.int32))
        self.rel_yxyx = tf.ragged.constant(rel, ragged_rank=1, dtype=tf.float32)
        self.labels = tf.ragged.constant(labels, dtype=tf.int32)
        self.xyxy = tga.boxes.convert_format(self.rel_yxyx, "rel_yxyx", "xyxy", dims[:, 0], dims[:, 1])

    def per_image(self, rel: bool) -> tf.data.Dataset:
        """(bytes, boxes [n, 4], labels [n]) per image, repeated."""
        boxes = self.rel_yxyx if rel else self.xyxy
        return tf.data.Dataset.from_tensor_slices((self.inp.blobs, boxes, self.labels)).repeat()


def detection(inp: Inputs) -> Dict[str, Maker]:
    """Decode, random horizontal flip with boxes, scale jitter 0.8-1.25 around 640 with a random
    640x640 crop/pad (boxes scaled, shifted, clipped, empties dropped), ImageNet normalization
    to float32, boxes padded to 100."""
    det = DetectionInputs(inp)

    def ours(seed, num_parallel_calls=1, randaugment=False):
        ds = det.per_image(rel=False).map(
            lambda x, b, c: {"images": x, "bounding_boxes": {"boxes": b, "labels": c}})
        ds = ds.ragged_batch(det.batch, drop_remainder=True)
        augment = [tga.RandAugment(num_ops=2, magnitude=9)] if randaugment else []
        return ds.apply(tga.gpu_augment(
            [tga.ScaleJitter(det.size, scale=(0.8, 1.25))] + augment + [tga.CropMirrorNormalize(mirror=0.5)],
            seed=seed, max_boxes=MAX_BOXES, num_parallel_calls=num_parallel_calls))

    def floor(seed):  # the whole image must be decoded (upscaling dominates)
        ds = tf.data.Dataset.from_tensor_slices(inp.blobs).repeat().batch(det.batch, drop_remainder=True)
        return ds.apply(tga.gpu_augment(lambda contents: tga.decode_image(contents).flat_values[:1], seed=seed))

    # Two batches in flight overlap one batch's box bookkeeping (graph ops) with the next
    # batch's decoding; the default keeps one (less memory).
    return {"tfgpuaug": ours, DETECTION_TWO_IN_FLIGHT: lambda seed: ours(seed, 2), DETECTION_FLOOR: floor,
            DETECTION_RANDAUGMENT: lambda seed: ours(seed, randaugment=True)}
