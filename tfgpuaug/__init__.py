"""tfgpuaug: fast TensorFlow image input pipelines in C++/CUDA custom ops."""
from tfgpuaug import _autograph, _loader

_loader.ops()  # registers every op exactly once, on import

from tfgpuaug.geometry import (  # noqa: E402
    IMAGENET_MEAN, IMAGENET_STD, center_crop_boxes, crop_and_resize, crop_mirror_normalize, flip,
    random_crop_boxes, random_resized_crop, resize, resize_and_pad, resize_center_crop, warp_affine)
from tfgpuaug.image import (  # noqa: E402
    DEFAULT_MAX_PIXELS, add_jpeg_restart_markers, decode_animation, decode_image, image_shape)
from tfgpuaug.transforms import (  # noqa: E402
    AugMix, AutoAugment, Blur, ChannelShuffle, ColorJitter, Compose, CropMirrorNormalize, Downscale, Emboss,
    CLAHE, GaussianBlur, GaussNoise, HueSaturationValue, ISONoise,
    GridMask, JpegQuality, Letterbox, MedianBlur, Mosaic, MotionBlur, PCALighting, Sharpen,
    RandAugment, RandomAffine, RandomPhotometricDistort, RandomZoomOut,
    RandomFlip, RandomGamma, RandomIoUCrop, RandomToneCurve, RandomSizedBBoxSafeCrop, RandomErasing, RandomPerspective,
    RandomResizedCrop, Resize,
    ResizeCenterCrop, RGBShift, ScaleJitter, ToGray, Transform, TrivialAugment)
from tfgpuaug.targeted_crops import AtLeastOneBBoxRandomCrop, CropNonEmptyMaskIfExists  # noqa: E402
from tfgpuaug.window_crops import RandomCropFromBorders, RandomCropNearBBox  # noqa: E402
from tfgpuaug.dihedral import D4, RandomRotate90, Transpose  # noqa: E402
from tfgpuaug.pixel_dropout import ChannelDropout, PixelDropout, SaltAndPepper  # noqa: E402
from tfgpuaug.sepia import ToSepia  # noqa: E402
from tfgpuaug.padding import Pad, PadIfNeeded, RandomCrop  # noqa: E402
from tfgpuaug.multi_crop import FiveCrop, TenCrop  # noqa: E402
from tfgpuaug.morphology import Morphological  # noqa: E402
from tfgpuaug.multiplicative_noise import MultiplicativeNoise  # noqa: E402
from tfgpuaug.additive_noise import AdditiveNoise  # noqa: E402
from tfgpuaug.planckian_jitter import PlanckianJitter  # noqa: E402
from tfgpuaug.he_stain import HEStain  # noqa: E402
from tfgpuaug.illumination import Illumination  # noqa: E402
from tfgpuaug.plasma import PlasmaBrightnessContrast, PlasmaShadow  # noqa: E402
from tfgpuaug.constrained_dropout import ConstrainedCoarseDropout  # noqa: E402
from tfgpuaug.chromatic_aberration import ChromaticAberration  # noqa: E402
from tfgpuaug.unsharp_mask import UnsharpMask  # noqa: E402
from tfgpuaug.kernel_blurs import AdvancedBlur, Defocus, GlassBlur, RingingOvershoot, ZoomBlur  # noqa: E402
from tfgpuaug.superpixels import Superpixels  # noqa: E402
from tfgpuaug.domain_adaptation import FDA, HistogramMatching, PixelDistributionAdaptation  # noqa: E402
from tfgpuaug.weather import (RandomFog, RandomGravel, RandomRain, RandomShadow, RandomSnow, RandomSunFlare,  # noqa: E402
                              Spatter)
from tfgpuaug.shot_noise import ShotNoise  # noqa: E402
from tfgpuaug.safe_rotate import SafeRotate  # noqa: E402
from tfgpuaug.grid_shuffle import RandomGridShuffle  # noqa: E402
from tfgpuaug.xy_masking import XYMasking  # noqa: E402
from tfgpuaug.crop_and_pad import CropAndPad  # noqa: E402
from tfgpuaug.keypoints import ClampKeyPoints, SanitizeKeyPoints  # noqa: E402
from tfgpuaug.detection_mixup import DetectionMixUp  # noqa: E402
from tfgpuaug.mask_dropout import MaskDropout  # noqa: E402
from tfgpuaug.copy_paste import CopyPaste  # noqa: E402
from tfgpuaug.distortions import ElasticTransform, GridDistortion, OpticalDistortion, remap  # noqa: E402
from tfgpuaug.control_point_distortions import PiecewiseAffine, ThinPlateSpline  # noqa: E402
from tfgpuaug.grid_elastic import GridElasticDeform  # noqa: E402
from tfgpuaug.shortest_size import LongestMaxSize, RandomResize, RandomShortestSize, SmallestMaxSize  # noqa: E402
from tfgpuaug import augment, boxes, data, keras, keypoints  # noqa: E402
from tfgpuaug.pipeline import device_stage, distribute, gpu_augment, host_stage  # noqa: E402
from tfgpuaug.augment import random_apply, random_choice, random_order  # noqa: E402
from tfgpuaug._skip import data_warnings, skipped_images  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "AutoAugment", "RandAugment", "TrivialAugment", "augment", "data", "gpu_augment", "keras",
    "host_stage", "device_stage", "distribute", "skipped_images", "data_warnings",
    "random_apply", "random_choice", "random_order",
    "ColorJitter", "Compose", "CropMirrorNormalize", "GridMask", "JpegQuality", "Letterbox", "Mosaic", "RandomFlip",
    "RandomIoUCrop", "RandomSizedBBoxSafeCrop", "RandomGamma", "ChannelShuffle", "RGBShift", "ToGray", "GaussianBlur",
    "GaussNoise", "ISONoise", "CLAHE",
    "Sharpen", "Emboss", "Blur", "MedianBlur", "MotionBlur", "PCALighting", "RandomAffine", "RandomZoomOut",
    "RandomPhotometricDistort", "AugMix", "Downscale", "HueSaturationValue", "RandomToneCurve",
    "CropNonEmptyMaskIfExists", "AtLeastOneBBoxRandomCrop", "RandomCropFromBorders", "RandomCropNearBBox",
    "DetectionMixUp", "MaskDropout", "RandomShortestSize",
    "CopyPaste", "RandomRotate90", "Transpose", "D4", "PixelDropout", "ChannelDropout", "ToSepia", "SaltAndPepper",
    "RandomCrop", "Pad", "PadIfNeeded", "RandomResize", "SmallestMaxSize", "LongestMaxSize",
    "FiveCrop", "TenCrop", "Morphological", "MultiplicativeNoise", "AdditiveNoise", "PlanckianJitter", "HEStain",
    "Illumination", "PlasmaBrightnessContrast", "PlasmaShadow", "ConstrainedCoarseDropout",
    "ChromaticAberration", "UnsharpMask", "AdvancedBlur", "Defocus", "RingingOvershoot", "GlassBlur", "ZoomBlur",
    "Superpixels",
    "HistogramMatching", "FDA", "PixelDistributionAdaptation", "ShotNoise", "SafeRotate",
    "RandomShadow", "RandomRain", "RandomSnow", "RandomGravel", "RandomFog", "RandomSunFlare", "Spatter",
    "XYMasking",
    "RandomGridShuffle", "ClampKeyPoints", "SanitizeKeyPoints", "CropAndPad",
    "ElasticTransform", "GridDistortion", "OpticalDistortion", "PiecewiseAffine", "ThinPlateSpline", "remap",
    "GridElasticDeform",
    "RandomErasing", "RandomPerspective", "RandomResizedCrop", "Resize",
    "ResizeCenterCrop", "ScaleJitter",
    "Transform",
    "DEFAULT_MAX_PIXELS", "IMAGENET_MEAN", "IMAGENET_STD", "center_crop_boxes", "crop_and_resize",
    "add_jpeg_restart_markers", "crop_mirror_normalize", "decode_animation", "decode_image", "flip", "image_shape",
    "random_crop_boxes",
    "random_resized_crop", "resize", "resize_and_pad", "resize_center_crop", "warp_affine", "boxes", "keypoints",
]

# Public functions run without AutoGraph inside a user's converted code (_autograph.py), also
# where a user imports them from their submodules.
_autograph.leave_functions_unconverted(globals())
_autograph.share_wrappers_with_submodules()
