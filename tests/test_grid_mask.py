"""grid_mask (issue #21) against the GridMask authors' reference code (their `Grid.__call__`,
transcribed in numpy with PIL's `Image.rotate`), fed the unit, offsets and angle the op
reports per sample: the masks must agree exactly (rotation by the augment kernel, which
matches PIL's rotate)."""
import math

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import fixtures
import tfgpuaug as tga


def reference_mask(h, w, d, ratio, st_h, st_w, degrees, mode):
    hh = math.ceil(math.sqrt(h * h + w * w))
    mask = np.ones((hh, hh), np.float32)
    length = math.ceil(d * ratio)
    for i in range(hh // d):
        s = d * i + st_h
        mask[s:min(s + length, hh), :] *= 0
    for i in range(hh // d):
        s = d * i + st_w
        mask[:, s:min(s + length, hh)] *= 0
    mask = np.asarray(Image.fromarray(np.uint8(mask)).rotate(degrees))
    mask = mask[(hh - h) // 2:(hh - h) // 2 + h, (hh - w) // 2:(hh - w) // 2 + w]
    return 1 - mask if mode == 1 else mask


@pytest.mark.parametrize("rotate,mode", [(1, 1), (1, 0), (360, 1)])
def test_masks_equal_the_reference(rotate, mode):
    images = np.stack([fixtures.photo(50, 64, seed=s) for s in range(12)])
    out, plan = tga.augment.grid_mask(images, d=(10, 40), ratio=0.6, rotate=rotate, mode=mode, seed=[1, 2],
                                      return_plan=True)
    out, plan = out.numpy(), plan.numpy()
    assert len(set(plan[:, 1])) > 3 and (rotate == 1) == (plan[:, 4] == 0).all()
    for i in range(len(images)):
        applied, d, st_h, st_w, degrees = plan[i]
        assert applied and 10 <= d < 40 and 0 <= st_h < d and 0 <= st_w < d
        mask = reference_mask(50, 64, d, 0.6, st_h, st_w, degrees, mode)
        np.testing.assert_array_equal(out[i], images[i] * mask[..., None], err_msg=str(plan[i]))


def test_probability_float_images_and_transform():
    images = tf.ones([400, 20, 24, 3])
    out, plan = tga.augment.grid_mask(images, d=(4, 9), probability=0.25, seed=[3, 4], return_plan=True)
    applied = plan.numpy()[:, 0].astype(bool)
    assert abs(applied.mean() - 0.25) < 4 * math.sqrt(0.25 * 0.75 / 400)
    untouched = (out.numpy() == 1).all(axis=(1, 2, 3))
    np.testing.assert_array_equal(untouched, ~applied)
    grid = tga.GridMask(d=(4, 9), seed=1)
    np.testing.assert_array_equal(grid(images[:2], training=False).numpy(), images[:2].numpy())
    with pytest.raises(ValueError, match="ratio"):
        tga.GridMask(ratio=1.5)
