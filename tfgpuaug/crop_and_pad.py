"""Albumentations' CropAndPad (with keep_size, its default): per sample, each side of the image
is cropped (a negative amount) or padded (a positive one) by pixels or by a fraction of the
side, and the result is resized back to the input size.

Albumentations crops, pads with an OpenCV border rule (cv2.copyMakeBorder of the cropped
image), then cv2.resize's. Here the same three steps are one separable resampling (the
SeparableResample kernel for uint8, one pass on the CPU or the GPU): each output
column reads two columns of the crop-and-pad canvas at cv2.resize's coordinates (half-pixel
centres, clamped at the canvas's edges), and each canvas column is a column of the cropped
window or of its border by OpenCV's rule, or the fill. Rows likewise. So the taps are exactly
Albumentations'; the blend is in float32 where cv2.resize uses 11-bit fixed-point weights (at
most one level apart). Masks take cv2.resize's nearest rule (floor(x * canvas / size)) with
`fill_mask`; boxes and keypoints move with the canvas (boxes clipped and filtered as every crop
here; keypoints outside stay until `SanitizeKeyPoints`)."""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader, geometry
from tfgpuaug import targets as tg
from tfgpuaug.distortions import BORDER_MODES
from tfgpuaug.transforms import TransformOutput, _PerSample

Side = Union[int, float, Sequence[Union[int, float]]]
_MAX_PX = 1 << 20  # a pad beyond a million pixels is a mistake, not an augmentation


class _SideDraw(NamedTuple):
    """How one side's amount is drawn: "fixed" (values[0]), "range" [values[0], values[1])
    (integers) or [values[0], values[1]] (fractions), or "choice" among values."""
    kind: str
    values: Tuple[float, ...]


def _side(name: str, spec, integer: bool) -> _SideDraw:
    kind_ok = (lambda v: isinstance(v, int) and not isinstance(v, bool)) if integer else \
        (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool))
    what = "an integer" if integer else "a fraction"
    if kind_ok(spec):
        values: Tuple[float, ...] = (float(spec),)
        kind = "fixed"
    elif isinstance(spec, (list, tuple)) and len(spec) >= 1 and all(kind_ok(v) for v in spec):
        values = tuple(float(v) for v in spec)
        kind = "range" if len(spec) == 2 else "choice"
        if integer and kind == "range" and not values[0] < values[1]:
            raise ValueError(f"{name} range (a, b) draws integers a <= v < b (Albumentations' randrange), so a < b; "
                             f"got {spec!r}")
    else:
        raise ValueError(f"{name} must be {what}, a (min, max) pair or a list of choices per side, got {spec!r}")
    limit = _MAX_PX if integer else 64.0
    if any(not abs(v) <= limit for v in values):
        raise ValueError(f"{name} amounts must be within +-{limit:g}, got {spec!r}")
    return _SideDraw(kind, values)


def parse_sides(name: str, spec, integer: bool) -> Tuple[List[_SideDraw], bool]:
    """Albumentations' `px`/`percent` forms as four side draws (top, right, bottom, left), and
    whether a single (min, max) pair draws for every side separately (else the four are given)."""
    if isinstance(spec, (list, tuple)) and len(spec) == 4:
        return [_side(f"{name}[{k}]", s, integer) for k, s in enumerate(spec)], False
    if isinstance(spec, (list, tuple)) and len(spec) != 2:
        raise ValueError(f"{name} must be one amount, a (min, max) pair or four per-side amounts (top, right, "
                         f"bottom, left), got {spec!r}")
    return [_side(name, spec, integer)] * 4, True


def _draw(side: _SideDraw, u: tf.Tensor, integer: bool) -> tf.Tensor:
    """The side's amounts for uniforms `u` `[n]` (float64)."""
    v = tf.constant(side.values, tf.float64)
    if side.kind == "fixed":
        return tf.fill(tf.shape(u), v[0])
    if side.kind == "choice":
        index = tf.minimum(tf.cast(tf.floor(u * len(side.values)), tf.int32), len(side.values) - 1)
        return tf.gather(v, index)
    if integer:  # randrange(a, b): a <= v < b
        return tf.minimum(v[0] + tf.floor(u * (v[1] - v[0])), v[1] - 1.0)
    return v[0] + u * (v[1] - v[0])


def _prevent_zero(a: tf.Tensor, b: tf.Tensor, size: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    """Albumentations' CropAndPad.__prevent_zero on crops `a`, `b` `[n]` of an axis of `size`
    where they leave no pixel (its arithmetic as it is, regaining size + 1 pixels)."""
    regain = size + 1
    r1 = regain // 2 + regain % 2
    r2 = regain // 2
    first = r1 > a
    second = ~first & (r2 > b)
    n1 = tf.where(first, a, tf.where(second, r1 + (r2 - b), r1))
    n2 = tf.where(first, r2 + (r1 - a), tf.where(second, b, r2))
    empty = size - (a + b) < 1
    return tf.maximum(tf.where(empty, a - n1, a), 0), tf.maximum(tf.where(empty, b - n2, b), 0)


def _border_index(i: tf.Tensor, n: tf.Tensor, mode: str) -> tf.Tensor:
    """OpenCV's borderInterpolate of indices `i` along windows of `n` pixels (-1: the fill)."""
    inside = (i >= 0) & (i < n)
    if mode == "constant":
        return tf.where(inside, i, -1)
    if mode == "replicate":
        return tf.clip_by_value(i, 0, n - 1)
    if mode == "wrap":
        return tf.math.floormod(i, n)
    if mode == "reflect":
        j = tf.math.floormod(tf.where(i < 0, -i - 1, i), 2 * n)
        return tf.where(j >= n, 2 * n - 1 - j, j)
    period = tf.maximum(2 * n - 2, 1)  # reflect_101; a one-pixel window reads its pixel
    j = tf.math.floormod(tf.abs(i), period)
    return tf.where(n == 1, 0, tf.where(j >= n, period - j, j))


class _AxisTaps(NamedTuple):
    low: tf.Tensor  # [n, size] int32 source index of the first tap, -1 for the fill
    high: tf.Tensor  # [n, size] the second tap
    weight: tf.Tensor  # [n, size] float32 weight of the second tap


def resize_positions(canvas: tf.Tensor, size, linear: bool) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """cv2.resize's reads along one axis of `canvas` [n] pixels resampled to `size` positions: each
    position's two source indices [n, size] (int32) and the second one's weight (float32)."""
    scale = tf.cast(canvas, tf.float64)[:, tf.newaxis] / tf.cast(size, tf.float64)  # [n, 1]
    d = tf.cast(tf.range(size), tf.float64)[tf.newaxis, :]
    last = canvas[:, tf.newaxis] - 1
    if linear:  # cv2.resize INTER_LINEAR: float32 coordinate, clamped at the canvas's edges
        f = tf.cast((d + 0.5) * scale - 0.5, tf.float32)
        j = tf.cast(tf.floor(f), tf.int32)
        frac = f - tf.floor(f)
        clamp = (j < 0) | (j >= last)
        j = tf.clip_by_value(j, 0, last)
        frac = tf.where(clamp, 0.0, frac)
        return j, tf.minimum(j + 1, last), frac
    # cv2.resize INTER_NEAREST: floor(x * scale)
    j = tf.minimum(tf.cast(tf.floor(d * scale), tf.int32), last)
    return j, j, tf.zeros(tf.shape(j), tf.float32)


def resize_taps(canvas: tf.Tensor, size, linear: bool) -> _AxisTaps:
    """`resize_positions` as taps for `separable_resample` (a plain resize: no crop, no border)."""
    return _AxisTaps(*resize_positions(canvas, size, linear))


def _axis_taps(size: tf.Tensor, crop_lo, crop_hi, pad_lo, pad_hi, border_mode: str, linear: bool) -> _AxisTaps:
    """Per sample, where each of `size` output positions reads the input along one axis."""
    window = size - crop_lo - crop_hi  # [n], at least 1
    j, j1, frac = resize_positions(window + pad_lo + pad_hi, size, linear)

    def source(k):
        index = _border_index(k - pad_lo[:, tf.newaxis], window[:, tf.newaxis], border_mode)
        return tf.where(index < 0, -1, index + crop_lo[:, tf.newaxis])

    return _AxisTaps(source(j), source(j1), frac)


def _resample(images: tf.Tensor, rows: _AxisTaps, cols: _AxisTaps, fill: float) -> tf.Tensor:
    """Rows then columns: two gathers and a lerp per axis (float32, any channel count)."""
    def along(x, taps: _AxisTaps, axis: int):
        def take(index):
            got = tf.gather(x, tf.maximum(index, 0), axis=axis, batch_dims=1)
            shape = [-1, 1, 1, 1]
            shape[axis] = tf.shape(index)[1]
            return tf.where(tf.reshape(index, shape) < 0, fill, got)
        a = take(taps.low)
        shape = [-1, 1, 1, 1]
        shape[axis] = tf.shape(taps.weight)[1]
        w = tf.reshape(taps.weight, shape)
        return a + (take(taps.high) - a) * w

    return along(along(images, rows, 1), cols, 2)


def separable_resample(images: tf.Tensor, rows: _AxisTaps, cols: _AxisTaps, fill: float) -> tf.Tensor:
    """`_resample` for uint8 images by the SeparableResample kernel (CPU and GPU, one pass, the
    same float lerps, rounded half to even); other dtypes through TensorFlow gathers."""
    if images.dtype != tf.uint8:
        out = _resample(tf.cast(images, tf.float32), rows, cols, fill)
        return out if images.dtype.is_floating else tf.cast(out, images.dtype)
    return _loader.ops().tf_gpu_aug_separable_resample(
        images, tf.stack([rows.low, rows.high], axis=-1), rows.weight, tf.stack([cols.low, cols.high], axis=-1),
        cols.weight, fill_value=float(fill))


class CropAndPad(_PerSample):
    """Albumentations' CropAndPad: per sample, each side (top, right, bottom, left) is cropped by
    a negative amount or padded by a positive one, in pixels (`px`) or fractions of the side
    (`percent`: int(fraction * height) for top and bottom, of the width for the sides), the pad
    filled by OpenCV's `border_mode`; the result is resized back to the input size (keep_size).
    Crops never leave less than a pixel (Albumentations' own correction, applied as it is).

    Albumentations' amount forms: one value for every side; a (min, max) pair drawn for each side
    (integers min <= v < max, as its randrange; fractions uniform), or once for all sides when
    `sample_independently` is False; four per-side values, pairs or lists of choices. The taps
    are Albumentations' (see the module); the bilinear blend is float32 where cv2.resize uses
    fixed-point weights (at most one level apart). Masks follow by cv2.resize's nearest rule with
    `fill_mask`, boxes and keypoints move with the canvas (boxes clipped and filtered). Images
    uint8 or float32. Inference leaves everything alone.

    Args:
      px: pixels per side (negative crops, positive pads): an int, a (min, max) pair or four
        per-side values (top, right, bottom, left), each an int, a pair or a list of choices.
      percent: the same as fractions of the side's length; give `px` or `percent`.
      keep_size: must be True (the output keeps the input's size): a batch here has one size,
        where keep_size=False would give each sample its own.
      sample_independently: with one (min, max) pair, draw each side's amount separately (True)
        or one amount for all four.
      interpolation: "bilinear" (cv2.INTER_LINEAR) or "nearest" (cv2.INTER_NEAREST).
      border_mode: the pad: "constant" (`fill`), "replicate", "reflect", "wrap" or "reflect_101".
      fill: the pad's value for "constant".
      fill_mask: the masks' pad value for "constant".
      probability: probability that a sample is cropped and padded (Albumentations' p, default 1).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> tga.CropAndPad(percent=(-0.1, 0.1), border_mode="reflect_101")
      >>> tga.CropAndPad(px=((-8, 8), 0, (-8, 8), 0))  # crop or pad top and bottom only
    """

    accepts_float = True

    def __init__(self, px: Optional[Side] = None, percent: Optional[Side] = None, keep_size: bool = True,
                 sample_independently: bool = True, interpolation: str = "bilinear", border_mode: str = "constant",
                 fill: float = 0.0, fill_mask: float = 0.0, probability: float = 1.0, seed: Optional[int] = None):
        super().__init__(probability, seed)
        if (px is None) == (percent is None):
            raise ValueError("CropAndPad takes px (pixels) or percent (fractions of the sides): exactly one of them")
        if not keep_size:
            raise ValueError("CropAndPad(keep_size=False) gives each sample its own size, and a batch here has one "
                             "size: use keep_size=True (the default: resized back to the input size)")
        if interpolation not in ("bilinear", "nearest"):
            raise ValueError(f"interpolation must be 'bilinear' or 'nearest', got {interpolation!r}")
        if border_mode not in BORDER_MODES:
            raise ValueError(f"border_mode must be one of {BORDER_MODES}, got {border_mode!r}")
        self.px = px
        self.percent = percent
        self.keep_size, self.sample_independently = True, bool(sample_independently)
        self.interpolation, self.border_mode = interpolation, border_mode
        for name, value in (("fill", fill), ("fill_mask", fill_mask)):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ValueError(f"{name} must be one number (Albumentations' random fills from a range or a list "
                                 f"are not taken), got {value!r}")
        self.fill, self.fill_mask = float(fill), float(fill_mask)
        self._sides, self._pair = parse_sides("px" if px is not None else "percent",
                                              px if px is not None else percent, px is not None)

    def _dense_input(self, images) -> tf.Tensor:
        images = self._dense(images)
        if images.dtype not in (tf.uint8, tf.float32):
            raise ValueError(f"CropAndPad takes uint8 or float32 images, got {images.dtype.name}")
        return images

    def amounts(self, n: tf.Tensor, height: tf.Tensor, width: tf.Tensor, seed: tf.Tensor) -> tf.Tensor:
        """`[n, 4]` int32 signed amounts (top, right, bottom, left) drawn from `seed`; zeros for the
        samples left alone."""
        integer = self.px is not None
        # the seed as `apply` passes it (int64): stateless draws depend on the seed's dtype
        seeds = tf.unstack(tf.random.experimental.stateless_split(geometry._seed_tensor(seed), 5))
        shared = self._pair and not self.sample_independently
        draws = []
        for k, side in enumerate(self._sides):
            u = tf.random.stateless_uniform([n], seeds[0 if shared else k], dtype=tf.float64)
            value = _draw(side, u, integer)
            if not integer:  # int(fraction * side length): truncated toward zero
                length = tf.cast(height if k % 2 == 0 else width, tf.float64)
                value = tf.cast(tf.cast(value * length, tf.int64), tf.float64)
            draws.append(value)
        amounts = tf.cast(tf.stack(draws, axis=1), tf.int32)
        applied = tf.random.stateless_uniform([n], seeds[4]) < self.probability
        return tf.where(applied[:, tf.newaxis], amounts, 0)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        shape = tf.shape(images)
        n, h, w = shape[0], shape[1], shape[2]
        v = self.amounts(n, h, w, seed)
        pad = tf.maximum(v, 0)
        crop_t, crop_b = _prevent_zero(tf.maximum(-v[:, 0], 0), tf.maximum(-v[:, 2], 0), h)
        crop_l, crop_r = _prevent_zero(tf.maximum(-v[:, 3], 0), tf.maximum(-v[:, 1], 0), w)
        linear = self.interpolation == "bilinear"
        rows = _axis_taps(h, crop_t, crop_b, pad[:, 0], pad[:, 2], self.border_mode, linear)
        cols = _axis_taps(w, crop_l, crop_r, pad[:, 3], pad[:, 1], self.border_mode, linear)
        out = tf.ensure_shape(separable_resample(images, rows, cols, self.fill), images.shape)
        if targets is None or not targets.moves:
            return out, targets
        if targets.masks is not None:
            # cv2.resize's nearest rule: the images' own taps when they are nearest too
            mask_rows = _axis_taps(h, crop_t, crop_b, pad[:, 0], pad[:, 2], self.border_mode, False) if linear else rows
            mask_cols = _axis_taps(w, crop_l, crop_r, pad[:, 3], pad[:, 1], self.border_mode, False) if linear else cols
            masks = separable_resample(targets.masks, mask_rows, mask_cols, self.fill_mask)
            masks = tf.ensure_shape(masks, targets.masks.shape)
            targets = targets.replace(masks=masks)
        # continuous coordinates: canvas = input - crop + pad, output = canvas * size / canvas size
        hf, wf = tf.cast(h, tf.float32), tf.cast(w, tf.float32)
        canvas_h = tf.cast(h - crop_t - crop_b + pad[:, 0] + pad[:, 2], tf.float32)
        canvas_w = tf.cast(w - crop_l - crop_r + pad[:, 3] + pad[:, 1], tf.float32)
        sx, sy = wf / canvas_w, hf / canvas_h
        zero = tf.zeros_like(sx)
        forward = tf.reshape(tf.stack([sx, zero, sx * tf.cast(pad[:, 3] - crop_l, tf.float32),
                                       zero, sy, sy * tf.cast(pad[:, 0] - crop_t, tf.float32)], axis=1), [-1, 2, 3])
        return out, targets.affine(forward, shape[1:3])

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return dict(px=self.px, percent=self.percent, keep_size=self.keep_size,
                    sample_independently=self.sample_independently, interpolation=self.interpolation,
                    border_mode=self.border_mode, fill=self.fill, fill_mask=self.fill_mask,
                    probability=self.probability, seed=self.seed)
