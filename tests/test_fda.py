"""FDA (issue 36; Albumentations' Fourier Domain Adaptation). Against a numpy statement of
Albumentations' definition (numpy's FFTs, its centred window, amplitudes swapped, phases kept;
rounded here) and, where installed, Albumentations' own function (which truncates: one level);
the window's geometry; beta 0 is the identity; probability, config and refusals."""
import importlib

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga

fda_module = importlib.import_module("tfgpuaug.augment.fda")  # the package's name is the function


def numpy_fda(img, ref, beta):
    h, w = img.shape[:2]
    border = int(np.floor(min(h, w) * beta))
    cx, cy = w / 2 - 0.5, h / 2 - 0.5
    h1, h2 = max(0, int(cy - border)), min(int(cy + border), h)
    w1, w2 = max(0, int(cx - border)), min(int(cx + border), w)
    out = np.zeros(img.shape, np.float64)
    for c in range(img.shape[2]):
        fs = np.fft.fftshift(np.fft.fft2(img[..., c].astype(np.float64)))
        ft = np.fft.fftshift(np.fft.fft2(ref[..., c].astype(np.float64)))
        amp, pha = np.abs(fs), np.angle(fs)
        amp[h1:h2, w1:w2] = np.abs(ft)[h1:h2, w1:w2]
        out[..., c] = np.real(np.fft.ifft2(np.fft.ifftshift(amp * np.exp(1j * pha))))
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def photos(n, h, w, seed):
    rng = np.random.default_rng(seed)
    coarse = rng.uniform(0, 255, (n, h // 4 + 2, w // 4 + 2, 3)).astype(np.float32)
    return np.clip(tf.image.resize(coarse, (h, w), "bicubic").numpy() + rng.normal(0, 8, (n, h, w, 3)), 0,
                   255).astype(np.uint8)


@pytest.mark.parametrize("h,w,beta", [(32, 40, 0.1), (33, 27, 0.25), (16, 16, 0.5), (31, 45, 0.02)])
def test_equals_numpy_definition(h, w, beta):
    images, ref = photos(3, h, w, seed=h), photos(1, h, w, seed=w)
    out = fda_module.fda(tf.constant(images), ref, (beta, beta), 1.0, seed=1).numpy()
    for i in range(3):
        want = numpy_fda(images[i], ref[0], beta)
        diff = np.abs(out[i].astype(int) - want)
        assert diff.max() <= 1 and (diff == 0).mean() >= 0.999, (diff.max(), (diff == 0).mean())
    if int(np.floor(min(h, w) * beta)) > 0:
        assert (out != images).mean() > 0.3  # it does something


def test_window_geometry():
    """The mask holds the centred window's frequencies: nothing for beta 0, the four around the
    centre for border 1, Albumentations' truncated window for 0.5 (rows int(-0.5) = 0 .. 14,
    columns 1 .. 16 of the centred 16 x 20 spectrum)."""
    masks = fda_module.low_frequency_masks(tf.constant([16, 20]), tf.constant([0.0, 0.1, 0.5])).numpy()[:, 0]
    assert not masks[0].any()
    # beta 0.1: border 1, rows int(7.5 - 1) .. int(7.5 + 1) = 6, 7 (shifted) -> unshifted 14, 15;
    # columns int(9.5 - 1) .. int(10.5) = 8, 9 -> 18, 19
    assert set(zip(*np.nonzero(masks[1]))) == {(14, 18), (14, 19), (15, 18), (15, 19)}
    window = np.zeros((16, 20), bool)
    window[0:15, 1:17] = True
    np.testing.assert_array_equal(masks[2], np.fft.ifftshift(window))


def test_beta_zero_is_identity_and_probability():
    images = photos(100, 24, 24, seed=3)
    ref = photos(2, 30, 30, seed=4)  # another size: resized
    np.testing.assert_array_equal(fda_module.fda(tf.constant(images), ref, (0.0, 0.0), 1.0, seed=1).numpy(), images)
    out = fda_module.fda(tf.constant(images), ref, (0.2, 0.2), 0.3, seed=2).numpy()
    changed = (out != images).any(axis=(1, 2, 3))
    assert 15 <= changed.sum() <= 45, changed.sum()


def test_matches_albumentations():
    pytest.importorskip("albumentations")
    from albumentations.augmentations.mixing import domain_adaptation_functional as F
    images, ref = photos(3, 40, 48, seed=5), photos(1, 40, 48, seed=6)
    for beta in (0.05, 0.2):
        out = fda_module.fda(tf.constant(images), ref, (beta, beta), 1.0, seed=1).numpy()
        for i in range(3):
            want = F.fourier_domain_adaptation(images[i], ref[0], beta)
            diff = out[i].astype(int) - want.astype(int)
            # Albumentations truncates where this rounds: 0 or 1 level above, never below
            assert diff.min() >= 0 and diff.max() <= 1, (diff.min(), diff.max())


def test_transform_config_and_refusals():
    images = tf.constant(photos(4, 16, 16, seed=7))
    bank = photos(2, 16, 16, seed=8)
    t = tga.FDA(bank, beta_limit=0.2, probability=1.0, seed=3)
    assert t.beta_limit == (0.0, 0.2)
    np.testing.assert_array_equal(t(images, training=False).numpy(), images.numpy())
    again = tga.FDA(**t.get_config())
    np.testing.assert_array_equal(again(images, seed=tf.constant([1, 2])).numpy(),
                                  t(images, seed=tf.constant([1, 2])).numpy())
    with pytest.raises(ValueError, match="beta_limit"):
        tga.FDA(bank, beta_limit=(0.1, 0.6))
    with pytest.raises(ValueError, match="non-empty uint8"):
        tga.FDA(np.zeros([0, 4, 4, 3], np.uint8))
    with pytest.raises(ValueError, match="channels"):
        tga.FDA(bank[..., :1])(images)
