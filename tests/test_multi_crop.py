"""FiveCrop and TenCrop against torchvision's five_crop/ten_crop written out with numpy slicing
(its corners, its centre rounding int(round((H - h) / 2)), and for ten_crop the five windows of
the flipped image); exact, as the crops only copy pixels."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga


def torchvision_five_crop(image, h, w):
    H, W = image.shape[:2]
    top, left = int(round((H - h) / 2.0)), int(round((W - w) / 2.0))
    return [image[:h, :w], image[:h, W - w:], image[H - h:, :w], image[H - h:, W - w:],
            image[top:top + h, left:left + w]]


def torchvision_ten_crop(image, h, w, vertical_flip=False):
    flipped = image[::-1] if vertical_flip else image[:, ::-1]
    return torchvision_five_crop(image, h, w) + torchvision_five_crop(flipped, h, w)


@pytest.mark.parametrize("size", [(5, 7), (9, 11), 6, (1, 1)])
def test_five_and_ten_crop_equal_torchvisions(size):
    """9 x 11 images: odd room on both axes for (6, 6) (half-pixel centres, rounded to even)."""
    images = np.stack([fixtures.photo(9, 11, seed=s) for s in range(3)])
    h, w = (size, size) if isinstance(size, int) else size
    five = tga.FiveCrop(size)(images).numpy()
    assert five.shape == (3, 5, h, w, 3)
    for vertical in (False, True):
        ten = tga.TenCrop(size, vertical_flip=vertical)(images).numpy()
        assert ten.shape == (3, 10, h, w, 3)
        for i, image in enumerate(images):
            for k, expected in enumerate(torchvision_ten_crop(image, h, w, vertical)):
                np.testing.assert_array_equal(ten[i, k], expected, err_msg=f"sample {i} crop {k}")
    for i, image in enumerate(images):
        for k, expected in enumerate(torchvision_five_crop(image, h, w)):
            np.testing.assert_array_equal(five[i, k], expected)


def test_ragged_images_are_cropped_at_their_own_corners():
    images = [fixtures.photo(10, 13, seed=1), fixtures.photo(16, 9, seed=2).astype(np.uint8)]
    ragged = tf.ragged.stack([tf.constant(i) for i in images])
    out = tga.TenCrop((7, 8))(ragged).numpy()
    for i, image in enumerate(images):
        for k, expected in enumerate(torchvision_ten_crop(image, 7, 8)):
            np.testing.assert_array_equal(out[i, k], expected, err_msg=f"sample {i} crop {k}")


def test_float_images_and_layers():
    images = np.stack([fixtures.photo(12, 12, seed=s) for s in range(2)]).astype(np.float32) / 255.0
    out = tga.keras.FiveCrop(8)(images).numpy()
    np.testing.assert_array_equal(out[1, 4], images[1, 2:10, 2:10])
    assert tga.keras.TenCrop(8).compute_output_shape((2, 12, 12, 3)) == (2, 10, 8, 8, 3)


def test_sizes_larger_than_the_images_are_refused():
    images = np.zeros((2, 9, 11, 3), np.uint8)
    with pytest.raises(ValueError, match="larger than the images"):
        tga.FiveCrop(10)(images)
    ragged = tf.ragged.stack([tf.zeros([10, 13, 3], tf.uint8), tf.zeros([8, 20, 3], tf.uint8)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="TenCrop_needs_images_at_least_size"):
        tga.TenCrop(9)(ragged)
    with pytest.raises(ValueError, match="size must be positive"):
        tga.FiveCrop((0, 3))
