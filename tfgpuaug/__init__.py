"""tfgpuaug: fast TensorFlow image input pipelines in C++/CUDA custom ops."""
from tfgpuaug import _loader

_loader.ops()  # registers every op exactly once, on import

from tfgpuaug.image import DEFAULT_MAX_PIXELS, decode_image, image_shape  # noqa: E402

__version__ = "0.1.0"

__all__ = ["decode_image", "image_shape", "DEFAULT_MAX_PIXELS"]
