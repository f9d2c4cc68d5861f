"""Type aliases of the public API (annotations only; nothing here is checked at run time)."""
from __future__ import annotations

from typing import Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

# Encoded images (a scalar or [B] string tensor, bytes, paths' contents) or pixel arrays.
TensorLike = Union[tf.Tensor, np.ndarray, Sequence, bytes, str]
# A batch of images: [B, H, W, C] dense, or ragged [B, None, None, C] of decoded sizes.
Images = Union[tf.Tensor, tf.RaggedTensor, np.ndarray]
# A stateless seed: an int, a [2] int tensor (tf.random.stateless_*'s shape), or None (random).
Seed = Union[int, Sequence[int], tf.Tensor, None]
# An output size: one int for square, (height, width), or a [2] int tensor.
Size = Union[int, Sequence[int], tf.Tensor]
# A (low, high) range, e.g. RandomResizedCrop's area `scale` and aspect `ratio`.
Range = Tuple[float, float]
# Per-sample flags: None (never), a probability, or a [B] bool tensor.
Flags = Union[None, float, tf.Tensor]
