"""CropNonEmptyMaskIfExists and AtLeastOneBBoxRandomCrop (issue 36; Albumentations' transforms
of those names). Images whose two channels hold each pixel's own (y, x) tell where every crop
came from, so each output is checked exactly against the numpy slice of its window, and the
window against the transform's promise: it holds a foreground mask pixel (or, for the boxes,
at least (1 - erosion_factor) of one box's width and height); boxes and keypoints move by the
window's offset; empty annotations give a uniform window; inference takes the centre."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import targets as tg

H, W = 96, 128


def coordinate_images(n):
    y, x = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    one = np.stack([y, x, (y + x) % 256], -1).astype(np.uint8)
    return np.stack([one] * n)


def corner_of(out):
    """(y0, x0) of each output's window (its top-left pixel's own coordinates)."""
    return out[:, 0, 0, :2].astype(int)


def assert_exact_slices(images, out, size):
    for i, (y0, x0) in enumerate(corner_of(out)):
        np.testing.assert_array_equal(out[i], images[i, y0:y0 + size[0], x0:x0 + size[1]])


@pytest.mark.parametrize("size", [(32, 32), (20, 50)])
def test_crop_non_empty_mask_holds_a_foreground_pixel(size):
    n = 6
    images = coordinate_images(n)
    masks = np.zeros((n, H, W, 1), np.uint8)
    spots = [(0, 0), (95, 127), (50, 3), (7, 120), (60, 64)]
    for i, (y, x) in enumerate(spots):
        masks[i, y, x] = 3
    # sample 5 has no foreground: any window
    t = tga.CropNonEmptyMaskIfExists(size)
    corners = []
    for seed in range(8):
        out, moved = t.apply(tf.constant(images), tg.Targets(masks=tf.constant(masks)), seed=tf.constant([seed, 2]))
        out, crop_masks = out.numpy(), moved.masks.numpy()
        assert out.shape == (n, *size, 3)
        assert_exact_slices(images, out, size)
        for i, (y, x) in enumerate(spots):
            y0, x0 = corner_of(out)[i]
            assert y0 <= y < y0 + size[0] and x0 <= x < x0 + size[1], (seed, i)
            assert crop_masks[i].sum() == 3  # the mask was cut the same way
        corners.append(corner_of(out)[5])
    assert len({tuple(c) for c in corners}) > 4  # the empty sample's window moves


def test_crop_non_empty_mask_picks_uniformly_among_foreground_pixels():
    """Two foreground pixels far apart: each is held about half the time (600 draws, 5 sigma)."""
    n = 200
    images = coordinate_images(n)
    masks = np.zeros((n, H, W, 1), np.uint8)
    masks[:, 5, 5] = masks[:, 90, 120] = 1
    held = []
    for seed in range(3):
        out, _ = tga.CropNonEmptyMaskIfExists(16).apply(tf.constant(images), tg.Targets(masks=tf.constant(masks)),
                                                        seed=tf.constant([seed, 9]))
        held += list(corner_of(out.numpy())[:, 0] < 40)
    assert abs(np.mean(held) - 0.5) < 5 * 0.5 / np.sqrt(len(held))


def test_crop_non_empty_mask_ignore_values_and_channels():
    """Albumentations' ignore_values (values that count as background) and ignore_channels
    (channels not looked at): a void-class pixel (255) and a pixel in an ignored channel never
    steer the window; over 8 seeds the kept pixel is always held, while without the arguments
    the window follows the other pixel some of the time."""
    n, size = 4, (16, 16)
    images = coordinate_images(n)
    masks = np.zeros((n, H, W, 2), np.uint8)
    masks[:, 5, 5, 0] = 2        # the object
    masks[:, 90, 120, 0] = 255   # void, ignored by value
    masks[:, 90, 6, 1] = 1       # in channel 1, ignored by channel
    plain_far = 0
    for seed in range(8):
        for t in (tga.CropNonEmptyMaskIfExists(size, ignore_values=[255], ignore_channels=[1]),
                  tga.CropNonEmptyMaskIfExists(size)):
            out, _ = t.apply(tf.constant(images), tg.Targets(masks=tf.constant(masks)), seed=tf.constant([seed, 5]))
            y0, x0 = corner_of(out.numpy()).T
            near = (y0 <= 5) & (x0 <= 5)
            if t.ignore_values:
                assert near.all(), (seed, y0, x0)
            else:
                plain_far += int((~near).sum())
    assert plain_far > 0
    # Only a void pixel: no foreground, so the window is uniform (not aimed at the void pixel).
    void_only = np.zeros((n, H, W, 1), np.uint8)
    void_only[:, 90, 120] = 255
    t = tga.CropNonEmptyMaskIfExists(size, ignore_values=[255])
    corners = {tuple(c) for seed in range(6) for c in corner_of(
        t.apply(tf.constant(images), tg.Targets(masks=tf.constant(void_only)), seed=tf.constant([seed, 1]))[0].numpy())}
    assert any(not (y0 <= 90 < y0 + 16 and x0 <= 120 < x0 + 16) for y0, x0 in corners)


def test_crop_non_empty_mask_refuses_bad_ignore_arguments():
    with pytest.raises(ValueError, match="ignore_values must be a list of integers"):
        tga.CropNonEmptyMaskIfExists(8, ignore_values=[1.5])
    with pytest.raises(ValueError, match="ignore_channels must be channel indices"):
        tga.CropNonEmptyMaskIfExists(8, ignore_channels=[-1])
    masks = tf.zeros([1, H, W, 2], tf.uint8)
    images = tf.constant(coordinate_images(1))
    with pytest.raises(ValueError, match="names a channel the 2-channel masks lack"):
        tga.CropNonEmptyMaskIfExists(8, ignore_channels=[2]).apply(images, tg.Targets(masks=masks), seed=[1, 2])
    with pytest.raises(ValueError, match="leaves none of the 2 mask channels"):
        tga.CropNonEmptyMaskIfExists(8, ignore_channels=[0, 1]).apply(images, tg.Targets(masks=masks), seed=[1, 2])


def test_crop_non_empty_mask_inference_and_small_images():
    images = coordinate_images(2)
    t = tga.CropNonEmptyMaskIfExists((40, 60))
    out = t(tf.constant(images), training=False).numpy()
    np.testing.assert_array_equal(corner_of(out), [[28, 34], [28, 34]])
    small = tf.constant(images[:, :30, :50])  # smaller than the crop: the whole image, resized
    out = tga.CropNonEmptyMaskIfExists((40, 60), method="nearest")(small, seed=tf.constant([1, 1])).numpy()
    assert out.shape == (2, 40, 60, 3) and out[0, 0, 0, 0] == 0 and out[0, -1, -1, 0] == 29


def test_at_least_one_bbox_crop_keeps_most_of_a_box():
    boxes = [[[10, 12, 30, 40], [100, 60, 126, 94]], [[40, 30, 50, 38]], [[0, 0, 128, 96]], []]
    n = len(boxes)
    images = coordinate_images(n)
    rows = [np.asarray(b, np.float32).reshape(-1, 4) for b in boxes]
    ragged = tf.RaggedTensor.from_row_lengths(np.concatenate(rows), [len(r) for r in rows])
    keypoints = tf.RaggedTensor.from_row_lengths(np.array([[20.0, 26.0]] * n, np.float32), [1] * n)
    size, erosion = (32, 24), 0.25
    t = tga.AtLeastOneBBoxRandomCrop(size, erosion_factor=erosion)
    for seed in range(10):
        out, moved = t.apply(tf.constant(images), tg.Targets(boxes=ragged, keypoints=keypoints),
                             seed=tf.constant([seed, 4]))
        out = out.numpy()
        assert_exact_slices(images, out, size)
        for i, rows_i in enumerate(boxes):
            y0, x0 = corner_of(out)[i]
            if rows_i:
                b = np.asarray(rows_i, np.float32)
                seen_w = np.minimum(b[:, 2], x0 + size[1]) - np.maximum(b[:, 0], x0)
                seen_h = np.minimum(b[:, 3], y0 + size[0]) - np.maximum(b[:, 1], y0)
                need_w = np.minimum((1 - erosion) * (b[:, 2] - b[:, 0]), size[1]) - 1.0
                need_h = np.minimum((1 - erosion) * (b[:, 3] - b[:, 1]), size[0]) - 1.0
                assert ((seen_w >= need_w) & (seen_h >= need_h)).any(), (seed, i, y0, x0)
        # keypoints move by the window's offset (those outside are dropped by the filter or kept
        # outside the frame: either way the ones kept are shifted)
        for i, kps in enumerate(moved.keypoints.to_list()):
            y0, x0 = corner_of(out)[i]
            for kp in kps:
                np.testing.assert_allclose(kp, [20.0 - x0, 26.0 - y0], atol=1e-4)


@pytest.mark.parametrize("cls,kwargs,match", [
    (tga.AtLeastOneBBoxRandomCrop, dict(size=16, erosion_factor=1.5), "erosion_factor"),
    (tga.CropNonEmptyMaskIfExists, dict(size=(0, 4)), "size"),
    (tga.CropNonEmptyMaskIfExists, dict(size=8, method="cubic"), "method")])
def test_bad_arguments_are_refused(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs)
