"""jpeg_quality (issue #21) against PIL's encoder at the same quality (save, reload: the same
pixels), the quality draw (chi-square) and probability, and where a GPU-placed stage runs it."""
import io
import math

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import fixtures
import tfgpuaug as tga


def pil_round_trip(array: np.ndarray, quality: int) -> np.ndarray:
    img = Image.fromarray(array.squeeze(-1) if array.shape[-1] == 1 else array)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    out = np.asarray(Image.open(io.BytesIO(buf.getvalue())))
    return out[..., None] if out.ndim == 2 else out


@pytest.mark.parametrize("channels", [1, 3])
def test_each_sample_equals_pils_save_and_reload(channels):
    images = np.stack([fixtures.photo(37, 45, channels, seed=s) for s in range(12)])
    out, q = tga.augment.jpeg_quality(images, quality=(5, 100), seed=[1, 2], return_plan=True)
    out, q = out.numpy(), q.numpy()
    assert len(set(q)) > 6
    for i in range(len(images)):
        ref = pil_round_trip(images[i], int(q[i]))
        assert np.abs(out[i].astype(int) - ref).max() <= 1, (i, q[i])
        assert (out[i] != images[i]).any()  # it did compress


def test_alpha_passes_through():
    rgba = np.stack([fixtures.photo(20, 24, 4, seed=s) for s in range(3)])
    out = tga.augment.jpeg_quality(rgba, quality=(40, 40), seed=[3, 4]).numpy()
    np.testing.assert_array_equal(out[..., 3], rgba[..., 3])
    for i in range(3):
        assert np.abs(out[i, ..., :3].astype(int) - pil_round_trip(rgba[i, ..., :3].copy(), 40)).max() <= 1


def test_quality_draw_and_probability():
    n = 3000
    images = tf.zeros([n, 8, 8, 1], tf.uint8)
    _, q = tga.augment.jpeg_quality(images, quality=(30, 39), probability=0.6, seed=[5, 6], return_plan=True)
    q = q.numpy()
    applied = q > 0
    assert abs(applied.mean() - 0.6) < 4 * math.sqrt(0.6 * 0.4 / n)
    counts = np.bincount(q[applied] - 30, minlength=10)
    expected = applied.sum() / 10
    assert len(counts) == 10 and ((counts - expected) ** 2 / expected).sum() < 27.88  # 9 dof, p = 0.001


def test_a_gpu_placed_stage_runs_it_on_the_host():
    transforms = [tga.RandomResizedCrop(24), tga.JpegQuality((50, 90)), tga.RandAugment(),
                  tga.CropMirrorNormalize(mirror=0.5)]
    assert tga.Compose(transforms).host_stop() == 2  # through JpegQuality; RandAugment on the device
    assert tga.Compose([tga.RandomResizedCrop(24), tga.CropMirrorNormalize()]).host_stop() == 1
    contents = tf.constant([fixtures.jpeg_bytes(fixtures.photo(40, 50, seed=s)) for s in range(4)])
    ds = tf.data.Dataset.from_tensors((contents, tf.range(4)))
    split = ds.apply(tga.host_stage(transforms, seed=1)).apply(tga.device_stage(transforms))
    whole = ds.apply(tga.gpu_augment(transforms, seed=1))
    np.testing.assert_array_equal(next(iter(split))[0].numpy(), next(iter(whole))[0].numpy())
    with pytest.raises(ValueError, match="quality"):
        tga.JpegQuality((0, 50))
