"""TF Model Garden's input pipelines, per image in a parallel map as its parsers run: RandAugment
(`official.vision.ops.augment`) on tf.image's Inception crop, and the RetinaNet parser's
detection steps (`preprocess_ops`, `box_ops`). Needs `pip install tf-models-official`."""
from __future__ import annotations

from typing import Dict

import tensorflow as tf
from official.vision.ops import augment as model_garden
from official.vision.ops import box_ops, preprocess_ops

from tfgpuaug.bench import pipelines
from tfgpuaug.bench.pipelines import AUTOTUNE, Inputs, Maker, tf_random_crop_uint8


def randaugment(inp: Inputs) -> Dict[str, Maker]:
    def garden(seed):
        ra = model_garden.RandAugment(num_layers=2, magnitude=9)

        def one(x):
            img = tf.cast(tf.clip_by_value(tf.round(tf_random_crop_uint8(x, inp.size)), 0, 255), tf.uint8)
            return (tf.cast(ra.distort(img), tf.float32) - inp.mean) / inp.std
        return inp.per_image(one)
    return {"TF Model Garden augment.RandAugment": garden}


def detection(inp: Inputs) -> Dict[str, Maker]:
    """The training steps of Model Garden's RetinaNet parser (`retinanet_input.py`) on the same
    images and boxes: decode, normalize, random flip with boxes, resize_and_crop_image with
    scale jitter, boxes resized, cropped and clipped, empty boxes dropped, padded to 100."""
    det = pipelines.DetectionInputs(inp)
    size = [det.size, det.size]

    def parse(x, boxes, labels, augmenter=None):
        image = tf.io.decode_jpeg(x, channels=3)
        if augmenter is not None:  # where the parser applies it: the decoded image, normalized boxes
            image, boxes = augmenter.distort_with_boxes(image, boxes)
        shape = tf.shape(image)[0:2]
        image = preprocess_ops.normalize_image(image)
        image, boxes, _ = preprocess_ops.random_horizontal_flip(image, boxes)
        boxes = box_ops.denormalize_boxes(boxes, shape)
        image, info = preprocess_ops.resize_and_crop_image(image, size, size, aug_scale_min=0.8,
                                                           aug_scale_max=1.25)
        boxes = preprocess_ops.resize_and_crop_boxes(boxes, info[2, :], info[1, :], info[3, :])
        keep = box_ops.get_non_empty_box_indices(boxes)
        boxes, labels = tf.gather(boxes, keep), tf.gather(labels, keep)
        boxes = preprocess_ops.clip_or_pad_to_fixed_size(boxes, pipelines.MAX_BOXES, -1)
        labels = preprocess_ops.clip_or_pad_to_fixed_size(labels, pipelines.MAX_BOXES, -1)
        return image, boxes, labels

    def garden(seed, randaugment=False):
        augmenter = model_garden.RandAugment.build_for_detection(num_layers=2, magnitude=9) if randaugment else None
        ds = det.per_image(rel=True).map(lambda x, b, c: parse(x, b, c, augmenter), num_parallel_calls=AUTOTUNE)
        return ds.batch(det.batch, drop_remainder=True).prefetch(AUTOTUNE)
    return {"TF Model Garden preprocess_ops (RetinaNet parser steps)": garden,
            "TF Model Garden + RandAugment.build_for_detection(2, 9)": lambda seed: garden(seed, True)}


SUITES = {"randaugment": randaugment, "detection": detection}
