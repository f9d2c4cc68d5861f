"""Transform objects: callables on a batch that carry their own arguments and seeds.

A transform takes a batch (encoded `tf.string [B]` where it decodes, else uint8 images)
and returns a batch. Randomness is stateless: pass `seed=` (an int or shape-[2] tensor) per
call for reproducible streams, or let the transform draw per-call seeds from its own
`tf.random.Generator` seeded with the constructor's `seed`.

`Compose` chains transforms and fuses a `RandomResizedCrop` or `ResizeCenterCrop`
followed by a plain `CropMirrorNormalize` (no crop, NHWC, float32) into one pass.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import _checks, _skip, geometry
from tfgpuaug._autograph import leave_unconverted
from tfgpuaug import targets as tg
from tfgpuaug._types import Flags, Images, Range, Seed, Size, TensorLike
from tfgpuaug.image import DEFAULT_MAX_PIXELS, decode_image, image_shape
from tfgpuaug._select import select_samples  # noqa: F401 (re-exported for the transforms)


TransformInput = Union[TensorLike, Images]
# (images, targets): the transform's output and the annotations that followed it.
TransformOutput = Tuple[tf.Tensor, Optional[tg.Targets]]


class Transform:
    """Base class: seed handling and configuration.

    `decodes` is True for transforms that accept encoded bytes and decode them: a GPU-placed
    `gpu_augment` runs them (and whatever precedes them) on the host, where the bytes are.
    `moves_targets` is False for transforms that only change pixel values (boxes, masks and
    keypoints pass through): with annotations, a GPU-placed stage runs every transform up to
    the last one that moves them on the host, with the annotations, and the rest on the GPU.
    `accepts_float` is True for transforms whose result does not depend on the pixels' range
    (flips, erasing, masking, warps), which may take float images; the others take uint8.
    """

    decodes = False
    moves_targets = True
    accepts_float = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        leave_unconverted(cls)  # no AutoGraph in the library's graph code (_autograph.py)

    def __init__(self, seed: Optional[int] = None):
        self.seed = seed
        self._generator = None

    def _next_seed(self, seed=None) -> tf.Tensor:
        if seed is not None:
            return geometry._seed_tensor(seed)
        if self._generator is None:
            self._generator = (tf.random.Generator.from_seed(self.seed) if self.seed is not None
                               else tf.random.Generator.from_non_deterministic_state())
        return self._generator.make_seeds(1)[:, 0]

    def get_config(self) -> dict:
        return {"seed": self.seed}

    def __call__(self, images, seed=None, training: bool = True):
        """`training=False` gives the inference behaviour: deterministic, no augmentation."""
        raise NotImplementedError

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        """The output batch shape for an input batch shape (encoded bytes: `(B,)`)."""
        return tuple(input_shape)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        """`(images, targets)` after this transform: boxes, masks and keypoints follow the
        pixels. Transforms that move pixels implement this; the base refuses to leave
        annotations behind."""
        out = self(images, seed=seed, training=training)
        if targets is not None and targets.moves:
            raise NotImplementedError(
                f"{type(self).__name__} does not move boxes, masks or keypoints; supported: "
                "RandomFlip, RandomResizedCrop, ResizeCenterCrop, Resize, ScaleJitter, Letterbox, "
                "CropMirrorNormalize (mirror, no crop) and the augmentation policies")
        return out, targets

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


leave_unconverted(Transform)


class _PerSample(Transform):
    """A transform applied to each sample with probability `probability`, through `apply`."""

    def __init__(self, probability: float, seed: Optional[int]):
        super().__init__(seed)
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability must be in [0, 1], got {probability}")
        self.probability = float(probability)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        return self._apply_dense(self._dense_input(images), targets, self._next_seed(seed))

    def _dense_input(self, images) -> tf.Tensor:
        """The images as this transform takes them (a dense uint8 batch unless overridden)."""
        return self._dense_uint8(images)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        """The transform in training on checked images, with this call's seed."""
        raise NotImplementedError

    def _dense(self, images, what: str = "a dense batch [B, H, W, C]",
               fix: str = "decode and resize ragged or encoded images first") -> tf.Tensor:
        """`images` as a dense rank-4 tensor, or a ValueError naming the transform."""
        if geometry._is_encoded(images) or isinstance(images, tf.RaggedTensor):
            raise ValueError(f"{type(self).__name__} takes {what}; {fix}")
        images = tf.convert_to_tensor(images)
        geometry._checks.static_rank("images", images, (4,))
        return images

    def _dense_uint8(self, images) -> tf.Tensor:
        """`images` as a dense uint8 `[B, H, W, C]` tensor, or a ValueError naming the transform."""
        name = type(self).__name__
        images = self._dense(images)
        if images.dtype != tf.uint8:
            raise ValueError(f"{name} takes uint8 images, got {images.dtype.name}")
        return images


def _channels(input_shape, default: int = 3) -> Optional[int]:
    """Channels of an image batch shape; `default` for encoded bytes (decoded to RGB)."""
    return input_shape[-1] if len(input_shape) == 4 else default


def _hw(size) -> Tuple[int, int]:
    return (size, size) if isinstance(size, int) else tuple(size)


def _dims(images) -> tf.Tensor:
    """[B, 2] float (height, width) of encoded (from the headers) or decoded images."""
    if geometry._is_encoded(images):
        return tf.cast(image_shape(images)[:, :2], tf.float32)
    return tg.image_sizes(images)


def _decode_with_masks(images, targets: tg.Targets):
    """Encoded images (and masks) decoded whole, once; with on_error="skip" the samples that
    fail leave here, before anything mixes or resizes them."""
    if geometry._is_encoded(images):
        images = decode_image(images)
    if targets.masks is not None and geometry._is_encoded(targets.masks):
        targets = targets.replace(masks=decode_image(targets.masks, channels=1))
    return _skip.drop_failed(images, targets)


def _crop_resize_with_targets(images, targets, boxes, dims, size, method, antialias, mirror=None,
                              mean=None, std=None, max_dct_denom=geometry.DEFAULT_MAX_DCT_DENOM):
    """Resizes each image's box [y, x, h, w] to `size` (and the masks with nearest), moving the
    targets by the same map; `mirror` [B] flags flip after the resize."""
    hw = size if isinstance(size, tf.Tensor) else _hw(size)
    n = tf.shape(boxes)[0]
    if geometry._is_encoded(images):
        out = geometry._decode_crop_resize(images, boxes, hw, method, antialias, 3, "INTEGER_ACCURATE",
                                           max_dct_denom, False, DEFAULT_MAX_PIXELS, mirror=mirror,
                                           mean=mean, std=std)
    else:
        out = geometry.crop_and_resize(images, boxes, hw, method, antialias, mirror=mirror, mean=mean, std=std)
    masks = targets.masks
    if masks is not None:
        if geometry._is_encoded(masks):
            masks = geometry._decode_crop_resize(masks, boxes, hw, "nearest", False, 1, "INTEGER_ACCURATE", 1,
                                                 False, DEFAULT_MAX_PIXELS, mirror=mirror)
        else:
            masks = geometry.crop_and_resize(masks, boxes, hw, "nearest", False, mirror=mirror)
    m = tg.crop_resize_matrices(boxes, hw[0], hw[1])
    out_hw = tf.tile(tf.cast(tf.reshape(hw, [1, 2]), tf.float32), [n, 1])
    if mirror is not None:
        m = tg.compose(tg.flip_matrices(mirror, None, out_hw, n), m)
    return out, targets.replace(masks=masks).affine(m, out_hw)


class RandomResizedCrop(Transform):
    """Inception-style random-resized-crop (`geometry.random_resized_crop`) as a transform.

    Takes encoded `tf.string [B]` (decoded inside the op, only within each crop) or decoded
    uint8 images, dense or ragged, and gives uint8 `[B, height, width, C]`; followed by
    `CropMirrorNormalize` in a `Compose` or `gpu_augment`, the normalisation runs in the same
    pass (float32 out). Inference (`training=False`): the matching evaluation crop, the shorter
    side resized to round(size * 256 / 224) and the centred `size` taken.

    Args:
      size: output (height, width), or one int for a square.
      scale: (min, max) fraction of the image's area the crop covers.
      ratio: (min, max) aspect ratio (width / height) of the crop, drawn log-uniformly.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling (PIL's and `tf.image`'s antialias).
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8)
        while the crop stays at least the output size; 1 decodes at full size.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> crop = tfgpuaug.RandomResizedCrop(224)
      >>> ds = ds.apply(tfgpuaug.gpu_augment([crop, tfgpuaug.CropMirrorNormalize()]))
    """

    decodes = True

    def __init__(self, size: Size, scale: Range = (0.08, 1.0), ratio: Range = (3 / 4, 4 / 3),
                 method: str = "bilinear",
                 antialias: bool = True, max_dct_denom: int = geometry.DEFAULT_MAX_DCT_DENOM,
                 seed: Optional[int] = None):
        super().__init__(seed)
        self.size, self.scale, self.ratio = size, tuple(scale), tuple(ratio)
        self.method, self.antialias, self.max_dct_denom = method, antialias, max_dct_denom
        geometry._checks.one_of("method", method, geometry.METHODS)

    def __call__(self, images, seed=None, mirror=None, mean=None, std=None, training: bool = True):
        if not training:
            h, w = _hw(self.size)
            return geometry.resize_center_crop(images, round(max(h, w) * 256 / 224), (h, w),
                                               self.method, self.antialias, mean=mean, std=std,
                                               max_dct_denom=self.max_dct_denom)
        s = self._next_seed(seed)
        return geometry.random_resized_crop(
            images, self.size, self.scale, self.ratio, seed=s, method=self.method,
            antialias=self.antialias, mirror=mirror, mean=mean, std=std,
            max_dct_denom=self.max_dct_denom)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True, mirror: Flags = None, mean: Optional[Sequence[float]] = None,
              std: Optional[Sequence[float]] = None) -> TransformOutput:
        if targets is None or not targets.moves:
            return self(images, seed, mirror=mirror, mean=mean, std=std, training=training), targets
        dims = _dims(images)
        h, w = _hw(self.size)
        if training:  # the boxes the kernel would draw (random_crop_boxes is its reference)
            boxes = geometry.random_crop_boxes(dims, self.scale, self.ratio, self._next_seed(seed))
        else:
            boxes = geometry.center_crop_boxes(dims, round(max(h, w) * 256 / 224), (h, w))
        return _crop_resize_with_targets(images, targets, boxes, dims, self.size, self.method, self.antialias,
                                         mirror, mean, std, self.max_dct_denom)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, scale=self.scale, ratio=self.ratio, method=self.method,
                    antialias=self.antialias, max_dct_denom=self.max_dct_denom, seed=self.seed)


class ResizeCenterCrop(Transform):
    """The evaluation transform (`geometry.resize_center_crop`): the shorter side resized to
    `resize_shorter`, the centred `crop` taken, only the pixels the crop needs decoded.
    Deterministic; encoded or decoded input, uint8 output.

    Args:
      resize_shorter: the shorter side's length after the resize.
      crop: (height, width) of the centred crop, or one int for a square.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling.
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8)
        while the crop stays at least the output size; 1 decodes at full size.

    Example:
      >>> ev = tfgpuaug.ResizeCenterCrop(256, 224)
    """

    decodes = True

    def __init__(self, resize_shorter: int = 256, crop: Size = 224, method: str = "bilinear",
                 antialias: bool = True, max_dct_denom: int = geometry.DEFAULT_MAX_DCT_DENOM):
        super().__init__(None)
        self.resize_shorter, self.crop = resize_shorter, crop
        self.method, self.antialias, self.max_dct_denom = method, antialias, max_dct_denom

    def __call__(self, images, seed=None, mirror=None, mean=None, std=None, training: bool = True):
        del seed, training
        if mirror is not None:
            raise ValueError("ResizeCenterCrop does not flip")
        return geometry.resize_center_crop(images, self.resize_shorter, self.crop, self.method,
                                           self.antialias, mean=mean, std=std,
                                           max_dct_denom=self.max_dct_denom)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True, mirror: Flags = None, mean: Optional[Sequence[float]] = None,
              std: Optional[Sequence[float]] = None) -> TransformOutput:
        if targets is None or not targets.moves:
            return self(images, seed, mirror=mirror, mean=mean, std=std, training=training), targets
        dims = _dims(images)
        boxes = geometry.center_crop_boxes(dims, self.resize_shorter, _hw(self.crop))
        return _crop_resize_with_targets(images, targets, boxes, dims, self.crop, self.method, self.antialias,
                                         mirror, mean, std, self.max_dct_denom)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.crop), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(resize_shorter=self.resize_shorter, crop=self.crop, method=self.method,
                    antialias=self.antialias, max_dct_denom=self.max_dct_denom)


class Resize(Transform):
    """Resizes every image to `size` (`geometry.resize`); decodes encoded input first. uint8
    in, uint8 out; boxes, masks and keypoints follow.

    Args:
      size: output (height, width), or one int for a square.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling; False by default, as `tf.image.resize`
        and `keras.layers.Resizing`.
    """

    decodes = True

    def __init__(self, size: Size, method: str = "bilinear", antialias: bool = False):
        super().__init__(None)
        self.size, self.method, self.antialias = size, method, antialias

    def __call__(self, images, seed=None, training: bool = True):
        del seed, training
        if geometry._is_encoded(images):  # a skipped image leaves before the resize
            images = _skip.drop_failed(decode_image(images))[0]
        return geometry.resize(images, self.size, self.method, self.antialias)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if targets is None or not targets.moves:
            return self(images, seed, training=training), targets
        images, targets = _decode_with_masks(images, targets)
        dims = tg.image_sizes(images)
        boxes = tf.concat([tf.zeros_like(dims), dims], axis=1)  # whole images
        return _crop_resize_with_targets(images, targets, boxes, dims, self.size, self.method, self.antialias)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, method=self.method, antialias=self.antialias)


class RandomIoUCrop(Transform):
    """SSD's random crop (torchvision's `RandomIoUCrop`, Model Garden's SSD crop, DALI's
    `random_bbox_crop`), resized to `size` in the same pass. Per image: a minimum IoU drawn from
    `min_ious` (None keeps the whole image), then up to `trials` crops whose sides are `scale`
    of the image's with aspect (width / height) in `ratio`; the first that contains some box's
    centre with at least that IoU with it is taken, else the whole image. Boxes whose centres
    fall outside the crop are dropped (with their fields), the rest clipped. Without boxes (or
    in inference) the whole image is resized.

    Args:
      size: output (height, width), or one int for a square.
      min_ious: the minimum IoUs drawn from per image; None in the list keeps the whole image.
      scale: (min, max) of each crop side as a fraction of the image's.
      ratio: (min, max) aspect ratio (width / height) of the crop.
      trials: crops tried per image before the whole image is kept.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling.
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8)
        while the crop stays at least the output size; 1 decodes at full size.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    decodes = True

    def __init__(self, size: Size, min_ious: Sequence[Optional[float]] = (None, 0.1, 0.3, 0.5, 0.7, 0.9),
                 scale: Range = (0.3, 1.0), ratio: Range = (0.5, 2.0), trials: int = 40,
                 method: str = "bilinear", antialias: bool = False,
                 max_dct_denom: int = geometry.DEFAULT_MAX_DCT_DENOM, seed: Optional[int] = None):
        super().__init__(seed)
        if not min_ious or any(t is not None and not 0.0 <= t <= 1.0 for t in min_ious):
            raise ValueError(f"min_ious must be a non-empty list of None or values in [0, 1], got {min_ious}")
        if not (0 < scale[0] <= scale[1] <= 1) or not (0 < ratio[0] <= ratio[1]) or trials < 1:
            raise ValueError(f"need 0 < scale <= 1, 0 < ratio[0] <= ratio[1] and trials >= 1, got "
                             f"{scale}, {ratio}, {trials}")
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.size, self.min_ious, self.scale, self.ratio = size, tuple(min_ious), tuple(scale), tuple(ratio)
        self.trials, self.method, self.antialias, self.max_dct_denom = trials, method, antialias, max_dct_denom

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        dims = _dims(images)
        whole = tf.concat([tf.zeros_like(dims), dims], axis=1)  # [y, x, h, w]
        if targets is None:
            targets = tg.Targets()
        if not training or targets.boxes is None:
            return _crop_resize_with_targets(images, targets, whole, dims, self.size, self.method,
                                             self.antialias, max_dct_denom=self.max_dct_denom)
        from tfgpuaug import boxes as bx

        s_option, s_sides, s_place = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 3))
        n, t = tf.shape(dims)[0], self.trials
        thresholds = tf.constant([2.0 if v is None else float(v) for v in self.min_ious])  # None: never met
        threshold = tf.gather(thresholds, tf.random.stateless_uniform([n], s_option, 0, len(self.min_ious), tf.int32))
        sides = tf.random.stateless_uniform([n, t, 2], s_sides, self.scale[0], self.scale[1])
        place = tf.random.stateless_uniform([n, t, 2], s_place)
        h, w = dims[:, 0:1], dims[:, 1:2]
        cw, ch = w * sides[..., 0], h * sides[..., 1]
        cx, cy = (w - cw) * place[..., 0], (h - ch) * place[..., 1]
        crops = tf.stack([cx, cy, cx + cw, cy + ch], axis=-1)  # [B, T, 4] xyxy
        aspect_ok = (cw / ch >= self.ratio[0]) & (cw / ch <= self.ratio[1])
        dense = targets.boxes.to_tensor(0.0)  # [B, N, 4]
        valid = tf.sequence_mask(targets.boxes.row_lengths(), tf.shape(dense)[1])
        centre = (dense[..., :2] + dense[..., 2:]) / 2.0
        inside = ((centre[:, :, None, 0] > crops[:, None, :, 0]) & (centre[:, :, None, 0] < crops[:, None, :, 2]) &
                  (centre[:, :, None, 1] > crops[:, None, :, 1]) & (centre[:, :, None, 1] < crops[:, None, :, 3]))
        good = inside & valid[:, :, None]  # [B, N, T]
        best = tf.reduce_max(tf.where(good, bx.iou(dense, crops), -1.0), axis=1)  # [B, T]
        ok = aspect_ok & (best >= threshold[:, None])
        found = tf.reduce_any(ok, axis=1)
        first = tf.argmax(tf.cast(ok, tf.int32), axis=1, output_type=tf.int32)
        chosen = tf.gather(crops, first, batch_dims=1)  # [B, 4] xyxy
        box = tf.where(found[:, None], tf.stack([chosen[:, 1], chosen[:, 0], chosen[:, 3] - chosen[:, 1],
                                                 chosen[:, 2] - chosen[:, 0]], axis=1), whole)
        kept = tf.gather(good, first, axis=2, batch_dims=1) | ~found[:, None]  # [B, N]
        targets = targets.keep_boxes(tf.RaggedTensor.from_tensor(kept, lengths=targets.boxes.row_lengths()))
        return _crop_resize_with_targets(images, targets, box, dims, self.size, self.method, self.antialias,
                                         max_dct_denom=self.max_dct_denom)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, min_ious=self.min_ious, scale=self.scale, ratio=self.ratio,
                    trials=self.trials, method=self.method, antialias=self.antialias,
                    max_dct_denom=self.max_dct_denom, seed=self.seed)


class RandomSizedBBoxSafeCrop(Transform):
    """Albumentations' RandomSizedBBoxSafeCrop: a random crop that keeps every box whole,
    resized to `size` in the same pass. Per image, the union of its boxes (each shrunk by
    `erosion_rate` of its width and height first, so boxes may be cut by that much) is
    widened on each side by a uniform fraction of the room between it and the image's edge:
    left = u * union_left, right = union_right + u' * (width - union_right), likewise for top
    and bottom. An image without boxes gets a crop of (1 - erosion_rate) of each side at a
    uniform place. Boxes, masks and keypoints follow. In inference the whole image is resized.

    Args:
      size: output (height, width), or one int for a square.
      erosion_rate: in [0, 1): how much of each box's width and height the crop may cut.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling.
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8)
        while the crop stays at least the output size; 1 decodes at full size.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    decodes = True

    def __init__(self, size: Size, erosion_rate: float = 0.0, method: str = "bilinear", antialias: bool = False,
                 max_dct_denom: int = geometry.DEFAULT_MAX_DCT_DENOM, seed: Optional[int] = None):
        super().__init__(seed)
        if not 0.0 <= erosion_rate < 1.0:
            raise ValueError(f"erosion_rate must be in [0, 1), got {erosion_rate}")
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.size, self.erosion_rate, self.method, self.antialias = size, float(erosion_rate), method, antialias
        self.max_dct_denom = max_dct_denom

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def _union(self, targets: tg.Targets, n) -> Tuple[tf.Tensor, tf.Tensor]:
        """([B] whether the image has boxes, [B, 4] the eroded union xyxy)."""
        if targets.boxes is None:
            return tf.zeros([n], tf.bool), tf.zeros([n, 4])
        dense = targets.boxes.to_tensor(0.0)
        valid = tf.sequence_mask(targets.boxes.row_lengths(), tf.shape(dense)[1])
        shrink = tf.tile(dense[..., 2:] - dense[..., :2], [1, 1, 2]) * (self.erosion_rate / 2.0)
        eroded = dense + shrink * tf.constant([1.0, 1.0, -1.0, -1.0])
        far = 3.0e38
        lo = tf.reduce_min(tf.where(valid[..., None], eroded[..., :2], far), axis=1)
        hi = tf.reduce_max(tf.where(valid[..., None], eroded[..., 2:], -far), axis=1)
        return tf.reduce_any(valid, axis=1), tf.concat([lo, hi], axis=1)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        dims = _dims(images)  # [B, 2] (h, w)
        whole = tf.concat([tf.zeros_like(dims), dims], axis=1)  # [y, x, h, w]
        if targets is None:
            targets = tg.Targets()
        if not training:
            return _crop_resize_with_targets(images, targets, whole, dims, self.size, self.method,
                                             self.antialias, max_dct_denom=self.max_dct_denom)
        n = tf.shape(dims)[0]
        u = tf.random.stateless_uniform([n, 4], self._next_seed(seed))
        h, w = dims[:, 0], dims[:, 1]
        has, union = self._union(targets, n)
        x1 = tf.clip_by_value(union[:, 0], 0.0, w)
        y1 = tf.clip_by_value(union[:, 1], 0.0, h)
        x2 = tf.clip_by_value(union[:, 2], x1, w)
        y2 = tf.clip_by_value(union[:, 3], y1, h)
        top, left = y1 * u[:, 0], x1 * u[:, 1]
        bottom, right = y2 + (h - y2) * u[:, 2], x2 + (w - x2) * u[:, 3]
        safe = tf.stack([top, left, bottom - top, right - left], axis=1)
        keep = 1.0 - self.erosion_rate
        free = tf.stack([(h - h * keep) * u[:, 0], (w - w * keep) * u[:, 1], h * keep, w * keep], axis=1)
        box = tf.where(has[:, None], safe, free)
        box = tf.concat([box[:, :2], tf.maximum(box[:, 2:], 1.0)], axis=1)
        return _crop_resize_with_targets(images, targets, box, dims, self.size, self.method, self.antialias,
                                         max_dct_denom=self.max_dct_denom)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, erosion_rate=self.erosion_rate, method=self.method, antialias=self.antialias,
                    max_dct_denom=self.max_dct_denom, seed=self.seed)


class Mosaic(Transform):
    """YOLO-style mosaic: each output image is four images of the batch, one per quadrant around
    a centre drawn per sample (each coordinate a fraction of `size` in `center`). The sample
    itself fills the top-left quadrant, the next three samples of a random cyclic order of the
    batch the others (never the sample itself, and three different images from 4 samples up); each
    image covers its quadrant (scaled to fill it, aspect kept, centred). Boxes, masks and
    keypoints of the four images follow into their quadrants. Inference: a plain resize.

    Args:
      size: output (height, width), or one int for a square.
      center: (min, max) of the mosaic's centre, each coordinate a fraction of `size`.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    decodes = True

    def __init__(self, size: Size, center: Range = (0.25, 0.75), method: str = "bilinear",
                 antialias: bool = False, seed: Optional[int] = None):
        super().__init__(seed)
        if not 0.0 < center[0] <= center[1] < 1.0:
            raise ValueError(f"center must be (low, high) with 0 < low <= high < 1, got {center}")
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.size, self.center, self.method, self.antialias = size, tuple(center), method, antialias

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        targets = targets if targets is not None else tg.Targets()
        images, targets = _decode_with_masks(images, targets)  # every image is used four times
        dims = tg.image_sizes(images)
        whole = tf.concat([tf.zeros_like(dims), dims], axis=1)
        if not training:
            return _crop_resize_with_targets(images, targets, whole, dims, self.size, self.method, self.antialias)
        h_out, w_out = _hw(self.size)
        s_centre, s_perm = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 2))
        n = tf.shape(dims)[0]
        centre = tf.random.stateless_uniform([n, 2], s_centre, self.center[0], self.center[1])  # per sample
        yc = tf.clip_by_value(tf.cast(tf.round(centre[:, 0] * h_out), tf.int32), 1, max(h_out - 1, 1))
        xc = tf.clip_by_value(tf.cast(tf.round(centre[:, 1] * w_out), tf.int32), 1, max(w_out - 1, 1))
        # The batch in a random cyclic order; each sample's partners are the next three samples
        # of the cycle: never itself and three distinct images when the batch has 4 or more
        # (three independent permutations drew a sample as its own partner, or one image twice).
        order = tf.cast(tf.random.experimental.index_shuffle(
            tf.range(n, dtype=tf.int64), s_perm, tf.cast(n, tf.int64) - 1), tf.int32)
        position = tf.math.invert_permutation(order)
        partners = [tf.range(n)] + [tf.gather(order, (position + k) % n) for k in (1, 2, 3)]
        zero = tf.zeros_like(yc)
        quadrants = [(zero, zero, yc, xc), (zero, xc, yc, w_out - xc), (yc, zero, h_out - yc, xc),
                     (yc, xc, h_out - yc, w_out - xc)]
        canvas_hw = tf.constant([h_out, w_out], tf.float32)
        boxes, regions, parts = [], [], []
        for (y0, x0, qh, qw), idx in zip(quadrants, partners):
            d = tf.gather(dims, idx)
            qh_f, qw_f = tf.cast(qh, tf.float32), tf.cast(qw, tf.float32)
            cover = tf.maximum(qh_f / d[:, 0], qw_f / d[:, 1])  # fill the quadrant, aspect kept
            bh, bw = qh_f / cover, qw_f / cover
            box = tf.stack([(d[:, 0] - bh) / 2, (d[:, 1] - bw) / 2, bh, bw], axis=1)
            boxes.append(box)
            regions.append(tf.stack([y0, x0, qh, qw], axis=1))
            # the annotations: onto the tile (clipped to it), then shifted into the canvas
            tile = targets.take(idx).replace(masks=None).affine(
                tg.crop_resize_matrices(box, qh_f, qw_f), tf.stack([qh_f, qw_f], axis=1))
            zero_f = tf.zeros_like(qh_f)
            shift = tf.stack([tf.stack([zero_f + 1, zero_f, tf.cast(x0, tf.float32)], -1),
                              tf.stack([zero_f, zero_f + 1, tf.cast(y0, tf.float32)], -1)], axis=1)
            parts.append(tile.affine(shift, canvas_hw))
        sources, boxes, regions = tf.stack(partners, 1), tf.stack(boxes, 1), tf.stack(regions, 1)
        out = geometry._paste_resize(images, sources, boxes, regions, (h_out, w_out), self.method, self.antialias)
        masks = None
        if targets.masks is not None:
            masks = geometry._paste_resize(targets.masks, sources, boxes, regions, (h_out, w_out), "nearest", False)
        return out, tg.Targets.concat(parts, masks, targets.box_filter)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, center=self.center, method=self.method, antialias=self.antialias,
                    seed=self.seed)


class _Placed(Transform):
    """Shared by ScaleJitter and Letterbox: `geometry.resize_and_pad` with targets following."""

    decodes = True
    _jitter = _center = False

    def __init__(self, size: Size, scale: Range, method: str, antialias: bool, pad_value: float,
                 max_dct_denom: int, seed: Optional[int]):
        super().__init__(seed)
        if not (0 < scale[0] <= scale[1]):
            raise ValueError(f"scale must be (low, high) with 0 < low <= high, got {scale}")
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.size, self.scale, self.method, self.antialias = size, tuple(float(x) for x in scale), method, antialias
        self.pad_value, self.max_dct_denom = float(pad_value), max_dct_denom

    def _place(self, images, seed, training, mirror=None, mean=None, std=None, method=None, channels=3):
        scale, jitter = (self.scale, self._jitter) if training else ((1.0, 1.0), False)
        random = jitter or scale[0] != scale[1]
        return geometry.resize_and_pad(
            images, self.size, scale, jitter, self._center, seed if random else None,
            method or self.method, self.antialias and method is None, mirror, mean, std,
            self.pad_value if method is None else 0.0, channels,
            max_dct_denom=self.max_dct_denom if method is None else 1)

    def __call__(self, images, seed=None, mirror=None, mean=None, std=None, training: bool = True):
        return self._place(images, self._next_seed(seed), training, mirror, mean, std)[0]

    def with_info(self, images: TransformInput, seed: Seed = None, training: bool = False
                  ) -> Tuple[tf.Tensor, tf.Tensor]:
        """`(images, image_info [B, 6])`: (scale_y, scale_x, offset_y, offset_x, height, width);
        a prediction at output (y, x) is at input ((y + offset_y) / scale_y, (x + offset_x) /
        scale_x)."""
        return self._place(images, self._next_seed(seed), training)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True, mirror: Flags = None, mean: Optional[Sequence[float]] = None,
              std: Optional[Sequence[float]] = None) -> TransformOutput:
        if targets is None or not targets.moves:
            return self(images, seed, mirror=mirror, mean=mean, std=std, training=training), targets
        s = self._next_seed(seed)
        n = tf.shape(images)[0] if geometry._is_encoded(images) else tf.shape(tg.image_sizes(images))[0]
        flags = None if mirror is None else geometry._flags(mirror, n, "mirror", s)
        out, info = self._place(images, s, training, flags, mean, std)
        masks = targets.masks
        if masks is not None:  # the same draws place the masks (nearest, padded with 0)
            masks = self._place(masks, s, training, flags, method="nearest", channels=1)[0]
        hw = info[:, 4:6]
        m = tf.stack([tf.stack([info[:, 1], tf.zeros_like(info[:, 1]), -info[:, 3]], -1),
                      tf.stack([tf.zeros_like(info[:, 0]), info[:, 0], -info[:, 2]], -1)], axis=1)
        if flags is not None:
            m = tg.compose(m, tg.flip_matrices(flags, None, hw, n))
        out_hw = tf.tile(tf.constant([_hw(self.size)], tf.float32), [n, 1])
        return out, targets.replace(masks=masks).affine(m, out_hw)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))


class ScaleJitter(_Placed):
    """Detection training resize (RetinaNet, Mask R-CNN; TF Model Garden's `resize_and_crop_image`
    with `aug_scale_min/max`): the image, aspect kept, fit into `size` times a scale drawn from
    `scale`, a random `size` crop where it is larger, padding (`pad_value`) where smaller. Boxes,
    masks and keypoints follow. Inference: fit into `size`, no crop, padded bottom and right.

    Args:
      size: output (height, width), or one int for a square.
      scale: (min, max) of the scale drawn per image, relative to fitting into `size`.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling.
      pad_value: the padding's value in input pixel units (0..255; 0 is black). It is
        normalised with the image, so the padding has the same colour whether or not a
        following `CropMirrorNormalize` is fused into this pass.
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8)
        while the crop stays at least the output size; 1 decodes at full size.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _jitter = True

    def __init__(self, size: Size, scale: Range = (0.8, 1.25), method: str = "bilinear",
                 antialias: bool = False, pad_value: float = 0.0, max_dct_denom: int = 1,
                 seed: Optional[int] = None):
        super().__init__(size, scale, method, antialias, pad_value, max_dct_denom, seed)

    def get_config(self) -> dict:
        return dict(size=self.size, scale=self.scale, method=self.method, antialias=self.antialias,
                    pad_value=self.pad_value, max_dct_denom=self.max_dct_denom, seed=self.seed)


class Letterbox(_Placed):
    """Fit each image into `size` with its aspect kept and pad the rest, centred (YOLO-style
    letterbox); `with_info` returns the scale and offset that map predictions back. Boxes,
    masks and keypoints follow.

    Args:
      size: output (height, width), or one int for a square.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling.
      pad_value: the padding's value in input pixel units (0..255), as `ScaleJitter`'s.
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8)
        while the crop stays at least the output size; 1 decodes at full size.
    """

    _center = True

    def __init__(self, size: Size, method: str = "bilinear", antialias: bool = False,
                 pad_value: float = 0.0, max_dct_denom: int = 1):
        super().__init__(size, (1.0, 1.0), method, antialias, pad_value, max_dct_denom, None)

    def get_config(self) -> dict:
        return dict(size=self.size, method=self.method, antialias=self.antialias, pad_value=self.pad_value,
                    max_dct_denom=self.max_dct_denom)


class RandomFlip(Transform):
    """Per-sample flips; boxes, masks and keypoints follow.

    Args:
      horizontal: probability that a sample is flipped left-right.
      vertical: probability that a sample is flipped upside down.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
      mode: Keras's spelling, instead of the probabilities: "horizontal", "vertical" or
        "horizontal_and_vertical", each named axis flipped with probability 0.5 (as
        `keras.layers.RandomFlip`).
    """

    accepts_float = True
    MODES = ("horizontal", "vertical", "horizontal_and_vertical")

    def __init__(self, horizontal: float = 0.5, vertical: float = 0.0, seed: Optional[int] = None,
                 mode: Optional[str] = None):
        super().__init__(seed)
        if mode is not None:
            geometry._checks.one_of("mode", mode, self.MODES)
            horizontal = 0.5 if "horizontal" in mode else 0.0
            vertical = 0.5 if "vertical" in mode else 0.0
        for name, p in (("horizontal", horizontal), ("vertical", vertical)):
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"{name} probability must be in [0, 1], got {p}")
        self.horizontal, self.vertical = float(horizontal), float(vertical)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        s = self._next_seed(seed)
        n = tf.shape(images)[0]
        u = tf.random.stateless_uniform([2, n], s)
        horizontal, vertical = u[0] < self.horizontal, u[1] < self.vertical
        out = geometry.flip(images, horizontal=horizontal, vertical=vertical)
        if targets is None or not targets.moves:
            return out, targets
        if targets.masks is not None:
            targets = targets.replace(masks=geometry.flip(targets.masks, horizontal, vertical))
        hw = tg.image_sizes(images)
        return out, targets.affine(tg.flip_matrices(horizontal, vertical, hw, n), hw)

    def get_config(self) -> dict:
        return dict(horizontal=self.horizontal, vertical=self.vertical, seed=self.seed)


class CropMirrorNormalize(Transform):
    """Crop, per-sample mirror, `(x - mean) / std`, layout and dtype in one pass
    (`geometry.crop_mirror_normalize`), DALI's CropMirrorNormalize. After a resampling
    transform in the same `Compose` it is fused into that pass when it does no crop, keeps
    NHWC float32 and does not pad channels.

    Args:
      mean: one value per channel on the 0..255 scale (ImageNet's by default).
      std: one value per channel on the 0..255 scale, none zero.
      crop: (height, width) of a centred crop, or None for no crop.
      mirror: probability that a sample is flipped left-right.
      layout: "NHWC" or "NCHW".
      dtype: tf.float32, tf.float16 or tf.bfloat16.
      pad_channels: pad to 4 channels with zeros (aligned loads for some models).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, mean: Sequence[float] = geometry.IMAGENET_MEAN,
                 std: Sequence[float] = geometry.IMAGENET_STD, crop: Optional[Size] = None,
                 mirror: float = 0.0,
                 layout: str = "NHWC", dtype: tf.DType = tf.float32, pad_channels: bool = False,
                 seed: Optional[int] = None):
        super().__init__(seed)
        if not 0.0 <= mirror <= 1.0:
            raise ValueError(f"mirror probability must be in [0, 1], got {mirror}")
        self.mean, self.std = tuple(float(m) for m in mean), tuple(float(s) for s in std)
        if len(self.mean) != len(self.std) or any(s == 0 for s in self.std):
            raise ValueError("mean and std need the same length and std no zeros")
        self.crop, self.mirror, self.layout = crop, float(mirror), layout
        self.dtype, self.pad_channels = tf.as_dtype(dtype), pad_channels

    @property
    def moves_targets(self) -> bool:
        """Only a mirror or a crop moves boxes; normalizing alone does not."""
        return self.crop is not None or self.mirror > 0.0

    @property
    def fusible(self) -> bool:
        """True when a preceding resampling op can do this transform in its own pass."""
        return (self.crop is None and self.layout == "NHWC" and self.dtype == tf.float32
                and not self.pad_channels)

    def mirror_flags(self, n: tf.Tensor, seed: Seed = None) -> Optional[tf.Tensor]:
        if self.mirror == 0.0:
            return None
        return tf.random.stateless_uniform([n], self._next_seed(seed)) < self.mirror

    def __call__(self, images, seed=None, training: bool = True):
        flags = self.mirror_flags(tf.shape(images)[0], seed) if training else None
        return geometry.crop_mirror_normalize(images, self.mean, self.std, self.crop, flags,
                                              self.layout, self.dtype, self.pad_channels)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if targets is None or not targets.moves or ((not training or self.mirror == 0.0) and self.crop is None):
            return self(images, seed, training=training), targets
        if self.crop is not None:
            raise NotImplementedError("CropMirrorNormalize(crop=...) does not move boxes, masks or "
                                      "keypoints; crop with RandomResizedCrop or ResizeCenterCrop")
        n = tf.shape(images)[0]
        flags = self.mirror_flags(n, self._next_seed(seed))
        out = geometry.crop_mirror_normalize(images, self.mean, self.std, None, flags, self.layout,
                                             self.dtype, self.pad_channels)
        if targets.masks is not None:
            targets = targets.replace(masks=geometry.flip(targets.masks, flags))
        hw = tg.image_sizes(images)
        return out, targets.affine(tg.flip_matrices(flags, None, hw, n), hw)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        b, h, w, c = input_shape
        if self.crop is not None:
            h, w = _hw(self.crop)
        c = 4 if self.pad_channels else c
        return (b, c, h, w) if self.layout == "NCHW" else (b, h, w, c)

    def get_config(self) -> dict:
        return dict(mean=self.mean, std=self.std, crop=self.crop, mirror=self.mirror,
                    layout=self.layout, dtype=self.dtype.name, pad_channels=self.pad_channels,
                    seed=self.seed)


class Compose(Transform):
    """Applies transforms in order on a batch, fusing resample + normalize where possible.

    With `seed` given at call time, each transform gets an independent seed folded from it.

    Args:
      transforms: the transforms, in order.
    """

    @property
    def accepts_float(self) -> bool:
        return all(getattr(t, "accepts_float", False) for t in self.transforms)

    def __init__(self, transforms: Sequence[Transform]):
        super().__init__(None)
        self.transforms = list(transforms)
        if not all(callable(t) for t in self.transforms):
            raise TypeError("every transform must be callable on a batch")

    def __call__(self, images, seed=None, start: int = 0, stop: Optional[int] = None,
                 training: bool = True):
        """Runs transforms[start:stop]; transform i always gets the seed folded with i, so a
        pipeline split in two (host part, device part) draws what the whole one draws."""
        return self.apply(images, None, seed, training, start, stop)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True, start: int = 0, stop: Optional[int] = None) -> TransformOutput:
        moving = targets is not None and targets.moves

        def step(t, images, targets, s, training):
            if isinstance(t, Transform):
                return _skip.drop_failed(*t.apply(images, targets, s, training))
            if moving:
                raise NotImplementedError(
                    f"{t!r} is a plain callable: it cannot move boxes, masks or keypoints. Use "
                    "Transform objects in pipelines with annotations")
            return _skip.drop_failed(t(images), targets)

        if not training:
            for t in self.transforms[start:stop]:
                images, targets = step(t, images, targets, None, False)
            return images, targets
        base = None if seed is None else geometry._seed_tensor(seed)
        sub = lambda i: None if base is None else tf.random.experimental.stateless_fold_in(base, i)
        i, ts = start, self.transforms[:stop]
        while i < len(ts):
            t = ts[i]
            nxt = ts[i + 1] if i + 1 < len(ts) else None
            if (isinstance(t, (RandomResizedCrop, ResizeCenterCrop, _Placed)) and
                    isinstance(nxt, CropMirrorNormalize) and nxt.fusible):
                mirror = nxt.mirror_flags(tf.shape(images)[0], sub(i + 1))
                if isinstance(t, ResizeCenterCrop) and mirror is not None:
                    images, targets = step(t, images, targets, sub(i), True)
                    images, targets = step(nxt, images, targets, sub(i + 1), True)
                else:
                    images, targets = _skip.drop_failed(*t.apply(images, targets, sub(i), mirror=mirror,
                                                                 mean=nxt.mean, std=nxt.std))
                i += 2
                continue
            images, targets = step(t, images, targets, sub(i), True)
            i += 1
        return images, targets

    def host_stop(self, with_targets: bool = False) -> int:
        """How many leading transforms a GPU-placed stage runs on the host: through the first
        that decodes (encoded bytes live in host memory) and through the last that has only a
        CPU kernel (`host_only`, e.g. JpegQuality); none when neither is there. `with_targets`:
        also through the last that moves boxes, masks or keypoints (`moves_targets`; plain
        callables count as moving), so the annotations are final before the copy."""
        stop = 0
        for i, t in enumerate(self.transforms):
            if getattr(t, "decodes", False) and stop == 0:
                stop = i + 1
            if getattr(t, "host_only", False):
                stop = i + 1
            if with_targets and getattr(t, "moves_targets", True):
                stop = i + 1
        return stop

    def get_config(self) -> dict:
        return {"transforms": [repr(t) for t in self.transforms]}


def _names(augmentations):
    """A config value for an augmentation list: names (Augmentation objects by name)."""
    if augmentations is None:
        return None
    return [a if isinstance(a, str) else a.name for a in augmentations]


class _Policy(Transform):
    """Shared plumbing of the augmentation-policy transforms (uint8 in, uint8 out)."""

    def __init__(self, fill_value: float = 128.0, interpolation: str = "bilinear",
                 seed: Optional[int] = None):
        super().__init__(seed)
        self.fill_value, self.interpolation = float(fill_value), interpolation

    def __call__(self, images, seed=None, training: bool = True):
        return self._apply(images, self._next_seed(seed)) if training else images

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training or targets is None or not targets.moves:
            return self(images, seed, training=training), targets
        from tfgpuaug.augment import ops as aug_ops
        from tfgpuaug.augment.plan_geometry import geometric_stages, stage_maps

        out, op_ids, params = self._apply(images, self._next_seed(seed), return_plan=True)
        tf.debugging.assert_non_negative(op_ids, "custom augmentations cannot move boxes, masks or keypoints")
        hw = tg.image_sizes(images)
        if targets.masks is not None:  # the kernel's own warps, stage by stage (nearest, fill 0)
            moving = geometric_stages(op_ids)
            targets = targets.replace(masks=aug_ops.apply_stages(
                targets.masks, tf.where(moving, op_ids, 0), tf.where(moving, params, 0.0), fill_value=0.0,
                interpolation="nearest"))
        for forward in stage_maps(op_ids, params, hw[0, 0], hw[0, 1]):
            targets = targets.affine(forward, hw)
        return out, targets

    def get_config(self) -> dict:
        return dict(fill_value=self.fill_value, interpolation=self.interpolation, seed=self.seed)


class RandAugment(_Policy):
    """RandAugment (`tfgpuaug.augment.rand_augment`): each sample gets `num_ops` ops chosen
    uniformly, all at `magnitude`, in one batched kernel pass. uint8 in, uint8 out; boxes,
    masks and keypoints follow the geometric ops.

    Args:
      num_ops: ops applied per sample.
      magnitude: the ops' strength, in [0, num_magnitude_bins).
      num_magnitude_bins: the magnitude scale's size (31 as torchvision).
      monotonic_mag: posterize and solarize strengthen with the magnitude (False: the original
        implementations' mappings, which weaken).
      augmentations: the op names to choose from (`tfgpuaug.augment.registry`), or None for
        the standard list.
      fill_value: the value of pixels a geometric op moves in from outside the image.
      interpolation: "bilinear" or "nearest" for the geometric ops.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> ra = tfgpuaug.RandAugment(num_ops=2, magnitude=9)
    """

    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31,
                 monotonic_mag: bool = True, augmentations: Optional[Sequence] = None,
                 fill_value: float = 128.0, interpolation: str = "bilinear", seed: Optional[int] = None):
        super().__init__(fill_value, interpolation, seed)
        self.num_ops, self.magnitude = num_ops, magnitude
        self.num_magnitude_bins, self.monotonic_mag = num_magnitude_bins, monotonic_mag
        self.augmentations = augmentations
        from tfgpuaug.augment.policies import check_rand_augment_args
        check_rand_augment_args(num_ops, magnitude, num_magnitude_bins)

    def _apply(self, images, seed, return_plan: bool = False):
        from tfgpuaug.augment import rand_augment
        return rand_augment(images, self.num_ops, self.magnitude, self.num_magnitude_bins,
                            self.monotonic_mag, self.augmentations, seed, self.fill_value,
                            self.interpolation, return_plan)

    def get_config(self) -> dict:
        return dict(super().get_config(), num_ops=self.num_ops, magnitude=self.magnitude,
                    num_magnitude_bins=self.num_magnitude_bins, monotonic_mag=self.monotonic_mag,
                    augmentations=_names(self.augmentations))


class ColorJitter(_Policy):
    """`tfgpuaug.augment.color_jitter` (torchvision's ColorJitter: per-sample factors and order,
    one kernel pass) as a transform. Colour only: boxes, masks and keypoints pass through.

    Args:
      brightness: factor drawn in [max(0, 1 - brightness), 1 + brightness]; 0 leaves it.
      contrast: factor drawn in [max(0, 1 - contrast), 1 + contrast].
      saturation: factor drawn in [max(0, 1 - saturation), 1 + saturation].
      hue: shift drawn in [-hue, hue] turns, hue <= 0.5.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    moves_targets = False

    def __init__(self, brightness: float = 0.0, contrast: float = 0.0, saturation: float = 0.0,
                 hue: float = 0.0, seed: Optional[int] = None):
        super().__init__(seed=seed)
        from tfgpuaug.augment.color_jitter import check_color_jitter_args
        check_color_jitter_args(brightness, contrast, saturation, hue)
        self.brightness, self.contrast, self.saturation, self.hue = brightness, contrast, saturation, hue

    def _apply(self, images, seed, return_plan: bool = False):
        from tfgpuaug.augment.color_jitter import color_jitter
        return color_jitter(images, self.brightness, self.contrast, self.saturation, self.hue, seed, return_plan)

    def get_config(self) -> dict:
        return dict(brightness=self.brightness, contrast=self.contrast, saturation=self.saturation,
                    hue=self.hue, seed=self.seed)


class RandomErasing(Transform):
    """`tfgpuaug.augment.random_erasing` (timm's RandomErasing) as a transform, on uint8 or
    float images (after CropMirrorNormalize, as timm). Boxes, masks and keypoints pass
    through; inference leaves images alone.

    Args:
      probability: probability that a sample is erased.
      area: (min, max) fraction of the image's area erased (split among the rectangles).
      min_aspect: smallest aspect ratio of a rectangle; the largest is `max_aspect`, or
        1 / min_aspect when None.
      max_aspect: largest aspect ratio, or None.
      mode: "const" (the constant `value`), "rand" (one random colour per rectangle) or
        "pixel" (random per pixel).
      value: the fill of mode "const".
      count: (min, max) rectangles per erased sample.
      min_box_visibility: None (default, as timm and torchvision): boxes and keypoints pass
        through. A value in [0, 1] (Albumentations' CoarseDropout): a box keeps only if at
        least this fraction of its area stays unerased, and a keypoint only if no rectangle
        covers it; dropped boxes take their labels and other fields with them. Several
        rectangles of one sample count their overlap with a box once each (an upper bound on
        the erased area, so a box is dropped a little early where rectangles overlap).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    accepts_float = True

    moves_targets = False

    def __init__(self, probability: float = 0.5, area: Range = (0.02, 1 / 3), min_aspect: float = 0.3,
                 max_aspect: Optional[float] = None, mode: str = "const", value: float = 0.0,
                 count: Tuple[int, int] = (1, 1), min_box_visibility: Optional[float] = None,
                 seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.random_erasing import check_random_erasing_args
        check_random_erasing_args(probability, tuple(area), min_aspect, max_aspect, mode, tuple(count))
        if min_box_visibility is not None and not 0.0 <= min_box_visibility <= 1.0:
            raise ValueError(f"min_box_visibility must be None or in [0, 1], got {min_box_visibility}")
        self.probability, self.area, self.min_aspect, self.max_aspect = probability, tuple(area), min_aspect, max_aspect
        self.mode, self.value, self.count = mode, value, tuple(count)
        self.min_box_visibility = min_box_visibility
        self.moves_targets = min_box_visibility is not None

    def __call__(self, images, seed=None, training: bool = True):
        if not training:
            return images
        from tfgpuaug.augment.random_erasing import random_erasing
        return random_erasing(images, self.probability, self.area, self.min_aspect, self.max_aspect, self.mode,
                              self.value, self.count, self._next_seed(seed))

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if (not training or targets is None or self.min_box_visibility is None
                or (targets.boxes is None and targets.keypoints is None)):
            return self(images, seed, training=training), targets
        from tfgpuaug.augment.random_erasing import random_erasing
        out, rects = random_erasing(images, self.probability, self.area, self.min_aspect, self.max_aspect,
                                    self.mode, self.value, self.count, self._next_seed(seed), return_plan=True)
        return out, _drop_erased(targets, rects, self.min_box_visibility)

    def get_config(self) -> dict:
        return dict(probability=self.probability, area=self.area, min_aspect=self.min_aspect,
                    max_aspect=self.max_aspect, mode=self.mode, value=self.value, count=self.count,
                    min_box_visibility=self.min_box_visibility, seed=self.seed)


def _drop_erased(targets: tg.Targets, rects: tf.Tensor, min_visibility: float) -> tg.Targets:
    """Targets without the boxes less than `min_visibility` visible after erasing `rects`
    `[B, R, 4]` (y, x, h, w; zero size: unused) and without the keypoints they cover."""
    top, left = rects[..., 0], rects[..., 1]
    bottom, right = top + rects[..., 2], left + rects[..., 3]  # [B, R]
    if targets.boxes is not None:
        dense = tf.cast(targets.boxes.to_tensor(0.0), tf.float32)  # [B, N, 4] xyxy pixels
        x1, y1, x2, y2 = (dense[..., i:i + 1] for i in range(4))  # [B, N, 1]
        overlap_w = tf.maximum(tf.minimum(x2, right[:, None, :]) - tf.maximum(x1, left[:, None, :]), 0.0)
        overlap_h = tf.maximum(tf.minimum(y2, bottom[:, None, :]) - tf.maximum(y1, top[:, None, :]), 0.0)
        erased = tf.reduce_sum(overlap_w * overlap_h, axis=2)  # [B, N]
        area = (x2 - x1)[..., 0] * (y2 - y1)[..., 0]
        visible = tf.where(area > 0.0, 1.0 - erased / tf.maximum(area, 1e-12), 1.0)
        keep = tf.RaggedTensor.from_tensor(visible >= min_visibility, lengths=targets.boxes.row_lengths())
        targets = targets.keep_boxes(keep)
    if targets.keypoints is not None:
        points = tf.cast(targets.keypoints.to_tensor(-1.0), tf.float32)  # [B, K, 2] xy
        x, y = points[..., 0:1], points[..., 1:2]
        covered = tf.reduce_any((x >= left[:, None, :]) & (x < right[:, None, :]) &
                                (y >= top[:, None, :]) & (y < bottom[:, None, :]), axis=2)
        keep = tf.RaggedTensor.from_tensor(~covered, lengths=targets.keypoints.row_lengths())
        targets = targets.replace(keypoints=tf.ragged.boolean_mask(targets.keypoints, keep))
    return targets


def _warp_with_targets(images, targets: Optional[tg.Targets], matrices: tf.Tensor, interpolation: str,
                       fill: float) -> TransformOutput:
    """Images resampled through output-to-input maps `[B, 3, 3]`; masks warped with nearest
    sampling and fill 0; boxes (the enclosing box of their moved corners, clipped, filtered)
    and keypoints mapped forward."""
    from tfgpuaug.augment.random_perspective import warp_perspective
    out = warp_perspective(images, matrices, interpolation, fill)
    if targets is None or not targets.moves:
        return out, targets
    if targets.masks is not None:
        targets = targets.replace(masks=warp_perspective(targets.masks, matrices, "nearest", 0.0))
    forward = tf.cast(tf.linalg.inv(matrices), tf.float32)  # input -> output
    return out, targets.affine(forward, tg.image_sizes(images))


def _remap_affine_with_targets(images, targets: Optional[tg.Targets], matrices: tf.Tensor, interpolation: str,
                               border_mode: str, fill: float) -> TransformOutput:
    """As `_warp_with_targets` for affine `matrices` `[B, 3, 3]` (continuous coordinates) through
    the affine remap kernel, with OpenCV's border rule `border_mode` (uint8 images and masks;
    masks by the nearest remap with the same rule, fill 0)."""
    from tfgpuaug.distortions import remap_affine, remap_masks_affine
    images = tf.convert_to_tensor(images)
    if images.dtype != tf.uint8:
        raise ValueError(f"border_mode {border_mode!r} warps uint8 images, got {images.dtype.name}: put the transform "
                         "before any float conversion, or use border_mode='constant'")
    m = tf.cast(matrices, tf.float64)
    # pixel indices: input index = M (x + 0.5, y + 0.5) - 0.5
    rows = [m[:, 0, 0], m[:, 0, 1], (m[:, 0, 0] * 0.5 + m[:, 0, 1] * 0.5 + m[:, 0, 2]) - 0.5,
            m[:, 1, 0], m[:, 1, 1], (m[:, 1, 0] * 0.5 + m[:, 1, 1] * 0.5 + m[:, 1, 2]) - 0.5]
    index = tf.cast(tf.reshape(tf.stack(rows, axis=1), [-1, 2, 3]), tf.float32)
    out = remap_affine(images, index, None, interpolation, border_mode, fill)
    if targets is None or not targets.moves:
        return out, targets
    targets = remap_masks_affine(targets, index, border_mode, 0.0)
    forward = tf.cast(tf.linalg.inv(matrices), tf.float32)  # input -> output
    return out, targets.affine(forward, tg.image_sizes(images))


class RandomPerspective(Transform):
    """`tfgpuaug.augment.random_perspective` (torchvision's RandomPerspective) as a transform:
    boxes become the enclosing box of their moved corners (clipped, filtered), masks are
    warped with nearest sampling and fill 0, keypoints move; inference leaves images alone.

    Args:
      distortion_scale: how far the corners may move, as a fraction of half the image (0..1).
      probability: probability that a sample is warped.
      interpolation: "bilinear" or "nearest".
      fill: the value of pixels that map outside the image.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    accepts_float = True

    def __init__(self, distortion_scale: float = 0.5, probability: float = 0.5, interpolation: str = "bilinear",
                 fill: float = 0.0, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.random_perspective import check_random_perspective_args
        check_random_perspective_args(distortion_scale, probability, interpolation)
        self.distortion_scale, self.probability = float(distortion_scale), float(probability)
        self.interpolation, self.fill = interpolation, float(fill)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        from tfgpuaug.augment.random_perspective import perspective_matrices
        shape = tf.shape(images)
        matrices = perspective_matrices(shape[0], shape[1], shape[2], self.distortion_scale, self.probability,
                                        self._next_seed(seed))
        return _warp_with_targets(images, targets, matrices, self.interpolation, self.fill)

    def get_config(self) -> dict:
        return dict(distortion_scale=self.distortion_scale, probability=self.probability,
                    interpolation=self.interpolation, fill=self.fill, seed=self.seed)


class RandomAffine(Transform):
    """`tfgpuaug.augment.random_affine` (torchvision's RandomAffine, Albumentations' Affine and
    ShiftScaleRotate) as a transform: rotation, scale, shear and translation in one matrix per
    sample; boxes become the enclosing box of their moved corners (clipped, filtered), masks are
    warped with nearest sampling and fill 0, keypoints move; inference leaves images alone.

    Args:
      degrees: v (meaning (-v, v)) or (min, max), counter-clockwise.
      translate: (x, y) maximum shifts as fractions of the width and height (whole pixels).
      scale: (min, max) zoom.
      shear: v, (min, max) for x, or (x min, x max, y min, y max), degrees.
      probability: probability that a sample is warped.
      interpolation: "bilinear" or "nearest".
      fill: the value of pixels that map outside the image ("constant" border).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
      border_mode: what pixels that map outside the image read: "constant" (`fill`; uint8 or
        float images), or OpenCV's "replicate", "reflect", "wrap", "reflect_101" (Albumentations'
        `border_mode`; uint8 images, through the affine remap kernel with cv2.remap's rules;
        masks follow with the same rule and boxes and keypoints as for "constant").

    Example:
      >>> tga.RandomAffine(degrees=15, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5)
      >>> tga.RandomAffine(degrees=45, scale=(0.9, 1.1), border_mode="reflect_101")  # ShiftScaleRotate's look
    """

    accepts_float = True

    def __init__(self, degrees: Union[float, Range] = 0.0, translate: Range = (0.0, 0.0),
                 scale: Range = (1.0, 1.0), shear: Union[float, Sequence[float]] = 0.0, probability: float = 1.0,
                 interpolation: str = "bilinear", fill: float = 0.0, seed: Optional[int] = None,
                 border_mode: str = "constant"):
        super().__init__(seed)
        from tfgpuaug.augment.random_affine import affine_ranges, check_random_affine_args
        from tfgpuaug.distortions import BORDER_MODES
        affine_ranges(degrees, translate, scale, shear)
        check_random_affine_args(probability, interpolation)
        if border_mode not in BORDER_MODES:
            raise ValueError(f"border_mode must be one of {BORDER_MODES}, got {border_mode!r}")
        self.border_mode = border_mode
        as_list = lambda v: float(v) if isinstance(v, (int, float)) else tuple(float(x) for x in v)  # noqa: E731
        self.degrees, self.translate, self.scale = as_list(degrees), as_list(translate), as_list(scale)
        self.shear, self.probability = as_list(shear), float(probability)
        self.interpolation, self.fill = interpolation, float(fill)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        from tfgpuaug.augment.random_affine import affine_matrices
        shape = tf.shape(images)
        matrices = affine_matrices(shape[0], shape[1], shape[2], self.degrees, self.translate, self.scale,
                                   self.shear, self.probability, self._next_seed(seed))
        if self.border_mode != "constant":
            return _remap_affine_with_targets(images, targets, matrices, self.interpolation, self.border_mode,
                                              self.fill)
        return _warp_with_targets(images, targets, matrices, self.interpolation, self.fill)

    def get_config(self) -> dict:
        return dict(degrees=self.degrees, translate=self.translate, scale=self.scale, shear=self.shear,
                    probability=self.probability, interpolation=self.interpolation, fill=self.fill,
                    seed=self.seed, border_mode=self.border_mode)


class RandomZoomOut(Transform):
    """torchvision's RandomZoomOut (SSD's "expand") at a fixed output size: with probability
    `probability`, a sample is placed on a canvas `r` times its size (`r` uniform in
    `side_range`), at a uniformly random position, filled with `fill`, and the canvas is
    resampled back to the input size (bilinear, no antialiasing, as SSD's resize of the
    expanded canvas). Boxes, masks and keypoints follow; inference leaves images alone.

    Args:
      side_range: (min, max) canvas side as a multiple of the image's, min >= 1.
      probability: probability that a sample is zoomed out.
      fill: the canvas value.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    accepts_float = True

    def __init__(self, side_range: Range = (1.0, 4.0), probability: float = 0.5, fill: float = 0.0,
                 seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.random_affine import check_zoom_out_args
        check_zoom_out_args(side_range, probability)
        self.side_range, self.probability = tuple(float(v) for v in side_range), float(probability)
        self.fill = float(fill)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        from tfgpuaug.augment.random_affine import zoom_out_matrices
        shape = tf.shape(images)
        matrices = zoom_out_matrices(shape[0], shape[1], shape[2], self.side_range, self.probability,
                                     self._next_seed(seed))
        return _warp_with_targets(images, targets, matrices, "bilinear", self.fill)

    def get_config(self) -> dict:
        return dict(side_range=self.side_range, probability=self.probability, fill=self.fill, seed=self.seed)


class GridMask(Transform):
    """`tfgpuaug.augment.grid_mask` (GridMask, the authors' reference semantics) as a transform.
    Boxes, masks and keypoints pass through; inference leaves images alone.

    Args:
      d: (min, max) of the grid unit in pixels, drawn per sample in [min, max).
      ratio: the kept stripe's share of each unit, in (0, 1).
      rotate: the grid is rotated by a whole number of degrees in [0, rotate).
      mode: 1 masks the squares between the stripes, 0 the stripes.
      probability: probability that a sample is masked.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    accepts_float = True

    moves_targets = False

    def __init__(self, d: Tuple[int, int] = (96, 224), ratio: float = 0.6, rotate: int = 1, mode: int = 1,
                 probability: float = 1.0, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.grid_mask import check_grid_mask_args
        check_grid_mask_args(tuple(d), ratio, rotate, mode, probability)
        self.d, self.ratio, self.rotate, self.mode, self.probability = tuple(d), ratio, rotate, mode, probability

    def __call__(self, images, seed=None, training: bool = True):
        if not training:
            return images
        from tfgpuaug.augment.grid_mask import grid_mask
        return grid_mask(images, self.d, self.ratio, self.rotate, self.mode, self.probability, self._next_seed(seed))

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        return self(images, seed, training=training), targets

    def get_config(self) -> dict:
        return dict(d=self.d, ratio=self.ratio, rotate=self.rotate, mode=self.mode, probability=self.probability,
                    seed=self.seed)


class JpegQuality(Transform):
    """`tfgpuaug.augment.jpeg_quality` (a JPEG round trip per sample at a random quality) as a
    transform. libjpeg runs on the CPU, so a GPU-placed stage runs it, and the transforms
    before it, in the host part. Boxes, masks and keypoints pass through; inference leaves
    images alone.

    Args:
      quality: (min, max) JPEG quality, drawn per sample.
      probability: probability that a sample goes through the round trip.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    host_only = True
    moves_targets = False

    def __init__(self, quality: Tuple[int, int] = (30, 95), probability: float = 1.0, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.jpeg_quality import check_jpeg_quality_args
        check_jpeg_quality_args(tuple(quality), probability)
        self.quality, self.probability = tuple(quality), probability

    def __call__(self, images, seed=None, training: bool = True):
        if not training:
            return images
        from tfgpuaug.augment.jpeg_quality import jpeg_quality
        return jpeg_quality(images, self.quality, self.probability, self._next_seed(seed))

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        return self(images, seed, training=training), targets

    def get_config(self) -> dict:
        return dict(quality=self.quality, probability=self.probability, seed=self.seed)


class _Photometric(Transform):
    """Shared plumbing of the one-stage photometric transforms (uint8 in, uint8 out; boxes,
    masks and keypoints pass through; inference leaves images alone)."""

    moves_targets = False

    def _run(self, images, seed):
        raise NotImplementedError

    def __call__(self, images, seed=None, training: bool = True):
        return self._run(images, self._next_seed(seed)) if training else images

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        return self(images, seed, training=training), targets


class _ProbabilityOnly(_Photometric):
    """A one-stage photometric transform whose only argument is its probability: the function
    `_function` of `tfgpuaug.augment.photometric`, called as f(images, probability, seed)."""

    _function = ""

    def __init__(self, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import _check_probability
        _check_probability(probability)
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment import photometric
        return getattr(photometric, self._function)(images, self.probability, seed)

    def get_config(self) -> dict:
        return dict(probability=self.probability, seed=self.seed)


class RandomGamma(_Photometric):
    """`tfgpuaug.augment.random_gamma` (Albumentations' RandomGamma) as a transform: per sample,
    `255 * (v / 255) ** g` with `g` uniform in `gamma`, rounded, with probability `probability`.

    Args:
      gamma: (min, max) exponent (Albumentations' `gamma_limit=(80, 120)` is `(0.8, 1.2)`).
      probability: probability that a sample is changed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.RandomGamma((0.7, 1.5))]))
    """

    def __init__(self, gamma: Range = (0.8, 1.2), probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import check_gamma_args
        check_gamma_args(tuple(gamma), probability)
        self.gamma, self.probability = tuple(float(g) for g in gamma), float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import random_gamma
        return random_gamma(images, self.gamma, self.probability, seed)

    def get_config(self) -> dict:
        return dict(gamma=self.gamma, probability=self.probability, seed=self.seed)


class ChannelShuffle(_ProbabilityOnly):
    """`tfgpuaug.augment.channel_shuffle` (Albumentations' ChannelShuffle) as a transform: a
    sample's RGB channels in one of their six orders, uniformly, with probability `probability`.

    Args:
      probability: probability that a sample is shuffled.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _function = "channel_shuffle"


class RGBShift(_Photometric):
    """`tfgpuaug.augment.rgb_shift` (Albumentations' RGBShift, limits in levels) as a transform:
    a shift per colour channel, uniform in its range, rounded, saturating, with probability
    `probability`.

    Args:
      shift: one number s (every channel in [-s, s]), three numbers, or three (min, max) ranges,
        in levels, for red, green and blue (Albumentations' r/g/b_shift_limit).
      probability: probability that a sample is shifted.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, shift: Union[float, Sequence] = 20.0, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import check_rgb_shift_args, rgb_shift_ranges
        self.shift = rgb_shift_ranges(shift)
        check_rgb_shift_args(self.shift, probability)
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import rgb_shift
        return rgb_shift(images, self.shift, self.probability, seed)

    def get_config(self) -> dict:
        return dict(shift=self.shift, probability=self.probability, seed=self.seed)


class HueSaturationValue(_Photometric):
    """`tfgpuaug.augment.random_hsv_shift` (Albumentations' HueSaturationValue) as a transform:
    per sample, OpenCV's 8-bit HSV with the hue, saturation and value shifted by amounts uniform
    in their ranges, with probability `probability`.

    Args:
      hue_shift: s for (-s, s), or (min, max), in OpenCV's hue units (180 a full turn), within
        [-180, 180] (Albumentations' hue_shift_limit).
      sat_shift: the same in levels, within [-255, 255] (sat_shift_limit).
      val_shift: the same in levels, within [-255, 255] (val_shift_limit).
      probability: probability that a sample is changed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.HueSaturationValue(10, 20, 20)]))
    """

    def __init__(self, hue_shift: Union[float, Range] = 20.0, sat_shift: Union[float, Range] = 30.0,
                 val_shift: Union[float, Range] = 20.0, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.color_curves import hsv_shift_ranges
        from tfgpuaug.augment.photometric import _check_probability
        self.hue_shift, self.sat_shift, self.val_shift = hsv_shift_ranges(hue_shift, sat_shift, val_shift)
        _check_probability(probability)
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.color_curves import random_hsv_shift
        return random_hsv_shift(images, self.hue_shift, self.sat_shift, self.val_shift, self.probability, seed)

    def get_config(self) -> dict:
        return dict(hue_shift=self.hue_shift, sat_shift=self.sat_shift, val_shift=self.val_shift,
                    probability=self.probability, seed=self.seed)


class RandomToneCurve(_Photometric):
    """`tfgpuaug.augment.random_tone_curve` (Albumentations' RandomToneCurve) as a transform: per
    sample, a cubic Bezier tone curve with control heights `N(0.25, scale)` and `N(0.75, scale)`
    on every channel (or one drawn per channel), with probability `probability`.

    Args:
      scale: standard deviation of the two control points, in [0, 1].
      probability: probability that a sample is changed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
      per_channel: one curve drawn per channel (Albumentations' per_channel=True).
    """

    def __init__(self, scale: float = 0.1, probability: float = 0.5, seed: Optional[int] = None,
                 per_channel: bool = False):
        super().__init__(seed)
        from tfgpuaug.augment.color_curves import check_tone_curve_args
        check_tone_curve_args(scale, probability)
        self.scale, self.probability, self.per_channel = float(scale), float(probability), bool(per_channel)

    def _run(self, images, seed):
        from tfgpuaug.augment.color_curves import random_tone_curve
        return random_tone_curve(images, self.scale, self.probability, seed, per_channel=self.per_channel)

    def get_config(self) -> dict:
        return dict(scale=self.scale, probability=self.probability, seed=self.seed, per_channel=self.per_channel)


class ToGray(_ProbabilityOnly):
    """`tfgpuaug.augment.to_gray` (Albumentations' ToGray, torchvision's RandomGrayscale) as a
    transform: a sample's RGB replaced by its luma, with probability `probability`.

    Args:
      probability: probability that a sample turns gray.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _function = "to_gray"


class GaussianBlur(_Photometric):
    """`tfgpuaug.augment.random_gaussian_blur` (torchvision's GaussianBlur sigma range) as a
    transform: a per-sample sigma, radius ceil(3 sigma) up to 16, reflect-101 borders.

    Args:
      sigma: (min, max) standard deviation in pixels.
      probability: probability that a sample is blurred.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, sigma: Range = (0.1, 2.0), probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import _check_probability, check_range
        check_range("sigma", tuple(sigma), 1e-3)
        _check_probability(probability)
        self.sigma, self.probability = tuple(float(v) for v in sigma), float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import random_gaussian_blur
        return random_gaussian_blur(images, self.sigma, self.probability, seed)

    def get_config(self) -> dict:
        return dict(sigma=self.sigma, probability=self.probability, seed=self.seed)


class GaussNoise(_Photometric):
    """`tfgpuaug.augment.random_gaussian_noise` (Albumentations' GaussNoise, std in levels) as a
    transform: Gaussian noise per pixel and channel with a per-sample deviation.

    Args:
      std: (min, max) standard deviation in levels (0..255).
      probability: probability that a sample gets noise.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, std: Range = (5.0, 25.0), probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import _check_probability, check_range
        check_range("std", tuple(std), 0.0, 255.0)
        _check_probability(probability)
        self.std, self.probability = tuple(float(v) for v in std), float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import random_gaussian_noise
        return random_gaussian_noise(images, self.std, self.probability, seed)

    def get_config(self) -> dict:
        return dict(std=self.std, probability=self.probability, seed=self.seed)


class ISONoise(_Photometric):
    """`tfgpuaug.augment.random_iso_noise` (Albumentations' ISONoise) as a transform: camera
    sensor noise per sample, hue jitter and Poisson lightness noise in OpenCV's float HLS.

    Args:
      color_shift: (min, max) of the hue noise scale, within [0, 1].
      intensity: (min, max) of the noise intensity, within [0, 10].
      probability: probability that a sample gets noise.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, color_shift: Range = (0.01, 0.05), intensity: Range = (0.1, 0.5), probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import check_iso_noise_args
        check_iso_noise_args(color_shift, intensity, probability)
        self.color_shift, self.intensity = tuple(float(v) for v in color_shift), tuple(float(v) for v in intensity)
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import random_iso_noise
        return random_iso_noise(images, self.color_shift, self.intensity, self.probability, seed)

    def get_config(self) -> dict:
        return dict(color_shift=self.color_shift, intensity=self.intensity, probability=self.probability,
                    seed=self.seed)


class CLAHE(_Photometric):
    """`tfgpuaug.augment.random_clahe` (Albumentations' CLAHE) as a transform: OpenCV's
    contrast-limited adaptive histogram equalisation per sample, on L*a*b*'s L for colour.

    Args:
      clip_limit: (min, max) clip limit within [0, 256], uniform per sample; one number c means
        (1, c), as Albumentations.
      tile_grid_size: (tiles across the width, tiles down the height), each 1 .. 16.
      probability: probability that a sample is equalised.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.CLAHE(clip_limit=(1, 4), probability=0.5)]))
    """

    def __init__(self, clip_limit: Union[float, Range] = 4.0, tile_grid_size: Tuple[int, int] = (8, 8),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import check_clahe_args, clahe_clip_range
        self.clip_limit = clahe_clip_range(clip_limit)
        self.tile_grid_size = tuple(tile_grid_size)
        check_clahe_args(self.clip_limit, self.tile_grid_size, probability)
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import random_clahe
        return random_clahe(images, self.clip_limit, self.tile_grid_size, self.probability, seed)

    def get_config(self) -> dict:
        return dict(clip_limit=self.clip_limit, tile_grid_size=self.tile_grid_size, probability=self.probability,
                    seed=self.seed)


class _Relief(_Photometric):
    """Sharpen and Emboss: alpha and one more range (`amount`, named by the subclass), drawn per
    sample, through one 3x3 kernel stage."""

    amount: str  # the second range's argument name
    amount_limits: Tuple[float, float]
    function: str  # tfgpuaug.augment.photometric's random_* function

    def _setup(self, alpha: Range, amount: Range, probability: float) -> None:
        from tfgpuaug.augment.photometric import _check_probability, check_range
        check_range("alpha", tuple(alpha), 0.0, 1.0)
        check_range(self.amount, tuple(amount), *self.amount_limits)
        _check_probability(probability)
        self.alpha = tuple(float(a) for a in alpha)
        setattr(self, self.amount, tuple(float(v) for v in amount))
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment import photometric
        return getattr(photometric, self.function)(images, self.alpha, getattr(self, self.amount), self.probability,
                                                   seed)

    def get_config(self) -> dict:
        return {"alpha": self.alpha, self.amount: getattr(self, self.amount), "probability": self.probability,
                "seed": self.seed}


class Sharpen(_Relief):
    """`tfgpuaug.augment.random_sharpen` (Albumentations' Sharpen) as a transform: per sample,
    the 3x3 kernel (1 - alpha) * identity + alpha * (-1 around 8 + lightness), alpha and
    lightness uniform in their ranges, with probability `probability`.

    Args:
      alpha: (min, max) blend of the sharpened image, within [0, 1].
      lightness: (min, max) centre weight added to 8, within [0.5, 1.5].
      probability: probability that a sample is sharpened.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    amount, amount_limits, function = "lightness", (0.5, 1.5), "random_sharpen"

    def __init__(self, alpha: Range = (0.2, 0.5), lightness: Range = (0.5, 1.0), probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(seed)
        self._setup(alpha, lightness, probability)


class Emboss(_Relief):
    """`tfgpuaug.augment.random_emboss` (Albumentations' Emboss) as a transform: per sample, the
    3x3 relief kernel of strength s blended by alpha, both uniform in their ranges, with
    probability `probability`.

    Args:
      alpha: (min, max) blend of the embossed image, within [0, 1].
      strength: (min, max) relief strength, within [0.2, 1.2].
      probability: probability that a sample is embossed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    amount, amount_limits, function = "strength", (0.2, 1.2), "random_emboss"

    def __init__(self, alpha: Range = (0.2, 0.5), strength: Range = (0.2, 0.7), probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(seed)
        self._setup(alpha, strength, probability)


class _OddWindowBlur(_Photometric):
    """A blur whose only arguments are an odd window side range and a probability: the function
    `_function` of `tfgpuaug.augment.photometric`, sides up to `_largest`."""

    _largest = 7
    _function = ""

    def __init__(self, size: Tuple[int, int] = (3, 7), probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import _check_probability, check_odd_sizes
        _check_probability(probability)
        self.size, self.probability = check_odd_sizes(size, self._largest), float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment import photometric
        return getattr(photometric, self._function)(images, self.size, self.probability, seed)

    def get_config(self) -> dict:
        return dict(size=self.size, probability=self.probability, seed=self.seed)


class MedianBlur(_OddWindowBlur):
    """`tfgpuaug.augment.random_median_blur` (Albumentations' MedianBlur) as a transform: the
    median of each pixel's window, its odd side drawn per sample from `size`, with probability
    `probability` (border replicated, as OpenCV's medianBlur).

    Args:
      size: (min, max) odd window sides within [3, 7] (Albumentations' `blur_limit`).
      probability: probability that a sample is blurred.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _function = "random_median_blur"

    def __init__(self, size: Tuple[int, int] = (3, 7), probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(size, probability, seed)


class Blur(_OddWindowBlur):
    """`tfgpuaug.augment.random_blur` (Albumentations' Blur) as a transform: the mean of each
    pixel's window (a box filter, reflect-101 border, rounded to the nearest level, as OpenCV's
    blur), its odd side drawn per sample from `size`, with probability `probability`.

    Args:
      size: (min, max) odd window sides within [3, 15] (Albumentations' `blur_limit`).
      probability: probability that a sample is blurred.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    _largest = 15
    _function = "random_blur"

    def __init__(self, size: Tuple[int, int] = (3, 7), probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(size, probability, seed)


class MotionBlur(_Photometric):
    """`tfgpuaug.augment.random_motion_blur` (Albumentations' MotionBlur, with a line whose
    offsets are rounded to whole pixels) as a transform: the mean along a line of a length and
    an angle drawn per sample, with probability `probability`.

    Args:
      length: (min, max) line length in pixels, within [3, 31] (Albumentations' `blur_limit`).
      angle: (min, max) degrees, counter-clockwise from the x axis.
      probability: probability that a sample is blurred.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, length: Tuple[int, int] = (3, 7), angle: Range = (0.0, 360.0), probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import _check_probability, check_range
        length = tuple(int(v) for v in length)
        check_range("length", length, 3, 31)
        if len(angle) != 2 or not angle[0] <= angle[1]:
            raise ValueError(f"angle must be (min, max) degrees with min <= max, got {angle}")
        _check_probability(probability)
        self.length, self.angle = length, tuple(float(a) for a in angle)
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import random_motion_blur
        return random_motion_blur(images, self.length, self.angle, self.probability, seed)

    def get_config(self) -> dict:
        return dict(length=self.length, angle=self.angle, probability=self.probability, seed=self.seed)


class AugMix(Transform):
    """`tfgpuaug.augment.augmix` (AugMix, torchvision's semantics) as a transform: per sample, a
    Beta-weighted blend of the image with a Dirichlet-weighted mix of `mixture_width` chains of
    1 to 3 operations from torchvision's AugMix space; one kernel pass per chain. For
    classification: with boxes, masks or keypoints it is refused (the chains warp the image
    differently, so they have no single place); inference leaves images alone.

    Args:
      severity: magnitude bins drawn in [0, severity) of 10.
      mixture_width: chains mixed.
      chain_depth: operations per chain, or -1 for 1 to 3 per chain and sample.
      alpha: the Dirichlet and Beta concentration.
      all_ops: include brightness, color, contrast and sharpness (torchvision's default).
      fill_value: the value of pixels a geometric op moves in (torchvision's default: 0).
      interpolation: "bilinear" or "nearest" for the geometric ops.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, severity: int = 3, mixture_width: int = 3, chain_depth: int = -1, alpha: float = 1.0,
                 all_ops: bool = True, fill_value: float = 0.0, interpolation: str = "bilinear",
                 seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.augmix import check_augmix_args
        from tfgpuaug.augment.ops import INTERPOLATIONS
        check_augmix_args(severity, mixture_width, chain_depth, alpha)
        _checks.one_of("interpolation", interpolation, INTERPOLATIONS)
        self.severity, self.mixture_width, self.chain_depth = int(severity), int(mixture_width), int(chain_depth)
        self.alpha, self.all_ops = float(alpha), bool(all_ops)
        self.fill_value, self.interpolation = float(fill_value), interpolation

    def __call__(self, images, seed=None, training: bool = True):
        if not training:
            return images
        from tfgpuaug.augment.augmix import augmix
        return augmix(images, self.severity, self.mixture_width, self.chain_depth, self.alpha, self.all_ops,
                      self.fill_value, self.interpolation, self._next_seed(seed))

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if training and targets is not None and targets.moves:
            raise ValueError("AugMix mixes differently warped copies of each image, so boxes, masks and keypoints "
                             "have no single place in the result: use it for classification, or use RandAugment / "
                             "TrivialAugment, whose geometric ops move annotations")
        return self(images, seed, training=training), targets

    def get_config(self) -> dict:
        return dict(severity=self.severity, mixture_width=self.mixture_width, chain_depth=self.chain_depth,
                    alpha=self.alpha, all_ops=self.all_ops, fill_value=self.fill_value,
                    interpolation=self.interpolation, seed=self.seed)


class Downscale(_Photometric):
    """`tfgpuaug.augment.random_downscale` (Albumentations' Downscale, nearest down and up) as a
    transform: per sample, down by a scale uniform in `scale` and back up, with probability
    `probability`.

    Args:
      scale: (min, max) within (0, 1) (Albumentations' `scale_range`).
      probability: probability that a sample is downscaled.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, scale: Range = (0.25, 0.25), probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        scale = tuple(float(s) for s in scale)
        if len(scale) != 2 or not 0.0 < scale[0] <= scale[1] < 1.0:
            raise ValueError(f"scale must be (min, max) with 0 < min <= max < 1, got {scale}")
        from tfgpuaug.augment.photometric import _check_probability
        _check_probability(probability)
        self.scale, self.probability = scale, float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import random_downscale
        return random_downscale(images, self.scale, self.probability, seed)

    def get_config(self) -> dict:
        return dict(scale=self.scale, probability=self.probability, seed=self.seed)


class RandomPhotometricDistort(_Photometric):
    """`tfgpuaug.augment.random_photometric_distort` (torchvision's RandomPhotometricDistort,
    SSD's photometric distortions) as a transform: brightness, contrast (before or after the
    colour stages), saturation and hue, each with probability `probability`, then a random RGB
    permutation with probability `probability`; one kernel pass per batch.

    Args:
      brightness: (min, max) factor.
      contrast: (min, max) factor.
      saturation: (min, max) factor.
      hue: (min, max) shift in turns.
      probability: probability of each distortion and of the permutation.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, brightness: Range = (0.875, 1.125), contrast: Range = (0.5, 1.5),
                 saturation: Range = (0.5, 1.5), hue: Range = (-0.05, 0.05), probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.color_jitter import check_photometric_distort_args
        ranges = [tuple(float(v) for v in r) for r in (brightness, contrast, saturation, hue)]
        check_photometric_distort_args(*ranges, probability)
        self.brightness, self.contrast, self.saturation, self.hue = ranges
        self.probability = float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.color_jitter import random_photometric_distort
        return random_photometric_distort(images, self.brightness, self.contrast, self.saturation, self.hue,
                                          self.probability, seed)

    def get_config(self) -> dict:
        return dict(brightness=self.brightness, contrast=self.contrast, saturation=self.saturation, hue=self.hue,
                    probability=self.probability, seed=self.seed)


class PCALighting(_Photometric):
    """`tfgpuaug.augment.pca_lighting` (AlexNet's lighting noise, as TF Model Garden's and
    fb.resnet's) as a transform: a per-sample RGB shift along ImageNet's principal components,
    weights N(0, std^2), with probability `probability`.

    Args:
      std: standard deviation of the components' weights (0.1 in AlexNet).
      probability: probability that a sample is changed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, std: float = 0.1, probability: float = 1.0, seed: Optional[int] = None):
        super().__init__(seed)
        from tfgpuaug.augment.photometric import _check_probability
        if not std >= 0.0:
            raise ValueError(f"std must be >= 0, got {std}")
        _check_probability(probability)
        self.std, self.probability = float(std), float(probability)

    def _run(self, images, seed):
        from tfgpuaug.augment.photometric import pca_lighting
        return pca_lighting(images, self.std, self.probability, seed)

    def get_config(self) -> dict:
        return dict(std=self.std, probability=self.probability, seed=self.seed)


class TrivialAugment(_Policy):
    """TrivialAugmentWide (`tfgpuaug.augment.trivial_augment`): one op per sample, chosen
    uniformly, at a uniformly drawn magnitude bin. uint8 in, uint8 out.

    Args:
      num_magnitude_bins: the magnitude scale's size.
      augmentations: the op names to choose from, or None for the standard list.
      fill_value: the value of pixels a geometric op moves in from outside the image.
      interpolation: "bilinear" or "nearest" for the geometric ops.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, num_magnitude_bins: int = 31, augmentations: Optional[Sequence] = None,
                 fill_value: float = 128.0, interpolation: str = "bilinear", seed: Optional[int] = None):
        super().__init__(fill_value, interpolation, seed)
        self.num_magnitude_bins, self.augmentations = num_magnitude_bins, augmentations

    def _apply(self, images, seed, return_plan: bool = False):
        from tfgpuaug.augment import trivial_augment
        return trivial_augment(images, self.num_magnitude_bins, self.augmentations, seed,
                               self.fill_value, self.interpolation, return_plan)

    def get_config(self) -> dict:
        return dict(super().get_config(), num_magnitude_bins=self.num_magnitude_bins,
                    augmentations=_names(self.augmentations))


class AutoAugment(_Policy):
    """AutoAugment (`tfgpuaug.augment.auto_augment`): each sample draws one sub-policy; each of
    its ops applies with its probability at its magnitude. uint8 in, uint8 out.

    Args:
      policy: the policy's name ("imagenet", ...; `tfgpuaug.augment.auto_augment_policies`).
      fill_value: the value of pixels a geometric op moves in from outside the image.
      interpolation: "bilinear" or "nearest" for the geometric ops.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, policy: str = "imagenet", fill_value: float = 128.0, interpolation: str = "bilinear",
                 seed: Optional[int] = None):
        super().__init__(fill_value, interpolation, seed)
        from tfgpuaug.augment.auto_augment_policies import POLICIES
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; known: {', '.join(sorted(POLICIES))}")
        self.policy = policy

    def _apply(self, images, seed, return_plan: bool = False):
        from tfgpuaug.augment import auto_augment
        return auto_augment(images, self.policy, seed, self.fill_value, self.interpolation, return_plan)

    def get_config(self) -> dict:
        return dict(super().get_config(), policy=self.policy)
