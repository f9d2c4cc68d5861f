"""Padding and padded fixed-size crops: torchvision's Pad and RandomCrop (with `padding`,
`pad_if_needed` and its four padding modes) and Albumentations' PadIfNeeded.

One engine does all three (`pad_crop`): each output row and column is an index into the input,
mapped by the border rule where it falls outside, so a pad, a crop or both are two gathers
(rows, then columns) and, for constant padding, one select. Dense uint8 batches take faster
roads to the same pixels: the fused warp kernel (nearest) where only a constant lies outside,
after padding by slices and reversals where a mirror or edge rule does. Boxes and keypoints
move by the window's offset (then clipped and filtered as everywhere here), masks take the same
rows and columns with their own fill.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import _checks, _loader, geometry
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed, Size
from tfgpuaug.targeted_crops import _random_int
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput, _channels, _decode_with_masks, _hw

# torchvision's padding_mode names (RandomCrop, Pad) and OpenCV's border names (PadIfNeeded),
# each to the rule below: torchvision's "reflect" is OpenCV's reflect_101 (the edge pixel is
# not repeated), its "symmetric" OpenCV's reflect (repeated).
PADDING_MODES = ("constant", "edge", "reflect", "symmetric")
BORDER_MODES = ("constant", "replicate", "reflect", "wrap", "reflect_101")
_RULE_OF_PADDING_MODE = {"constant": "constant", "edge": "edge", "reflect": "reflect_101", "symmetric": "symmetric"}
_RULE_OF_BORDER_MODE = {"constant": "constant", "replicate": "edge", "reflect": "symmetric", "wrap": "wrap",
                        "reflect_101": "reflect_101"}
POSITIONS = ("center", "top_left", "top_right", "bottom_left", "bottom_right", "random")

Fill = Union[float, Sequence[float]]

# TensorFlow's GPU GatherV2 has no kernel for these types; the gathers move them as a type it
# has that holds every value exactly (float16 is exact on 0..2048), so a GPU-placed stage keeps
# them on the GPU.
_GATHER_CARRIERS = {tf.uint8: tf.float16, tf.int8: tf.float16, tf.uint16: tf.int32, tf.int16: tf.int32}


def _border_index(i: tf.Tensor, n: tf.Tensor, rule: str) -> tf.Tensor:
    """Positions `i` [B, L] of an axis of length `n` [B, 1] (>= 1) mapped into [0, n) by `rule`."""
    if rule in ("constant", "edge"):
        return tf.clip_by_value(i, 0, n - 1)
    if rule == "wrap":
        return tf.math.floormod(i, n)
    if rule == "reflect_101":
        period = tf.maximum(2 * (n - 1), 1)
        j = tf.math.floormod(i, period)
        return tf.where(j < n, j, period - j)
    period = 2 * n  # symmetric
    j = tf.math.floormod(i, period)
    return tf.where(j < n, j, period - 1 - j)


def _fill_value(fill: Fill, dtype: tf.DType, what: str) -> tf.Tensor:
    """`fill` (a number or one per channel) as a tensor of `dtype`; a uint8 fill must be a level."""
    value = tf.constant(fill, tf.float32)
    if dtype == tf.uint8:
        levels = [fill] if isinstance(fill, (int, float)) else list(fill)
        if not all(0.0 <= float(v) <= 255.0 and float(v) == int(v) for v in levels):
            raise ValueError(f"{what} must be whole levels in [0, 255] for uint8 images, got {fill}")
    return tf.cast(value, dtype)


def _warp_window(images: tf.Tensor, corner: tf.Tensor, size, fill: float, flip_axis: Optional[int]) -> tf.Tensor:
    """pad_crop of whole uint8 images with constant padding by the fused warp kernel, nearest:
    output pixel centre j + 1/2 maps to corner + j + 1/2 (flipped: size_of_axis - corner - j -
    1/2), whose nearest pixel is exactly the one the gathers take."""
    c = tf.cast(corner, tf.float32)
    n = tf.shape(corner)[0]
    hw = tf.cast(tf.shape(images)[1:3], tf.float32)
    one, zero = tf.ones([n]), tf.zeros([n])
    sy, sx = (-one if flip_axis == 0 else one), (-one if flip_axis == 1 else one)
    ty = hw[0] - c[:, 0] if flip_axis == 0 else c[:, 0]
    tx = hw[1] - c[:, 1] if flip_axis == 1 else c[:, 1]
    matrices = tf.stack([tf.stack([sx, zero, tx], -1), tf.stack([zero, sy, ty], -1)], axis=1)
    out = _loader.ops().tf_gpu_aug_warp_affine(images, matrices, tf.cast(tf.stack(size), tf.int32),
                                               interpolation="nearest", fill_value=fill)
    static = [v if isinstance(v, int) else None for v in size]
    out.set_shape([images.shape[0], *static, images.shape[3]])
    return out


_MAX_EDGE_COPIES = 64  # edge padding by slices repeats the edge row this many times at most


def _padded_by_slices(images: tf.Tensor, margins: Tuple[int, int, int, int], rule: str) -> Optional[tf.Tensor]:
    """`images` padded by `margins` (top, bottom, left, right) under `rule` with slices, reversals
    and concatenations (all with 8-bit GPU kernels, unlike MirrorPad), or None where a margin is
    past what one mirror reaches (or the sizes are not static)."""
    h, w = images.shape[1], images.shape[2]
    if h is None or w is None:
        return None
    reach = {"reflect_101": (h - 1, w - 1), "symmetric": (h, w), "edge": (_MAX_EDGE_COPIES,) * 2}.get(rule)
    top, bottom, left, right = margins
    if reach is None or max(top, bottom) > reach[0] or max(left, right) > reach[1]:
        return None

    def pad_axis(x, axis, before, after, n):
        def take(start, stop):
            return x[:, start:stop] if axis == 1 else x[:, :, start:stop]
        if rule == "edge":
            parts = [take(0, 1)] * before + [x] + [take(n - 1, n)] * after
        else:
            skip = 1 if rule == "reflect_101" else 0  # reflect_101 does not repeat the edge
            parts = [tf.reverse(take(skip, skip + before), [axis]), x,
                     tf.reverse(take(n - skip - after, n - skip), [axis])]
        return tf.concat([p for p in parts if p.shape[axis] != 0], axis=axis)

    return pad_axis(pad_axis(images, 1, top, bottom, h), 2, left, right, w)


def pad_crop(images: tf.Tensor, dims: tf.Tensor, corner: tf.Tensor, size, rule: str, fill: Fill,
             what: str = "fill", flip_axis: Optional[int] = None, whole: bool = False,
             inside: bool = False, margins: Optional[Tuple[int, int, int, int]] = None) -> tf.Tensor:
    """Per sample, the `size` window at `corner` [B, 2] (y, x; may lie partly or wholly outside)
    of images `[B, H, W, C]` whose own sizes are `dims` [B, 2] (int32, <= H, W: a padded ragged
    batch keeps its samples' sizes), the outside read by `rule` ("constant": `fill`);
    `flip_axis` 0 or 1: the window of each image flipped along that axis (rows or columns).
    `whole`: every image fills the tensor (no ragged padding); `inside`: every window lies
    inside its image; `margins` (top, bottom, left, right): how far any window reaches past its
    image, where the caller knows it. Whole uint8 images whose windows need no border rule but
    a constant go through the fused warp kernel (about 3x the gathers' speed on the CPU), and
    so do those a mirror or edge padding by slices covers (then the windows lie inside it); the
    rest go through the gathers."""
    h, w = size
    scalar_fill = isinstance(fill, (int, float))
    channels = images.shape[-1]
    if not scalar_fill and channels is not None and len(fill) not in (1, channels):
        raise ValueError(f"{what} has {len(fill)} values for {channels}-channel images; give one number or one "
                         "per channel")
    if whole and images.dtype == tf.uint8 and (inside or (rule == "constant" and scalar_fill)):
        _fill_value(fill, images.dtype, what)  # the level check
        return _warp_window(images, corner, size, float(fill) if scalar_fill else 0.0, flip_axis)
    if whole and images.dtype == tf.uint8 and margins is not None and flip_axis is None and rule != "constant":
        padded = _padded_by_slices(images, margins, rule)
        if padded is not None:
            return _warp_window(padded, corner + tf.constant([[margins[0], margins[2]]], tf.int32), size, 0.0, None)
    rows = corner[:, :1] + tf.range(h)[tf.newaxis]  # [B, h]
    cols = corner[:, 1:] + tf.range(w)[tf.newaxis]
    if flip_axis == 0:
        rows = dims[:, :1] - 1 - rows
    elif flip_axis == 1:
        cols = dims[:, 1:] - 1 - cols
    dtype = images.dtype
    carrier = _GATHER_CARRIERS.get(dtype, dtype)
    out = tf.gather(tf.cast(images, carrier), _border_index(rows, dims[:, :1], rule), axis=1, batch_dims=1)
    out = tf.gather(out, _border_index(cols, dims[:, 1:], rule), axis=2, batch_dims=1)
    if rule == "constant":
        inside_rows = (rows >= 0) & (rows < dims[:, :1])
        inside_cols = (cols >= 0) & (cols < dims[:, 1:])
        inside = inside_rows[:, :, tf.newaxis, tf.newaxis] & inside_cols[:, tf.newaxis, :, tf.newaxis]
        out = tf.where(inside, out, tf.cast(_fill_value(fill, dtype, what), carrier))
    return tf.cast(out, dtype)


def check_size(size: Size) -> Tuple[int, int]:
    """`size` (one int or (height, width)) as two ints >= 1, or a ValueError."""
    h, w = _hw(size)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (h, w)):
        raise ValueError(f"size must be positive integers (height, width), got {size!r}")
    return h, w


def _padding_sides(padding, name: str = "padding") -> Tuple[int, int, int, int]:
    """torchvision's padding forms as (left, top, right, bottom): one int for all sides, two
    (left/right, top/bottom) or four (left, top, right, bottom); none negative."""
    if padding is None:
        return (0, 0, 0, 0)
    values = [padding] if isinstance(padding, int) else list(padding) if hasattr(padding, "__iter__") else None
    if (values is None or len(values) not in (1, 2, 4)
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)):
        raise ValueError(f"{name} must be an int >= 0 or a sequence of 2 (left/right, top/bottom) or 4 (left, top, "
                         f"right, bottom) of them, got {padding!r}")
    if len(values) == 1:
        values = values * 4
    elif len(values) == 2:
        values = values * 2
    return tuple(values)


def _check_fill(fill: Fill, name: str) -> Fill:
    if isinstance(fill, (int, float)) and not isinstance(fill, bool):
        return float(fill)
    if hasattr(fill, "__iter__") and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in fill):
        return tuple(float(v) for v in fill)
    raise ValueError(f"{name} must be a number or one number per channel, got {fill!r}")


def _decoded(images, targets: tg.Targets):
    """(images [B, H, W, C] dense, their sizes [B, 2] int32, targets with dense masks, whether
    every image fills the tensor: False for a ragged batch, padded here)."""
    if geometry._is_encoded(images) or (targets.masks is not None and geometry._is_encoded(targets.masks)):
        images, targets = _decode_with_masks(images, targets)
    dims = tf.cast(tg.image_sizes(images), tf.int32)
    whole = not isinstance(images, tf.RaggedTensor)
    if not whole:
        images = images.to_tensor()
    images = tf.convert_to_tensor(images)
    geometry._checks.static_rank("images", images, (4,))
    if isinstance(targets.masks, tf.RaggedTensor):
        targets = targets.replace(masks=targets.masks.to_tensor())
    return images, dims, targets, whole


def _window_with_targets(images, dims, targets: tg.Targets, corner, size, rule: str, fill: Fill,
                         fill_mask: Fill, whole: bool, margins: Optional[Tuple[int, int, int, int]]) -> TransformOutput:
    out = pad_crop(images, dims, corner, size, rule, fill, whole=whole, margins=margins)
    if targets is None or not targets.moves:
        return out, targets
    masks = targets.masks
    if masks is not None:
        masks = pad_crop(masks, dims, corner, size, rule, fill_mask, "fill_mask", whole=whole, margins=margins)
    box = tf.concat([tf.cast(corner, tf.float32), tf.cast(tf.ones_like(corner) * tf.stack(size), tf.float32)], 1)
    out_hw = tf.cast(tf.tile(tf.reshape(tf.stack(size), [1, 2]), [tf.shape(corner)[0], 1]), tf.float32)
    return out, targets.replace(masks=masks).affine(tg.crop_resize_matrices(box, size[0], size[1]), out_hw)


def _needs_room(images: tf.Tensor, room: tf.Tensor, name: str) -> tf.Tensor:
    """`images`, failing at run time (naming `name`) unless every sample's `room` [B, 2] >= 0."""
    return _checks.run_time(images, tf.reduce_all(room >= 0), name)


class RandomCrop(Transform):
    """torchvision's RandomCrop: a `size` window at a uniformly random position, after optional
    `padding` of every side; with `pad_if_needed`, a side shorter than `size` (after `padding`)
    is padded by the shortfall on both ends, as torchvision does. Boxes, masks and keypoints
    follow. Inference (`training=False`): the centred window of the padded image (torchvision's
    CenterCrop rounding).

    The CIFAR recipe `RandomCrop(32, padding=4)` is the classic use. Takes dense or ragged
    uint8 or float images (ragged ones come out dense, `size`), or encoded bytes (decoded whole).

    Args:
      size: output (height, width), or one int for a square.
      padding: pixels added to the sides first: one int for all, (left/right, top/bottom), or
        (left, top, right, bottom), torchvision's order; None: none.
      pad_if_needed: pad an image smaller than `size` instead of refusing it (torchvision's
        rule: the shortfall added to both ends of the axis).
      fill: the constant padding's value (a number or one per channel; whole levels for uint8).
      padding_mode: torchvision's names: "constant" (`fill`), "edge" (the last pixel
        repeated), "reflect" (mirrored without repeating the edge pixel: OpenCV's
        reflect_101), "symmetric" (mirrored with it: OpenCV's reflect).
      fill_mask: the constant padding's value in masks.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    decodes = True
    accepts_float = True

    def __init__(self, size: Size, padding: Union[None, int, Sequence[int]] = None, pad_if_needed: bool = False,
                 fill: Fill = 0.0, padding_mode: str = "constant", fill_mask: Fill = 0.0,
                 seed: Optional[int] = None):
        super().__init__(seed)
        check_size(size)
        geometry._checks.one_of("padding_mode", padding_mode, PADDING_MODES)
        self.size, self.padding, self.pad_if_needed = size, padding, bool(pad_if_needed)
        self._sides = _padding_sides(padding)
        self.fill, self.fill_mask = _check_fill(fill, "fill"), _check_fill(fill_mask, "fill_mask")
        self.padding_mode = padding_mode

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        targets = tg.Targets() if targets is None else targets
        images, dims, targets, whole = _decoded(images, targets)
        size = _hw(self.size)
        left, top, right, bottom = self._sides
        before = tf.tile(tf.constant([[top, left]], tf.int32), [tf.shape(dims)[0], 1])
        padded = dims + tf.constant([top + bottom, left + right], tf.int32)
        if self.pad_if_needed:
            shortfall = tf.maximum(tf.constant([size], tf.int32) - padded, 0)
            before, padded = before + shortfall, padded + 2 * shortfall
        else:
            static = images.shape[1:3]
            for axis, name in ((0, "height"), (1, "width")):
                if static[axis] is not None:
                    if static[axis] + self._sides[1 - axis] + self._sides[3 - axis] < size[axis]:
                        raise ValueError(f"RandomCrop: the images' {name} ({static[axis]}, padded "
                                         f"{static[axis] + self._sides[1 - axis] + self._sides[3 - axis]}) is "
                                         f"smaller than size {size}; pass pad_if_needed=True or a smaller size")
            images = _needs_room(images, padded - tf.constant([size], tf.int32),
                                 "RandomCrop_needs_images_at_least_size_after_padding_or_pad_if_needed")
        room = tf.cast(padded - tf.constant([size], tf.int32), tf.float32)
        if training:
            u = tf.random.stateless_uniform(tf.shape(room), self._next_seed(seed))
            at = _random_int(u, 0.0, room)
        else:
            at = tf.round(room / 2.0)  # half to even, as torchvision's CenterCrop's round()
        corner = tf.cast(at, tf.int32) - before
        margins = None  # how far a window can reach past the image, where the sizes are static
        if whole and None not in images.shape[1:3]:
            grow = [max(size[k] - images.shape[1 + k] - self._sides[1 - k] - self._sides[3 - k], 0)
                    if self.pad_if_needed else 0 for k in (0, 1)]
            margins = (top + grow[0], bottom + grow[0], left + grow[1], right + grow[1])
        out, targets = _window_with_targets(images, dims, targets, corner, size,
                                            _RULE_OF_PADDING_MODE[self.padding_mode], self.fill, self.fill_mask,
                                            whole, margins)
        return out, targets

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, padding=self.padding, pad_if_needed=self.pad_if_needed, fill=self.fill,
                    padding_mode=self.padding_mode, fill_mask=self.fill_mask, seed=self.seed)


def _dense_batch(images, name: str) -> tf.Tensor:
    if geometry._is_encoded(images) or isinstance(images, tf.RaggedTensor):
        raise ValueError(f"{name} takes a dense batch [B, H, W, C] (its output has one size only then); decode and "
                         "resize first, or use RandomCrop(size, pad_if_needed=True) for a fixed output size")
    images = tf.convert_to_tensor(images)
    geometry._checks.static_rank("images", images, (4,))
    return images


class _Padder(Transform):
    """Shared by Pad and PadIfNeeded: the whole image placed at `before` [B, 2] (top, left) in
    a canvas of `size` (height, width), the rest read by the border rule."""

    accepts_float = True

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def _placement(self, hw: tf.Tensor, n: tf.Tensor, seed: Seed, training: bool) -> Tuple[tf.Tensor, list]:
        """(before [B, 2], output size [height, width]) for images of size `hw` [2]."""
        raise NotImplementedError

    def _margins(self, static_hw) -> Optional[Tuple[int, int, int, int]]:
        """How far the canvas reaches past the image (top, bottom, left, right), where the
        images' size is static; None otherwise."""
        raise NotImplementedError

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        targets = tg.Targets() if targets is None else targets
        images = _dense_batch(images, type(self).__name__)
        if targets.masks is not None:
            targets = targets.replace(masks=_dense_batch(targets.masks, type(self).__name__ + "'s masks"))
        shape = tf.shape(images)
        dims = tf.tile(shape[tf.newaxis, 1:3], [shape[0], 1])
        before, size = self._placement(shape[1:3], shape[0], seed, training)
        out, targets = _window_with_targets(images, dims, targets, -before, size, self._rule, self.fill,
                                            self.fill_mask, True, self._margins(images.shape[1:3]))
        out.set_shape(self.output_shape(images.shape))  # the sizes that are known before the run
        return out, targets


class Pad(_Padder):
    """torchvision's Pad: every image padded by `padding` on its sides, the same in training and
    inference. Boxes, masks and keypoints follow. Takes a dense uint8 or float batch.

    Args:
      padding: one int for all sides, (left/right, top/bottom), or (left, top, right, bottom),
        torchvision's order.
      fill: the constant padding's value (a number or one per channel; whole levels for uint8).
      padding_mode: torchvision's names: "constant" (`fill`), "edge", "reflect" (OpenCV's
        reflect_101: the edge pixel not repeated), "symmetric" (OpenCV's reflect).
      fill_mask: the constant padding's value in masks.
    """

    def __init__(self, padding: Union[int, Sequence[int]], fill: Fill = 0.0, padding_mode: str = "constant",
                 fill_mask: Fill = 0.0):
        super().__init__(None)
        geometry._checks.one_of("padding_mode", padding_mode, PADDING_MODES)
        self.padding, self._sides = padding, _padding_sides(padding)
        self.fill, self.fill_mask = _check_fill(fill, "fill"), _check_fill(fill_mask, "fill_mask")
        self.padding_mode, self._rule = padding_mode, _RULE_OF_PADDING_MODE[padding_mode]

    def _margins(self, static_hw):
        left, top, right, bottom = self._sides
        return (top, bottom, left, right)

    def _placement(self, hw, n, seed, training):
        left, top, right, bottom = self._sides
        return tf.tile(tf.constant([[top, left]], tf.int32), [n, 1]), [hw[0] + top + bottom, hw[1] + left + right]

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        left, top, right, bottom = self._sides
        grow = lambda v, extra: None if v is None else v + extra  # noqa: E731
        return (input_shape[0], grow(input_shape[1], top + bottom), grow(input_shape[2], left + right),
                _channels(input_shape))

    def get_config(self) -> dict:
        return dict(padding=self.padding, fill=self.fill, padding_mode=self.padding_mode, fill_mask=self.fill_mask)


class PadIfNeeded(_Padder):
    """Albumentations' PadIfNeeded: each axis padded up to `min_height` / `min_width` (the
    shortfall split evenly, the extra pixel after), or up to the next multiple of
    `pad_height_divisor` / `pad_width_divisor`; `position` moves the image to a side or
    corner of the canvas, or to a uniformly random place per sample ("random"; inference:
    "center"). Boxes, masks and keypoints follow. Takes a dense uint8 or float batch.

    Args:
      min_height: the least output height; None with `pad_height_divisor`.
      min_width: the least output width; None with `pad_width_divisor`.
      pad_height_divisor: pad the height to a multiple of this instead.
      pad_width_divisor: pad the width to a multiple of this instead.
      position: "center", "top_left", "top_right", "bottom_left", "bottom_right" or "random".
      border_mode: OpenCV's names, as Albumentations': "constant" (`fill`), "replicate",
        "reflect" (the edge pixel repeated), "wrap" or "reflect_101".
      fill: the constant padding's value (a number or one per channel; whole levels for uint8).
      fill_mask: the constant padding's value in masks.
      seed: seed of the "random" position's draws when called without one; None: random.
    """

    def __init__(self, min_height: Optional[int] = 1024, min_width: Optional[int] = 1024,
                 pad_height_divisor: Optional[int] = None, pad_width_divisor: Optional[int] = None,
                 position: str = "center", border_mode: str = "constant", fill: Fill = 0.0, fill_mask: Fill = 0.0,
                 seed: Optional[int] = None):
        super().__init__(seed)
        for axis, least, divisor in (("height", min_height, pad_height_divisor),
                                     ("width", min_width, pad_width_divisor)):
            if (least is None) == (divisor is None):
                raise ValueError(f"PadIfNeeded takes exactly one of min_{axis} and pad_{axis}_divisor, got "
                                 f"min_{axis}={least!r}, pad_{axis}_divisor={divisor!r}")
            value = least if divisor is None else divisor
            if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
                raise ValueError(f"min_{axis} and pad_{axis}_divisor must be ints >= 1, got {value!r}")
        geometry._checks.one_of("position", position, POSITIONS)
        geometry._checks.one_of("border_mode", border_mode, BORDER_MODES)
        self.min_height, self.min_width = min_height, min_width
        self.pad_height_divisor, self.pad_width_divisor = pad_height_divisor, pad_width_divisor
        self.position, self.border_mode, self._rule = position, border_mode, _RULE_OF_BORDER_MODE[border_mode]
        self.fill, self.fill_mask = _check_fill(fill, "fill"), _check_fill(fill_mask, "fill_mask")

    @staticmethod
    def _total(n: tf.Tensor, least: Optional[int], divisor: Optional[int]) -> tf.Tensor:
        if least is not None:
            return tf.maximum(least - n, 0)
        return tf.math.floormod(-n, divisor)

    def _margins(self, static_hw):
        if None in tuple(static_hw):
            return None
        h, w = (int(v) for v in static_hw)
        th = max(self.min_height - h, 0) if self.min_height is not None else -h % self.pad_height_divisor
        tw = max(self.min_width - w, 0) if self.min_width is not None else -w % self.pad_width_divisor
        return (th, th, tw, tw)  # any position of the image in the canvas

    def _placement(self, hw, n, seed, training):
        total = tf.stack([self._total(hw[0], self.min_height, self.pad_height_divisor),
                          self._total(hw[1], self.min_width, self.pad_width_divisor)])
        position = self.position if training or self.position != "random" else "center"
        if position == "random":
            u = tf.random.stateless_uniform(tf.stack([n, 2]), self._next_seed(seed))
            room = tf.cast(total, tf.float32)
            before = tf.cast(_random_int(u, 0.0, room), tf.int32)
        else:
            first = {"center": total // 2, "top_left": tf.zeros_like(total), "top_right": total * [0, 1],
                     "bottom_left": total * [1, 0], "bottom_right": total}[position]
            before = tf.tile(first[tf.newaxis], [n, 1])
        return before, [hw[0] + total[0], hw[1] + total[1]]

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        def grown(v, least, divisor):
            if v is None:
                return None
            return max(v, least) if least is not None else v + (-v) % divisor
        return (input_shape[0], grown(input_shape[1], self.min_height, self.pad_height_divisor),
                grown(input_shape[2], self.min_width, self.pad_width_divisor), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(min_height=self.min_height, min_width=self.min_width,
                    pad_height_divisor=self.pad_height_divisor, pad_width_divisor=self.pad_width_divisor,
                    position=self.position, border_mode=self.border_mode, fill=self.fill, fill_mask=self.fill_mask,
                    seed=self.seed)
