"""See what an augmentation policy does before training on it: a grid with one row per
image, the original in the first column and augmented versions (different seeds) after it,
written as a PNG and, optionally, as a TensorBoard image summary. A text legend lists the
ops and parameters each cell received.

    python -m tfgpuaug.preview --data DIR --policy rand_augment --num_ops 2 --magnitude 9 -o grid.png
"""
from __future__ import annotations

import os
from typing import Callable, Optional, Sequence

import tensorflow as tf
from tensorflow.core.framework import summary_pb2

from tfgpuaug import geometry
from tfgpuaug.augment import ops as aug_ops
from tfgpuaug.augment import policies

POLICY_NAMES = ("rand_augment", "trivial_augment", "auto_augment", "none")
_OP_NAMES = {v: k for k, v in aug_ops.OP_IDS.items()}
_OP_NAMES[-1] = "custom"

# policy(images uint8 [B, H, W, C], seed [2]) -> (images, op_ids [B, K], params [B, K])
PolicyFn = Callable[[tf.Tensor, tf.Tensor], tuple]


def make_policy(name: str, num_ops: int = 2, magnitude: int = 9, auto_policy: str = "imagenet",
                augmentations: Optional[Sequence[str]] = None) -> PolicyFn:
    """A policy function returning its plan, by name (one of POLICY_NAMES)."""
    if name == "rand_augment":
        return lambda x, s: policies.rand_augment(x, num_ops, magnitude, augmentations=augmentations,
                                                  seed=s, return_plan=True)
    if name == "trivial_augment":
        return lambda x, s: policies.trivial_augment(x, augmentations=augmentations, seed=s,
                                                     return_plan=True)
    if name == "auto_augment":
        return lambda x, s: policies.auto_augment(x, auto_policy, seed=s, return_plan=True)
    if name == "none":
        return lambda x, s: (x, tf.zeros([tf.shape(x)[0], 0], tf.int32), tf.zeros([tf.shape(x)[0], 0]))
    raise ValueError(f"unknown policy {name!r}; expected one of {', '.join(POLICY_NAMES)}")


def load_tiles(contents: tf.Tensor, size: int) -> tf.Tensor:
    """Encoded images -> uint8 [N, size, size, 3]: shorter side to `size`, centre crop."""
    return geometry.resize_center_crop(contents, resize_shorter=size, crop=size)


def draw_boxes(images, boxes, bounding_box_format: str = "xyxy", color: Sequence[int] = (255, 0, 0),
               thickness: int = 2, mean: Optional[Sequence[float]] = None,
               std: Optional[Sequence[float]] = None):
    """Outlines of `boxes` drawn on images, for looking at a detection pipeline's output.
    Returns a uint8 numpy copy; padding slots are skipped. Coordinates are continuous (a box
    [0, 0, W, H] outlines the whole image).

    Args:
      images: uint8 `[B, H, W, C]` (or one `[H, W, C]`), or a pipeline's normalised float
        output with the `mean` and `std` it used.
      boxes: `[B, N, 4]` padded with -1, ragged, or `[N, 4]` for one image.
      bounding_box_format: the boxes' format (`tfgpuaug.boxes`).
      color: the outline's colour, one value per channel.
      thickness: the outline's width in pixels.
      mean: for float images, the per-channel mean their normalisation subtracted (0..255).
      std: for float images, the per-channel std it divided by.
    """
    import numpy as np

    from tfgpuaug import boxes as bx

    pixels = np.asarray(images)
    if pixels.dtype != np.uint8:
        if mean is None or std is None:
            raise ValueError(f"draw_boxes draws on uint8 images, and these are {pixels.dtype}: for a pipeline's "
                             "normalised output pass the mean and std it used (e.g. mean=tfgpuaug.IMAGENET_MEAN, "
                             "std=tfgpuaug.IMAGENET_STD) to map them back to pixels")
        pixels = np.clip(np.round(pixels.astype(np.float32) * np.asarray(std, np.float32)
                                  + np.asarray(mean, np.float32)), 0, 255)
    out = np.array(pixels, dtype=np.uint8, copy=True)
    single = out.ndim == 3
    if single:
        out, boxes = out[None], [boxes]
    h, w = out.shape[1:3]
    for i in range(out.shape[0]):
        b = boxes[i]
        b = b.numpy() if hasattr(b, "numpy") else np.asarray(b, np.float32)
        b = b.reshape(-1, 4)
        b = b[~np.all(b == -1, axis=1)]
        if len(b) == 0:
            continue
        xyxy = bx.convert_format(tf.constant(b, tf.float32), bounding_box_format, "xyxy", h, w).numpy()
        for x0, y0, x1, y1 in np.round(xyxy).astype(int):
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            if x1 <= x0 or y1 <= y0:
                continue
            t = thickness
            for ys, xs in ((slice(y0, min(y0 + t, y1)), slice(x0, x1)), (slice(max(y1 - t, y0), y1), slice(x0, x1)),
                           (slice(y0, y1), slice(x0, min(x0 + t, x1))), (slice(y0, y1), slice(max(x1 - t, x0), x1))):
                out[i, ys, xs] = np.asarray(color, np.uint8)[: out.shape[-1]]
    return out[0] if single else out


def grid(originals: tf.Tensor, versions: Sequence[tf.Tensor]) -> tf.Tensor:
    """uint8 [N*H, (1 + len(versions))*W, C]: row i is originals[i] then versions[k][i]."""
    columns = [originals] + list(versions)
    rows = tf.concat(columns, axis=2)  # [N, H, (1+V)*W, C]
    shape = tf.shape(rows)
    return tf.reshape(rows, [shape[0] * shape[1], shape[2], shape[3]])


def describe_plan(op_ids, params) -> list[str]:
    """Readable names for a plan: one string per sample, e.g. 'rotate(-27.00) invert'."""
    out = []
    for ids, values in zip(op_ids.numpy().tolist(), params.numpy().tolist()):
        parts = []
        for i, v in zip(ids, values):
            name = _OP_NAMES.get(i, f"op{i}")
            parts.append(name if name in ("identity", "invert", "equalize", "auto_contrast",
                                          "grayscale") else f"{name}({v:.2f})")
        out.append(" ".join(parts) or "identity")
    return out


def render(contents: tf.Tensor, policy: PolicyFn, versions: int = 5, size: int = 160,
           seed: int = 0) -> tuple[tf.Tensor, list[list[str]]]:
    """The preview grid for encoded images and a legend: legend[i][k] describes version k of
    image i."""
    if versions < 1 or size < 8:
        raise ValueError(f"need versions >= 1 and size >= 8, got versions={versions}, size={size}")
    originals = load_tiles(contents, size)
    outputs, legend = [], [[] for _ in range(int(originals.shape[0]))]
    for k in range(versions):
        augmented, op_ids, params = policy(originals, tf.constant([seed, k], tf.int64))
        outputs.append(augmented)
        for i, text in enumerate(describe_plan(op_ids, params)):
            legend[i].append(text)
    return grid(originals, outputs), legend


def write_png(path: str, image: tf.Tensor) -> None:
    tf.io.write_file(path, tf.io.encode_png(image))


def write_summary(logdir: str, name: str, image: tf.Tensor, step: int = 0) -> None:
    """Writes the grid as a TensorBoard image summary under logdir.

    Written in the images plugin's format (width, height, PNG) with `tf.summary.write`, so
    it works without the tensorboard package, which `tf.summary.image` needs."""
    metadata = summary_pb2.SummaryMetadata()
    metadata.plugin_data.plugin_name = "images"
    shape = tf.shape(image)
    tensor = tf.stack([tf.as_string(shape[1]), tf.as_string(shape[0]), tf.io.encode_png(image)])
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
        tf.summary.write(name, tensor, step=step, metadata=metadata)
    writer.close()


def list_images(data: str, count: int) -> list[str]:
    """Image files under data (flat or one level of class folders), spread over the sorted list
    (so over the classes, not the first class's first files): the `count` evenly spaced ones
    first, then the rest, for `readable_images` to take the first readable `count` of."""
    exts = (".jpg", ".jpeg", ".png", ".JPEG", ".JPG", ".PNG")
    files = sorted(f for pattern in ("*", os.path.join("*", "*"))
                   for f in tf.io.gfile.glob(os.path.join(data, pattern)) if f.endswith(exts))
    if not files:
        raise ValueError(f"no .jpg/.jpeg/.png images under {data}")
    spread = [files[i * len(files) // count] for i in range(min(count, len(files)))]
    return spread + [f for f in files if f not in set(spread)]


def readable_images(files: list[str], count: int) -> tuple[list[str], list[bytes]]:
    """The first `count` of `files` that decode, with their bytes; the others are reported and
    passed over (a preview must not die on one bad file)."""
    from tfgpuaug import decode_image

    kept, contents = [], []
    for path in files:
        if len(kept) == count:
            break
        blob = tf.io.read_file(path).numpy()
        try:
            decode_image(tf.constant(blob))
        except tf.errors.InvalidArgumentError as e:
            print(f"skipping {path}: {e.message.splitlines()[0]}")
            continue
        kept.append(path)
        contents.append(blob)
    if not kept:
        raise ValueError("none of the images decodes")
    return kept, contents


def main(argv) -> None:
    del argv
    from absl import flags

    from tfgpuaug import samples

    f = flags.FLAGS
    data = f.data
    if data is None:
        data = os.path.join(os.path.dirname(os.path.abspath(f.o)) or ".", "preview-samples")
        samples.make_sample_images(data, per_class=3)
    files, blobs = readable_images(list_images(data, f.images), f.images)
    policy = make_policy(f.policy, f.num_ops, f.magnitude, f.auto_policy, f.augmentations)
    contents = tf.constant(blobs)
    image, legend = render(contents, policy, f.versions, f.size, f.seed)
    write_png(f.o, image)
    legend_path = os.path.splitext(f.o)[0] + ".txt"
    with open(legend_path, "w") as out:
        for path, row in zip(files, legend):
            out.write(f"{os.path.basename(path)}\n")
            for k, text in enumerate(row):
                out.write(f"  version {k + 1}: {text}\n")
    if f.logdir:
        write_summary(f.logdir, f"preview/{f.policy}", image)
    print(f"{len(files)} images x {f.versions} versions of {f.policy}: {f.o} "
          f"({image.shape[1]}x{image.shape[0]}), legend {legend_path}")


def _define_flags() -> None:
    from absl import flags

    flags.DEFINE_string("data", None, "Image folder (default: generated sample images).")
    flags.DEFINE_enum("policy", "rand_augment", POLICY_NAMES, "Policy to preview.")
    flags.DEFINE_integer("num_ops", 2, "rand_augment: ops per image.")
    flags.DEFINE_integer("magnitude", 9, "rand_augment: magnitude bin (0..30).")
    flags.DEFINE_string("auto_policy", "imagenet", "auto_augment: policy name.")
    flags.DEFINE_list("augmentations", None, "Restrict rand/trivial_augment to these ops.")
    flags.DEFINE_integer("images", 6, "Rows: how many images.")
    flags.DEFINE_integer("versions", 5, "Columns after the original: augmented versions.")
    flags.DEFINE_integer("size", 160, "Tile size in pixels.")
    flags.DEFINE_integer("seed", 0, "Seed.")
    flags.DEFINE_string("o", "preview.png", "Output PNG path.")
    flags.DEFINE_string("logdir", None, "Also write a TensorBoard image summary here.")


if __name__ == "__main__":
    from absl import app

    _define_flags()
    app.run(main)
