"""RandomRotate90, Transpose and D4 (issue 36; Albumentations' transforms of those names): every
output sample is one of the allowed symmetries of its input, checked against numpy's rot90,
transpose and flips; the symmetries are drawn uniformly per sample; boxes, keypoints and masks
follow exactly (a box's filled rectangle and a keypoint's lit pixel are found where the moved
image has them); non-square batches are refused."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import targets as tg

S = 12


def numpy_symmetries(img):
    """The square's eight symmetries of an [S, S, C] image, by name (np.rot90: counter-clockwise)."""
    return {"identity": img, "rot90": np.rot90(img, 1), "rot180": np.rot90(img, 2), "rot270": np.rot90(img, 3),
            "transpose": img.transpose(1, 0, 2), "hflip": img[:, ::-1], "vflip": img[::-1],
            "transverse": np.rot90(img, 2).transpose(1, 0, 2)}


ALLOWED = {tga.RandomRotate90: {"identity", "rot90", "rot180", "rot270"},
           tga.Transpose: {"transpose"},  # at probability 1
           tga.D4: set(numpy_symmetries(np.zeros((1, 1, 1))))}


def which(out, img):
    matches = [name for name, ref in numpy_symmetries(img).items() if np.array_equal(out, ref)]
    assert len(matches) == 1, matches  # the input has no symmetry of its own
    return matches[0]


@pytest.mark.parametrize("cls", list(ALLOWED))
def test_each_sample_is_one_allowed_symmetry_drawn_uniformly(cls):
    rng = np.random.default_rng(1)
    images = rng.integers(0, 256, (64, S, S, 3), dtype=np.uint8)
    t = cls(probability=1.0)
    counts = {}
    for seed in range(8):
        out = t(tf.constant(images), seed=tf.constant([seed, 3])).numpy()
        for o, img in zip(out, images):
            name = which(o, img)
            counts[name] = counts.get(name, 0) + 1
    assert set(counts) == ALLOWED[cls], counts
    n, k = 8 * 64, len(ALLOWED[cls])
    for name, c in counts.items():  # uniform over the group (5 sigma)
        assert abs(c - n / k) <= 5 * np.sqrt(n * (1 / k) * (1 - 1 / k)), counts


def test_probability_inference_and_floats():
    images = np.random.default_rng(2).integers(0, 256, (16, S, S, 3), dtype=np.uint8)
    np.testing.assert_array_equal(tga.D4(probability=0.0)(tf.constant(images), seed=[1, 2]).numpy(), images)
    np.testing.assert_array_equal(tga.D4()(tf.constant(images), training=False).numpy(), images)
    half = tga.Transpose(probability=0.5)(tf.constant(images), seed=tf.constant([4, 4])).numpy()
    changed = sum(not np.array_equal(o, i) for o, i in zip(half, images))
    assert 0 < changed < 16
    floats = images.astype(np.float32) / 255
    out = tga.RandomRotate90()(tf.constant(floats), seed=[5, 5]).numpy()
    assert out.dtype == np.float32 and all(which(o, i) for o, i in zip(out, floats))


def test_boxes_keypoints_and_masks_follow_exactly():
    """A box drawn as a filled rectangle and a keypoint as one lit pixel: after each draw the
    moved box is the extent of the moved rectangle, the keypoint the centre of the lit pixel,
    and the moved mask the moved rectangle itself."""
    n = 32
    images = np.zeros((n, S, S, 3), np.uint8)
    masks = np.zeros((n, S, S, 1), np.uint8)
    boxes, points = [], []
    rng = np.random.default_rng(3)
    for i in range(n):
        x0, y0 = rng.integers(0, 6, 2)
        w, h = rng.integers(1, 6, 2)
        images[i, y0:y0 + h, x0:x0 + w, 0] = 255
        masks[i, y0:y0 + h, x0:x0 + w, 0] = 1
        px, py = rng.integers(0, S, 2)
        images[i, py, px, 1] = 255
        boxes.append([x0, y0, x0 + w, y0 + h])
        points.append([px + 0.5, py + 0.5])
    targets = tg.Targets(boxes=tf.RaggedTensor.from_row_lengths(np.array(boxes, np.float32), [1] * n),
                         keypoints=tf.RaggedTensor.from_row_lengths(np.array(points, np.float32), [1] * n),
                         masks=tf.constant(masks))
    for seed in range(4):
        out, moved = tga.D4().apply(tf.constant(images), targets, seed=tf.constant([seed, 7]))
        out, box, kp, mask = out.numpy(), moved.boxes.to_tensor().numpy(), moved.keypoints.to_tensor().numpy(), \
            moved.masks.numpy()
        for i in range(n):
            ys, xs = np.nonzero(out[i, :, :, 0])
            np.testing.assert_allclose(box[i, 0], [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], atol=1e-5)
            (ly,), (lx,) = np.nonzero(out[i, :, :, 1])
            np.testing.assert_allclose(kp[i, 0], [lx + 0.5, ly + 0.5], atol=1e-5)
            np.testing.assert_array_equal(mask[i, :, :, 0], out[i, :, :, 0] // 255)


def test_non_square_ragged_and_encoded_batches_are_refused():
    with pytest.raises(ValueError, match="must be square, got 12x16"):
        tga.RandomRotate90()(tf.zeros([2, 12, 16, 3], tf.uint8), seed=[1, 1])
    ragged = tf.RaggedTensor.from_tensor(tf.zeros([2, 4, 4, 3], tf.uint8), ragged_rank=2)
    with pytest.raises(ValueError, match="dense batch of square images"):
        tga.D4()(ragged, seed=[1, 1])
    with pytest.raises(ValueError, match="dense batch of square images"):
        tga.Transpose()(tf.constant([b"jpeg bytes"]), seed=[1, 1])
    with pytest.raises(ValueError, match="probability must be in"):
        tga.D4(probability=1.5)

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8)])
    def unknown(x):
        return tga.D4()(x, seed=[1, 1])

    np.testing.assert_array_equal(unknown(tf.zeros([1, 3, 3, 3], tf.uint8)).numpy().shape, (1, 3, 3, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="D4_needs_square_images"):
        unknown(tf.zeros([1, 3, 5, 3], tf.uint8))
