"""torchvision's FiveCrop and TenCrop for test-time augmentation: the four corner windows and the
centre one of each image (TenCrop: and the same five of the flipped image), as a batch of
`[B, 5, h, w, C]` (or 10). The windows are cut by the padding module's gathers, which copy them
exactly (nothing is resampled), each image of a ragged batch at its own corners."""
from __future__ import annotations

from typing import Optional, Sequence

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug._types import Seed, Size
from tfgpuaug.padding import _decoded, _needs_room, check_size, pad_crop
from tfgpuaug.transforms import Transform, TransformInput, _channels, _hw


def multi_crop(images: TransformInput, size: Size, flip_axis: Optional[int] = None,
               name: str = "FiveCrop") -> tf.Tensor:
    """torchvision's five_crop on a batch, `[B, 5, h, w, C]` in its order: top left, top right,
    bottom left, bottom right, centre (top int(round((H - h) / 2)), halves to even, as its
    center_crop); with `flip_axis` (0 vertical, 1 horizontal) also the five of the flipped
    image after them, `[B, 10, h, w, C]` (its ten_crop). Dense, ragged or encoded images; an
    image smaller than `size` is refused (at graph construction where the size is static)."""
    h, w = check_size(size)
    images, dims, _, whole = _decoded(images, tg.Targets())
    for axis, side in ((0, h), (1, w)):
        static = images.shape[1 + axis]
        if static is not None and static < side:
            raise ValueError(f"{name}: size {(h, w)} is larger than the images ({images.shape[1]} x "
                             f"{images.shape[2]}); crop a smaller size or resize first")
    room = dims - tf.constant([[h, w]], tf.int32)
    images = _needs_room(images, room, f"{name}_needs_images_at_least_size")
    zero = tf.zeros_like(room[:, :1])
    corners = [tf.concat([zero, zero], 1), tf.concat([zero, room[:, 1:]], 1), tf.concat([room[:, :1], zero], 1),
               room, tf.cast(tf.round(tf.cast(room, tf.float32) / 2.0), tf.int32)]
    flips = [None] if flip_axis is None else [None, flip_axis]
    # concat, not stack: TensorFlow's GPU Pack has no uint8 kernel (ConcatV2 has)
    return tf.concat([pad_crop(images, dims, corner, (h, w), "edge", 0.0, flip_axis=flip, whole=whole,
                               inside=True)[:, tf.newaxis]
                      for flip in flips for corner in corners], axis=1)


class FiveCrop(Transform):
    """torchvision's FiveCrop: the four corner `size` windows and the centre one of each image,
    as `[B, 5, h, w, C]` (torchvision's order: top left, top right, bottom left, bottom right,
    centre). The same in training and inference. Boxes, masks and keypoints are not moved, as
    torchvision's; fold the crops into the batch for a model (`tf.reshape(x, [-1, h, w, C])`) and
    average its predictions back.

    Args:
      size: the windows' (height, width), or one int for a square; at most the images' size.
    """

    decodes = True
    accepts_float = True
    _flip_axis: Optional[int] = None
    _crops = 5

    def __init__(self, size: Size):
        super().__init__(None)
        check_size(size)
        self.size = size

    def __call__(self, images, seed: Seed = None, training: bool = True):
        del seed, training
        return multi_crop(images, self.size, self._flip_axis, type(self).__name__)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], self._crops, *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size)


class TenCrop(FiveCrop):
    """torchvision's TenCrop: `FiveCrop`'s five windows, then the same five of the image flipped
    left to right (top to bottom with `vertical_flip`), as `[B, 10, h, w, C]`. The second five
    are windows of the flipped image, as torchvision's, so their centre keeps its rounding.

    Args:
      size: the windows' (height, width), or one int for a square; at most the images' size.
      vertical_flip: flip top to bottom instead of left to right.
    """

    _crops = 10

    def __init__(self, size: Size, vertical_flip: bool = False):
        super().__init__(size)
        self.vertical_flip = bool(vertical_flip)
        self._flip_axis = 0 if self.vertical_flip else 1

    def get_config(self) -> dict:
        return dict(size=self.size, vertical_flip=self.vertical_flip)
