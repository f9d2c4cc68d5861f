"""Keras 3 layers over tfgpuaug's transforms, for preprocessing inside models (the path that
exports in a SavedModel). Each layer is a thin adapter: it takes the same arguments as the
transform of the same name (`tfgpuaug.RandomResizedCrop` ...), builds that transform, and
delegates `call` (with `training`), `compute_output_shape` and `get_config` to it. Random
layers draw a stateless seed per call from a `keras.random.SeedGenerator(seed)`; with
`training=False` every layer is deterministic (see each transform's inference behaviour).

Layers take encoded bytes `tf.string [B]` where the transform decodes, else uint8 images.
Saved `.keras` models and SavedModels reload after `import tfgpuaug` (which registers the
layers and the ops).
"""
from __future__ import annotations

import inspect
import logging

import keras
import tensorflow as tf

from tfgpuaug import detection_mixup as _dm
from tfgpuaug import mask_dropout as _md
from tfgpuaug import control_point_distortions as _cp
from tfgpuaug import shortest_size as _ss
from tfgpuaug import copy_paste as _cpp
from tfgpuaug import distortions as _dd
from tfgpuaug import grid_elastic as _ge
from tfgpuaug import dihedral as _dh
from tfgpuaug import padding as _pad
from tfgpuaug import multi_crop as _mc
from tfgpuaug import morphology as _mo
from tfgpuaug import multiplicative_noise as _mn
from tfgpuaug import additive_noise as _an
from tfgpuaug import planckian_jitter as _pj
from tfgpuaug import he_stain as _hs
from tfgpuaug import illumination as _il
from tfgpuaug import plasma as _pl
from tfgpuaug import constrained_dropout as _cd
from tfgpuaug import chromatic_aberration as _ca
from tfgpuaug import unsharp_mask as _um
from tfgpuaug import kernel_blurs as _kb
from tfgpuaug import superpixels as _spx
from tfgpuaug import weather as _wx
from tfgpuaug import domain_adaptation as _da
from tfgpuaug import pixel_dropout as _pd
from tfgpuaug import sepia as _sp
from tfgpuaug import shot_noise as _sn
from tfgpuaug import safe_rotate as _sr
from tfgpuaug import xy_masking as _xy
from tfgpuaug import crop_and_pad as _cap
from tfgpuaug import grid_shuffle as _gs
from tfgpuaug import keypoints as _kp
from tfgpuaug import targeted_crops as _tc
from tfgpuaug import window_crops as _wc
from tfgpuaug import transforms as _t

_PACKAGE = "tfgpuaug"
_LAYER_KWARGS = ("name", "trainable", "dtype", "autocast")


class TransformLayer(keras.layers.Layer):
    """A Keras layer running one transform; subclasses name the transform class.

    Every layer takes its transform's arguments plus Keras's `name` and `dtype` (for
    `CropMirrorNormalize`, `dtype` is the output dtype, as a Keras dtype policy) and
    `bounding_box_format`: a layer called on Keras 3's dict layout (`{"images": ...,
    "bounding_boxes": {"boxes", "labels"}, "segmentation_masks": ..., "keypoints": ...}`) moves
    the annotations with the pixels, boxes in that format (dense boxes come back padded with -1
    to the same N).

    Where tfgpuaug's conventions differ from Keras 3's preprocessing layers:

    - images are uint8 0..255 (declare `keras.Input(shape, dtype="uint8")`: Keras casts inputs to
      float otherwise); `mean`/`std` are on the 0..255 scale;
    - flips take probabilities (`RandomFlip(horizontal=0.5, vertical=0.0)`; Keras's
      `mode="horizontal"` is accepted and means the same);
    - RandAugment's `magnitude` counts bins of `num_magnitude_bins` (torchvision's, one fixed
      strength), not Keras's `factor` in [0, 1] (a random strength): `factor` is refused with
      the nearest `magnitude`.

    Keras's spellings that mean the same are accepted: `height` and `width` for
    `size=(height, width)`, `interpolation` for `method`, `mode` on `RandomFlip`, and
    `value_range=(low, high)`: float images in that range (what Keras hands a layer unless the
    input is declared uint8) are mapped to 0..255 uint8 for the transform, and a uint8 result
    is mapped back to the input's dtype and range (`CropMirrorNormalize`'s float output is
    returned as it is). Without `value_range`, float images are refused.
    """

    transform_class: type = _t.Transform

    def __init__(self, *args, **kwargs):
        from tfgpuaug import boxes as bx

        self.bounding_box_format = kwargs.pop("bounding_box_format", "xyxy")
        bx.check_format(self.bounding_box_format, "bounding_box_format")
        self.value_range = _keras_spellings(self.transform_class, kwargs)
        layer_kwargs = {k: kwargs.pop(k) for k in _LAYER_KWARGS if k in kwargs}
        layer_kwargs.setdefault("autocast", False)
        takes_dtype = "dtype" in self.transform_class.__init__.__code__.co_varnames
        if takes_dtype and "dtype" in layer_kwargs:  # CropMirrorNormalize: the output dtype
            kwargs["dtype"] = tf.as_dtype(keras.dtype_policies.get(layer_kwargs["dtype"]).compute_dtype)
        super().__init__(**layer_kwargs)
        self.transform = self.transform_class(*args, **kwargs)
        self.random = "seed" in self.transform.get_config()
        self.seed_generator = keras.random.SeedGenerator(kwargs.get("seed")) if self.random else None

    def call(self, inputs, training=False):
        seed = tf.cast(self.seed_generator.next(), tf.int64) if self.random and training else None
        if isinstance(inputs, dict):  # Keras 3's {"images", "bounding_boxes", ...}: annotations follow
            return self._call_on_dict(inputs, seed, bool(training))
        images, restore = self._to_uint8(inputs)
        return restore(self.transform(images, seed=seed, training=bool(training)))

    def _to_uint8(self, images):
        """(images as the transform takes them, a function giving its output the input's range)."""
        if self.value_range is None or isinstance(images, tf.RaggedTensor) or images.dtype == tf.string:
            return images, lambda out: out
        low, high = (float(v) for v in self.value_range)
        if images.dtype == tf.uint8:
            if (low, high) != (0.0, 255.0):
                raise ValueError(f"{self.name}: uint8 images are 0..255, and value_range={self.value_range}; "
                                 "give value_range=(0, 255) or float images in the range")
            return images, lambda out: out
        if not images.dtype.is_floating:
            raise TypeError(f"{self.name}: images must be uint8 or floating point with value_range, got "
                            f"{images.dtype.name}")
        scale = 255.0 / (high - low)
        pixels = tf.round((tf.cast(images, tf.float32) - low) * scale)
        pixels = tf.cast(tf.clip_by_value(pixels, 0.0, 255.0), tf.uint8)

        def restore(out):
            if isinstance(out, tf.Tensor) and out.dtype == tf.uint8:
                return tf.cast(tf.cast(out, tf.float32) / scale + low, images.dtype)
            return out
        return pixels, restore

    def _call_on_dict(self, inputs, seed, training):
        from tfgpuaug._elements import BOXES, Layout

        boxes = inputs.get(BOXES, {}).get("boxes") if isinstance(inputs.get(BOXES), dict) else None
        # Dense boxes in, dense boxes out: padded back to the input's N with -1 (as Keras 3).
        max_boxes = boxes.shape[1] if boxes is not None and not isinstance(boxes, tf.RaggedTensor) else None
        layout = Layout(self.bounding_box_format, max_boxes)
        images, targets, rebuild = layout.split(inputs)
        images, restore = self._to_uint8(images)
        if targets is None:
            return rebuild(restore(self.transform(images, seed=seed, training=training)), None)
        images, targets = self.transform.apply(images, targets, seed, training)
        return rebuild(restore(images), targets)

    def compute_output_shape(self, input_shape):
        return self.transform.output_shape(tuple(input_shape))

    def get_config(self):
        config = {**super().get_config(), **self.transform.get_config(),
                  "bounding_box_format": self.bounding_box_format}
        if self.value_range is not None:
            config["value_range"] = tuple(self.value_range)
        return config


def _keras_spellings(transform_class: type, kwargs: dict):
    """Rewrites, in place, Keras 3's argument spellings that mean what tfgpuaug's do, refuses
    those that do not with the nearest tfgpuaug argument, and returns `value_range` (or None)."""
    name = transform_class.__name__
    params = inspect.signature(transform_class.__init__).parameters
    if "height" in kwargs or "width" in kwargs:
        if "size" not in params:
            raise TypeError(f"{name} takes no height/width (Keras's spelling of size=(height, width))")
        if "size" in kwargs or "height" not in kwargs or "width" not in kwargs:
            raise TypeError(f"{name}: give height and width together, or size=(height, width)")
        kwargs["size"] = (kwargs.pop("height"), kwargs.pop("width"))
    if "interpolation" in kwargs and "interpolation" not in params and "method" in params:
        if "method" in kwargs:
            raise TypeError(f"{name}: give method or interpolation (Keras's spelling), not both")
        kwargs["method"] = kwargs.pop("interpolation")
    if "factor" in kwargs and "factor" not in params:
        factor = kwargs.pop("factor")
        if "magnitude" in params:
            bins = kwargs.get("num_magnitude_bins", params["num_magnitude_bins"].default)
            nearest = round(float(factor if not isinstance(factor, (tuple, list)) else factor[-1]) * (bins - 1))
            raise TypeError(f"{name} takes magnitude (a fixed strength, in bins of num_magnitude_bins={bins}: "
                            f"torchvision's convention), not Keras's factor (a random strength in [0, 1]): "
                            f"factor={factor} is closest to magnitude={nearest}")
        raise TypeError(f"{name} has no factor (Keras's random strength in [0, 1]): see help(tfgpuaug.keras.{name}) "
                        "for its arguments")
    value_range = kwargs.pop("value_range", None)
    if value_range is not None:
        if len(value_range) != 2 or not float(value_range[0]) < float(value_range[1]):
            raise ValueError(f"{name}: value_range must be (low, high) with low < high, got {value_range}")
        value_range = tuple(value_range)
    return value_range


def _init_with_signature(transform_class: type):
    """An `__init__` whose signature is the transform's arguments plus Keras's `name` and
    `dtype`, so `inspect.signature`, `help()`, IDEs and the API reference show them."""
    params = [p for p in inspect.signature(transform_class.__init__).parameters.values() if p.name != "self"]
    taken = {p.name for p in params}
    extra = (("height", None), ("width", None)) if "size" in taken else ()
    extra += (("value_range", None), ("bounding_box_format", "xyxy"), ("name", None), ("dtype", None))
    layer = [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=default)
             for k, default in extra if k not in taken]
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)

    def __init__(self, *args, **kwargs):
        TransformLayer.__init__(self, *args, **kwargs)

    __init__.__signature__ = inspect.Signature([self_param] + params + layer)
    return __init__


def _layer_doc(transform_class: type, lead: str) -> str:
    lead = lead.replace("\n", "\n    ")
    return (f"{lead}\n\n    The layer of `tfgpuaug.{transform_class.__name__}`, with its arguments (and "
            f"`value_range`, `bounding_box_format`, `name` and `dtype`, and Keras's `height`/`width` where "
            f"there is a `size`: see `TransformLayer`):\n\n    "
            + inspect.cleandoc(transform_class.__doc__ or "").replace("\n", "\n    "))


def _layer(transform_class: type) -> type:
    doc = _layer_doc(transform_class, f"Keras layer: `tfgpuaug.{transform_class.__name__}` inside a model.")
    cls = type(transform_class.__name__, (TransformLayer,),
               {"transform_class": transform_class, "__doc__": doc, "__module__": __name__,
                "__init__": _init_with_signature(transform_class)})
    return keras.saving.register_keras_serializable(package=_PACKAGE)(cls)


RandomResizedCrop = _layer(_t.RandomResizedCrop)
ResizeCenterCrop = _layer(_t.ResizeCenterCrop)
Resize = _layer(_t.Resize)
RandomFlip = _layer(_t.RandomFlip)
CropMirrorNormalize = _layer(_t.CropMirrorNormalize)
RandAugment = _layer(_t.RandAugment)
TrivialAugment = _layer(_t.TrivialAugment)
AutoAugment = _layer(_t.AutoAugment)
ScaleJitter = _layer(_t.ScaleJitter)
Letterbox = _layer(_t.Letterbox)
RandomIoUCrop = _layer(_t.RandomIoUCrop)
RandomSizedBBoxSafeCrop = _layer(_t.RandomSizedBBoxSafeCrop)
Mosaic = _layer(_t.Mosaic)
ColorJitter = _layer(_t.ColorJitter)
RandomErasing = _layer(_t.RandomErasing)
RandomPerspective = _layer(_t.RandomPerspective)
RandomAffine = _layer(_t.RandomAffine)
RandomZoomOut = _layer(_t.RandomZoomOut)
RandomPhotometricDistort = _layer(_t.RandomPhotometricDistort)
AugMix = _layer(_t.AugMix)
Downscale = _layer(_t.Downscale)
GridMask = _layer(_t.GridMask)
JpegQuality = _layer(_t.JpegQuality)
RandomGamma = _layer(_t.RandomGamma)
ChannelShuffle = _layer(_t.ChannelShuffle)
RGBShift = _layer(_t.RGBShift)
ToGray = _layer(_t.ToGray)
GaussianBlur = _layer(_t.GaussianBlur)
GaussNoise = _layer(_t.GaussNoise)
ISONoise = _layer(_t.ISONoise)
CLAHE = _layer(_t.CLAHE)
Sharpen = _layer(_t.Sharpen)
Emboss = _layer(_t.Emboss)
MedianBlur = _layer(_t.MedianBlur)
Blur = _layer(_t.Blur)
MotionBlur = _layer(_t.MotionBlur)
PCALighting = _layer(_t.PCALighting)
HueSaturationValue = _layer(_t.HueSaturationValue)
CropNonEmptyMaskIfExists = _layer(_tc.CropNonEmptyMaskIfExists)
AtLeastOneBBoxRandomCrop = _layer(_tc.AtLeastOneBBoxRandomCrop)
RandomCropFromBorders = _layer(_wc.RandomCropFromBorders)
RandomCropNearBBox = _layer(_wc.RandomCropNearBBox)
RandomRotate90 = _layer(_dh.RandomRotate90)
Transpose = _layer(_dh.Transpose)
D4 = _layer(_dh.D4)
PixelDropout = _layer(_pd.PixelDropout)
ChannelDropout = _layer(_pd.ChannelDropout)
ToSepia = _layer(_sp.ToSepia)
SaltAndPepper = _layer(_pd.SaltAndPepper)
DetectionMixUp = _layer(_dm.DetectionMixUp)
MaskDropout = _layer(_md.MaskDropout)
ElasticTransform = _layer(_dd.ElasticTransform)
GridDistortion = _layer(_dd.GridDistortion)
GridElasticDeform = _layer(_ge.GridElasticDeform)
OpticalDistortion = _layer(_dd.OpticalDistortion)
PiecewiseAffine = _layer(_cp.PiecewiseAffine)
ThinPlateSpline = _layer(_cp.ThinPlateSpline)
RandomShortestSize = _layer(_ss.RandomShortestSize)
CopyPaste = _layer(_cpp.CopyPaste)
RandomToneCurve = _layer(_t.RandomToneCurve)
RandomCrop = _layer(_pad.RandomCrop)
Pad = _layer(_pad.Pad)
PadIfNeeded = _layer(_pad.PadIfNeeded)
RandomResize = _layer(_ss.RandomResize)
SmallestMaxSize = _layer(_ss.SmallestMaxSize)
LongestMaxSize = _layer(_ss.LongestMaxSize)
FiveCrop = _layer(_mc.FiveCrop)
TenCrop = _layer(_mc.TenCrop)
Morphological = _layer(_mo.Morphological)
MultiplicativeNoise = _layer(_mn.MultiplicativeNoise)
AdditiveNoise = _layer(_an.AdditiveNoise)
PlanckianJitter = _layer(_pj.PlanckianJitter)
HEStain = _layer(_hs.HEStain)
Illumination = _layer(_il.Illumination)
PlasmaBrightnessContrast = _layer(_pl.PlasmaBrightnessContrast)
PlasmaShadow = _layer(_pl.PlasmaShadow)
ConstrainedCoarseDropout = _layer(_cd.ConstrainedCoarseDropout)
ChromaticAberration = _layer(_ca.ChromaticAberration)
UnsharpMask = _layer(_um.UnsharpMask)
AdvancedBlur = _layer(_kb.AdvancedBlur)
Defocus = _layer(_kb.Defocus)
RingingOvershoot = _layer(_kb.RingingOvershoot)
GlassBlur = _layer(_kb.GlassBlur)
ZoomBlur = _layer(_kb.ZoomBlur)
Superpixels = _layer(_spx.Superpixels)
HistogramMatching = _layer(_da.HistogramMatching)
FDA = _layer(_da.FDA)
PixelDistributionAdaptation = _layer(_da.PixelDistributionAdaptation)
RandomShadow = _layer(_wx.RandomShadow)
RandomRain = _layer(_wx.RandomRain)
RandomSnow = _layer(_wx.RandomSnow)
RandomGravel = _layer(_wx.RandomGravel)
RandomFog = _layer(_wx.RandomFog)
RandomSunFlare = _layer(_wx.RandomSunFlare)
Spatter = _layer(_wx.Spatter)
ShotNoise = _layer(_sn.ShotNoise)
SafeRotate = _layer(_sr.SafeRotate)
XYMasking = _layer(_xy.XYMasking)
CropAndPad = _layer(_cap.CropAndPad)
RandomGridShuffle = _layer(_gs.RandomGridShuffle)
ClampKeyPoints = _layer(_kp.ClampKeyPoints)
SanitizeKeyPoints = _layer(_kp.SanitizeKeyPoints)


@keras.saving.register_keras_serializable(package=_PACKAGE)
class LetterboxWithInfo(TransformLayer):
    """Inference-side letterbox that also returns `image_info` [B, 6] (scale_y, scale_x,
    offset_y, offset_x, height, width), so a served model maps its box predictions back to the
    input image: `input = (output + offset) / scale`. Same arguments as `Letterbox`."""

    transform_class = _t.Letterbox
    __init__ = _init_with_signature(_t.Letterbox)

    def call(self, inputs, training=False):
        return self.transform.with_info(inputs)

    def compute_output_shape(self, input_shape):
        return (self.transform.output_shape(tuple(input_shape)), (input_shape[0], 6))


LetterboxWithInfo.__doc__ = _layer_doc(_t.Letterbox, inspect.cleandoc(LetterboxWithInfo.__doc__))

class DataWarningsLogger(keras.callbacks.Callback):
    """Hands tfgpuaug's data reports (skipped images, boxes truncated to `max_boxes`, batches
    whose boxes were all dropped) to Python's `logging` after each epoch and at the end of
    training: `model.fit(ds, callbacks=[tfgpuaug.keras.DataWarningsLogger()])`.

    Reports reach stderr as they happen in any case; this puts them where a training script's
    logs go. It reads `tfgpuaug.data_warnings()`, so it sees this process's stages (with
    tf.data service, the workers' reports stay in their processes).

    Args:
      logger: the logger (default: `logging.getLogger("tfgpuaug")`).
      level: the level the reports are logged at.
    """

    def __init__(self, logger: "logging.Logger | None" = None, level: int = logging.WARNING):
        super().__init__()
        self.logger, self.level = logger or logging.getLogger("tfgpuaug"), level

    def _flush(self):
        from tfgpuaug._skip import data_warnings
        for report in data_warnings():
            self.logger.log(self.level, report)

    def on_epoch_end(self, epoch, logs=None):
        self._flush()

    def on_train_end(self, logs=None):
        self._flush()


LAYERS = (RandomResizedCrop, ResizeCenterCrop, Resize, RandomFlip, CropMirrorNormalize,
          RandAugment, TrivialAugment, AutoAugment, ScaleJitter, Letterbox, RandomIoUCrop, Mosaic,
          ColorJitter, RandomErasing, RandomPerspective, GridMask, JpegQuality, RandomGamma, ChannelShuffle, RGBShift,
          ToGray, GaussianBlur, GaussNoise, ISONoise, CLAHE, Sharpen, Emboss, Blur, MedianBlur, MotionBlur, PCALighting,
          RandomAffine,
          RandomZoomOut, RandomPhotometricDistort, AugMix, Downscale, RandomSizedBBoxSafeCrop, HueSaturationValue,
          RandomToneCurve, CropNonEmptyMaskIfExists, AtLeastOneBBoxRandomCrop, RandomCropFromBorders,
          RandomCropNearBBox, DetectionMixUp,
          MaskDropout, ElasticTransform, GridDistortion, GridElasticDeform, OpticalDistortion, PiecewiseAffine,
          ThinPlateSpline,
          RandomShortestSize, CopyPaste, RandomRotate90, Transpose, D4, PixelDropout, ChannelDropout,
          ToSepia, SaltAndPepper, RandomCrop, Pad, PadIfNeeded, RandomResize, SmallestMaxSize, LongestMaxSize,
          FiveCrop, TenCrop, Morphological, MultiplicativeNoise, AdditiveNoise, PlanckianJitter, HEStain, Illumination,
          PlasmaBrightnessContrast, PlasmaShadow, ConstrainedCoarseDropout, ChromaticAberration,
          UnsharpMask, AdvancedBlur, Defocus, RingingOvershoot, GlassBlur, ZoomBlur, HistogramMatching, FDA,
          PixelDistributionAdaptation, RandomShadow, RandomRain, RandomSnow, RandomGravel, RandomFog, RandomSunFlare,
          Spatter, ShotNoise, Superpixels,
          SafeRotate,
          XYMasking, ClampKeyPoints, SanitizeKeyPoints, CropAndPad, RandomGridShuffle)
