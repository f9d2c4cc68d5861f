"""The symmetries of a square image, per sample (Albumentations' RandomRotate90, Transpose and
D4 / SquareSymmetry): each is an optional transpose followed by optional horizontal and vertical
flips. uint8 images move in one pass of the fused augment kernel's dihedral stage; other types by
one transpose selected per sample and one flip pass (TensorFlow's transpose and `tfgpuaug.flip`,
all with GPU kernels). Boxes, masks and keypoints follow."""
from __future__ import annotations

from typing import Optional, Tuple

import tensorflow as tf

from tfgpuaug import _checks, geometry
from tfgpuaug import targets as tg
from tfgpuaug.transforms import TransformOutput, _PerSample

# (transpose, horizontal flip, vertical flip), applied in that order. np.rot90(x, k) rotates
# counter-clockwise: k = 1 is x.T flipped vertically, k = 3 x.T flipped horizontally.
IDENTITY, ROT90, ROT180, ROT270 = (0, 0, 0), (1, 0, 1), (0, 1, 1), (1, 1, 0)
TRANSPOSE, HFLIP, VFLIP, TRANSVERSE = (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)


class _Dihedral(_PerSample):
    """Per sample, with probability `probability`, one of `_elements` drawn uniformly."""

    accepts_float = True
    _elements: Tuple[Tuple[int, int, int], ...] = ()

    def _check_square(self, images: tf.Tensor) -> tf.Tensor:
        name = type(self).__name__
        images = self._dense(images, "a dense batch of square images [B, S, S, C]",
                             "decode and resize or crop ragged or encoded images to a square first")
        h, w = images.shape[1], images.shape[2]
        if h is not None and w is not None and h != w:
            raise ValueError(f"{name} transposes some samples, which swaps their height and width: the batch's "
                             f"images must be square, got {h}x{w}; crop or resize them to a square first")
        if h is None or w is None:
            shape = tf.shape(images)
            images = _checks.run_time(images, tf.equal(shape[1], shape[2]), f"{name}_needs_square_images")
        return images

    def draws(self, n, seed) -> tf.Tensor:
        """[n, 3] bool (transpose, horizontal flip, vertical flip) per sample."""
        s_pick, s_apply = tf.unstack(tf.random.experimental.stateless_split(geometry._seed_tensor(seed), 2))
        pick = tf.random.stateless_uniform([n], s_pick, 0, len(self._elements), tf.int32)
        chosen = tf.gather(tf.constant(self._elements, tf.int32), pick)
        applied = tf.random.stateless_uniform([n], s_apply) < self.probability
        return tf.cast(chosen, tf.bool) & applied[:, None]

    def _dense_input(self, images) -> tf.Tensor:
        return self._check_square(images)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        n = tf.shape(images)[0]
        flags = self.draws(n, seed)
        out = _move(images, flags)
        if targets is None or not targets.moves:
            return out, targets
        if targets.masks is not None:
            targets = targets.replace(masks=_move(self._check_square(targets.masks), flags))
        hw = tg.image_sizes(images)
        zero = tf.zeros([n], tf.float32)
        t = tf.cast(flags[:, 0], tf.float32)  # (x, y) -> (y, x) where transposed
        transpose = tf.stack([tf.stack([1 - t, t, zero], -1), tf.stack([t, 1 - t, zero], -1)], axis=1)
        m = tg.compose(tg.flip_matrices(flags[:, 1], flags[:, 2], hw, n), transpose)
        return out, targets.affine(m, hw)

    def get_config(self) -> dict:
        return dict(probability=self.probability, seed=self.seed)


def _move(images: tf.Tensor, flags: tf.Tensor) -> tf.Tensor:
    """The batch with each sample transposed, then flipped, as its [3] flags say: uint8 images
    of 1, 3 or 4 channels in one pass of the fused augment kernel's dihedral stage (the flags as
    bits 4, 2, 1), others (floats, masks of other types or more channels) by TensorFlow's
    transpose, a select and a flip pass."""
    if images.dtype == tf.uint8 and images.shape[-1] in (1, 3, 4):
        from tfgpuaug.augment.ops import OP_IDS, apply_stages
        code = tf.reduce_sum(tf.cast(flags, tf.int32) * tf.constant([4, 2, 1]), axis=1)
        op_ids = tf.where(code > 0, OP_IDS["dihedral"], OP_IDS["identity"])[:, None]
        return apply_stages(images, op_ids, tf.cast(code, tf.float32)[:, None])
    transposed = tf.where(flags[:, 0, None, None, None], tf.transpose(images, [0, 2, 1, 3]), images)
    return geometry.flip(transposed, horizontal=flags[:, 1], vertical=flags[:, 2])


class RandomRotate90(_Dihedral):
    """Albumentations' RandomRotate90: per sample, with probability `probability`, a rotation by
    k quarter turns counter-clockwise (np.rot90's direction), k uniform in {0, 1, 2, 3}. The
    batch's images must be square (a quarter turn swaps height and width). Boxes, masks and
    keypoints follow. Inference leaves everything alone.

    Args:
      probability: probability that a sample is rotated (by k = 0 too, as Albumentations).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _elements = (IDENTITY, ROT90, ROT180, ROT270)

    def __init__(self, probability: float = 1.0, seed: Optional[int] = None):
        super().__init__(probability, seed)


class Transpose(_Dihedral):
    """Albumentations' Transpose: per sample, with probability `probability`, rows and columns
    swapped (the main diagonal's mirror). The batch's images must be square. Boxes, masks and
    keypoints follow. Inference leaves everything alone.

    Args:
      probability: probability that a sample is transposed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _elements = (TRANSPOSE,)

    def __init__(self, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)


class D4(_Dihedral):
    """Albumentations' D4 (SquareSymmetry): per sample, with probability `probability`, one of
    the square's eight symmetries drawn uniformly (identity, the quarter, half and three-quarter
    turns, the horizontal and vertical flips, the transpose and the anti-diagonal mirror). The
    batch's images must be square. Boxes, masks and keypoints follow. Inference leaves everything
    alone.

    Args:
      probability: probability that a sample is moved (by the identity too, as Albumentations).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _elements = (IDENTITY, ROT90, ROT180, ROT270, TRANSPOSE, HFLIP, VFLIP, TRANSVERSE)

    def __init__(self, probability: float = 1.0, seed: Optional[int] = None):
        super().__init__(probability, seed)
