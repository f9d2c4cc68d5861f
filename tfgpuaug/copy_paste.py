"""CopyPaste for instance segmentation (Ghiasi et al., "Simple Copy-Paste"; torchvision's
reference SimpleCopyPaste): each sample gets a random subset of the objects of the previous
sample in the batch pasted over it, with their instance masks, boxes and box fields."""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug._types import Seed
from tfgpuaug.mask_dropout import dense_with_masks, drop_covered_keypoints
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput

MAX_ID = 255  # uint8 instance ids


def _blend_kernel() -> np.ndarray:
    """torchvision's 5x5 Gaussian of sigma 2 as it builds it in float32: a normalised 1-D pdf on
    -2 .. 2, then the outer product."""
    x = np.linspace(-2.0, 2.0, 5, dtype=np.float32)
    pdf = np.exp(np.float32(-0.5) * (x / np.float32(2.0)) ** 2)
    k = pdf / pdf.sum(dtype=np.float32)
    return np.outer(k, k).astype(np.float32)


def smoothed_paste_region(pasted: tf.Tensor) -> tf.Tensor:
    """torchvision's blending of copy-paste: its `gaussian_blur` of the boolean paste mask (5x5,
    sigma 2, reflected border) turns back into booleans by rounding, so the region whose pixels
    are replaced is where the blurred mask exceeds 0.5 (a smoothed outline), not an alpha blend.
    `pasted` [B, H, W] bool, H and W at least 3."""
    x = tf.pad(tf.cast(pasted, tf.float32)[..., None], [[0, 0], [2, 2], [2, 2], [0, 0]], mode="REFLECT")
    blurred = tf.nn.conv2d(x, tf.constant(_blend_kernel())[:, :, None, None], 1, "VALID")[..., 0]
    return blurred > 0.5


def torchvision_selection(counts: tf.Tensor, width: tf.Tensor, seed) -> tf.Tensor:
    """[B, width] bool: per sample with n = counts[b] objects, the distinct values of n draws
    uniform in [0, n) (torchvision's `torch.randint(0, n, (n,)).unique()`): each object is taken
    with probability 1 - (1 - 1/n)^n, about 63%, never none when n > 0."""
    n = tf.shape(counts)[0]
    draws = tf.floor(tf.random.stateless_uniform([n, width], seed) * tf.cast(counts, tf.float32)[:, None])
    valid = tf.range(width)[None, :] < counts[:, None]
    hits = tf.equal(tf.cast(draws, tf.int32)[:, :, None], tf.range(width)[None, None, :]) & valid[:, :, None]
    return tf.reduce_any(hits, axis=1) & valid


def _id_table(keep: tf.Tensor, first: tf.Tensor) -> tf.Tensor:
    """[B, 256] int32: old id 1 + k -> first + (rank of k among the kept), 0 where not kept or
    past the largest id."""
    n = tf.shape(keep)[0]
    keep = tf.pad(keep, [[0, 0], [0, tf.maximum(MAX_ID - tf.shape(keep)[1], 0)]])[:, :MAX_ID]
    new = (first[:, None] + tf.cumsum(tf.cast(keep, tf.int32), axis=1)) * tf.cast(keep, tf.int32)
    new = tf.where(new > MAX_ID, 0, new)
    return tf.concat([tf.zeros([n, 1], tf.int32), new], axis=1)


def _extents(ids: tf.Tensor) -> tf.Tensor:
    """[B, 256, 4] float: each id's pixel extent as a box (x0, y0, x1 + 1, y1 + 1)."""
    b, h, w = tf.shape(ids)[0], tf.shape(ids)[1], tf.shape(ids)[2]
    segments = tf.reshape(ids + (MAX_ID + 1) * tf.range(b)[:, None, None], [-1])
    ys = tf.reshape(tf.broadcast_to(tf.range(h)[None, :, None], [b, h, w]), [-1])
    xs = tf.reshape(tf.broadcast_to(tf.range(w)[None, None, :], [b, h, w]), [-1])
    count = b * (MAX_ID + 1)
    lo = [tf.math.unsorted_segment_min(v, segments, count) for v in (xs, ys)]
    hi = [tf.math.unsorted_segment_max(v, segments, count) + 1 for v in (xs, ys)]
    return tf.reshape(tf.cast(tf.stack(lo + hi, axis=-1), tf.float32), [b, MAX_ID + 1, 4])


class CopyPaste(Transform):
    """Simple Copy-Paste (torchvision's reference `SimpleCopyPaste`): each sample, with
    probability `probability`, gets objects of the previous sample in the batch (the batch
    rolled by one, as torchvision) pasted over it: the objects are torchvision's random subset
    (the distinct values of n draws among the source's n boxes), their pixels those of their
    instance masks. With `blending` (torchvision's default) the image pixels replaced are those
    of the paste mask smoothed as torchvision smooths it (`smoothed_paste_region`: a 5x5 sigma-2
    blur of the mask, thresholded at one half, since torchvision blurs a boolean mask); the
    sample's own objects lose those pixels, the pasted objects keep their own masks.

    The masks must be instance-id maps, uint8 `[B, H, W, 1]` holding 1 + the index of the box
    each pixel belongs to (`tga.data.coco(masks="instance_ids")`); mask values without a box
    become background. Afterwards the ids are renumbered the same way: the sample's own objects
    that still have pixels first, then the pasted ones (one that would need an id past 255 is
    pasted as background pixels), and every box is its object's pixel extent (torchvision
    recomputes boxes from the masks too, as inclusive pixel indices; here a box covers its
    pixels, [x0, x1 + 1)); a sample that no pixel was pasted on is left exactly as it was.
    Objects hidden entirely are dropped with their box fields; the sample's keypoints on pasted
    or replaced pixels are dropped, the source's are not pasted. Images and masks must be
    decoded, one shape (after a resize). Without masks, or in inference, nothing changes.

    Args:
      probability: probability that a sample receives pasted objects.
      blending: smooth the outline of the replaced pixels as torchvision's `blending=True` does
        (images at least 3 x 3); False pastes exactly the masks' pixels.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    decodes = True

    def __init__(self, probability: float = 1.0, blending: bool = True, seed: Optional[int] = None):
        super().__init__(seed)
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability must be in [0, 1], got {probability}")
        if not isinstance(blending, bool):
            raise TypeError(f"blending must be True or False, got {blending!r}")
        self.probability = float(probability)
        self.blending = blending

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if targets is None or targets.masks is None or not training:
            return images, targets  # nothing to paste without instance masks
        if targets.boxes is None:
            raise ValueError("CopyPaste needs boxes with the instance-id masks (mask value = 1 + box index)")
        images, targets = dense_with_masks("CopyPaste", images, targets)
        s_pick, s_apply = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 2))
        n = tf.shape(images)[0]
        source = tf.math.floormod(tf.range(n) - 1, n)  # torchvision: the batch rolled by one
        counts = tf.cast(targets.boxes.row_lengths(), tf.int32)
        width = tf.maximum(tf.reduce_max(counts), 1)
        chosen = torchvision_selection(tf.gather(counts, source), width, s_pick)
        chosen &= (tf.random.stateless_uniform([n], s_apply) < self.probability)[:, None]
        own = tf.cast(targets.masks[..., 0], tf.int32)
        theirs = tf.gather(own, source)
        pasted = tf.gather(_id_table(chosen, tf.zeros([n], tf.int32)), theirs, batch_dims=1) > 0  # [B, H, W]
        replaced = smoothed_paste_region(pasted) if self.blending else pasted  # the image pixels taken
        covered = pasted | replaced  # where the sample's own objects lose their pixels
        out = tf.where(replaced[..., None], tf.gather(images, source), images)

        def alive(ids, where, count):  # [B, width]: objects 1..count with pixels where `where`
            pixels = tf.math.bincount(tf.reshape(tf.where(where, ids, 0), [n, -1]), minlength=MAX_ID + 1,
                                      maxlength=MAX_ID + 1, axis=-1)
            present = tf.pad(pixels[:, 1:] > 0, [[0, 0], [0, tf.maximum(width - MAX_ID, 0)]])[:, :width]
            return present & (tf.range(width)[None, :] < count[:, None])

        def renumbered(table):  # [B, width]: the new id of each object, 0 if it has none
            at = tf.broadcast_to(tf.minimum(tf.range(1, width + 1), MAX_ID)[None], [n, width])
            return tf.gather(table, at, batch_dims=1)

        # A sample no pixel was pasted on keeps everything as it was (boxes not recomputed).
        touched = tf.reduce_any(pasted, axis=[1, 2])
        every = tf.range(width)[None, :] < counts[:, None]
        kept = tf.where(touched[:, None], alive(own, ~covered, counts), every)
        added = alive(theirs, pasted, tf.gather(counts, source)) & chosen
        own_table = _id_table(kept, tf.zeros([n], tf.int32))
        their_table = _id_table(added, tf.reduce_max(own_table, axis=1))
        kept &= renumbered(own_table) > 0
        added &= renumbered(their_table) > 0  # ids past 255 are not pasted
        own_ids = tf.where(covered, 0, tf.gather(own_table, own, batch_dims=1))
        ids = tf.where(pasted, tf.gather(their_table, theirs, batch_dims=1), own_ids)
        ids = tf.where(touched[:, None, None], ids, own)
        total = tf.reduce_sum(tf.cast(kept, tf.int32), 1) + tf.reduce_sum(tf.cast(added, tf.int32), 1)
        before = tf.cast(targets.boxes.to_tensor(0.0, shape=[None, MAX_ID, 4]), tf.float32)
        boxes = tf.where(touched[:, None, None], _extents(ids)[:, 1:], before)
        boxes = tf.RaggedTensor.from_tensor(boxes, lengths=total)

        def cat(own_values, row_keep, their_row_keep):
            mine = tf.ragged.boolean_mask(own_values, tf.RaggedTensor.from_tensor(row_keep, lengths=counts))
            other = tf.gather(own_values, source)
            other = tf.ragged.boolean_mask(other, tf.RaggedTensor.from_tensor(their_row_keep,
                                                                              lengths=tf.gather(counts, source)))
            return tf.concat([mine, other], axis=1)

        fields = {k: cat(v, kept, added) for k, v in targets.box_fields.items()}
        masks = tf.cast(ids, targets.masks.dtype)[..., None]
        targets = targets.replace(boxes=tf.cast(boxes, targets.boxes.dtype), box_fields=fields, masks=masks)
        return out, drop_covered_keypoints(targets, covered)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return dict(probability=self.probability, blending=self.blending, seed=self.seed)
