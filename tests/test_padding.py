"""Pad, PadIfNeeded and RandomCrop with padding (torchvision's and Albumentations' semantics)
against numpy's np.pad (its "reflect" is torchvision's, its "symmetric" torchvision's and
OpenCV's reflect, "edge" OpenCV's replicate, "wrap" OpenCV's wrap) and slicing; exact, as the
ops only move pixels. Albumentations' PadIfNeeded is compared too where it is installed."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg

NUMPY_MODE = {"constant": "constant", "edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}
CV_TO_NUMPY = {"constant": "constant", "replicate": "edge", "reflect": "symmetric", "wrap": "wrap",
               "reflect_101": "reflect"}


def np_pad(image, top, bottom, left, right, mode, fill=0):
    widths = ((top, bottom), (left, right), (0, 0))
    if mode == "constant":
        out = np.empty((image.shape[0] + top + bottom, image.shape[1] + left + right, image.shape[2]), image.dtype)
        out[...] = np.asarray(fill, image.dtype)
        out[top:top + image.shape[0], left:left + image.shape[1]] = image
        return out
    return np.pad(image, widths, mode=mode)


def windows(padded, h, w):
    """{(y, x): window} of every h x w window of `padded`."""
    return {(y, x): padded[y:y + h, x:x + w] for y in range(padded.shape[0] - h + 1)
            for x in range(padded.shape[1] - w + 1)}


def corner_of(out, padded):
    """The one (y, x) whose window of `padded` is `out` (the photos are random enough)."""
    found = [yx for yx, win in windows(padded, *out.shape[:2]).items() if np.array_equal(win, out)]
    assert len(found) == 1, f"{len(found)} windows match"
    return found[0]


@pytest.fixture(scope="module")
def batch():
    return np.stack([fixtures.photo(9, 11, seed=s) for s in range(6)])


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
@pytest.mark.parametrize("padding", [3, (2, 5), (1, 2, 3, 4), (0, 12, 0, 0)])
def test_pad_equals_numpy(batch, mode, padding):
    """Every torchvision padding form and mode; (0, 12, 0, 0) pads past the image's height, which
    reflect and symmetric continue periodically as numpy does."""
    left, top, right, bottom = {1: lambda p: p * 4, 2: lambda p: p * 2, 4: lambda p: p}[
        len(padding) if isinstance(padding, tuple) else 1]((padding,) if isinstance(padding, int) else padding)
    out = tga.Pad(padding, fill=7, padding_mode=mode)(batch).numpy()
    for i, image in enumerate(batch):
        np.testing.assert_array_equal(out[i], np_pad(image, top, bottom, left, right, NUMPY_MODE[mode], 7))


def test_pad_takes_floats_per_channel_fills_and_unknown_sizes(batch):
    images = batch.astype(np.float32) / 255.0
    fill = (0.25, 0.5, 0.75)
    out = tga.Pad((2, 1), fill=fill)(images).numpy()
    np.testing.assert_array_equal(out[0], np_pad(images[0], 1, 1, 2, 2, "constant", np.float32(fill)))
    fn = tf.function(lambda x: tga.Pad(1, padding_mode="edge")(x),
                     input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8)])
    np.testing.assert_array_equal(fn(batch).numpy()[1], np_pad(batch[1], 1, 1, 1, 1, "edge"))


def test_pad_moves_boxes_masks_and_keypoints(batch):
    masks = (batch[..., :1] > 128).astype(np.uint8)
    boxes = tf.ragged.constant([[[1.0, 2.0, 5.0, 7.0]]] * len(batch), ragged_rank=1)
    points = tf.ragged.constant([[[3.0, 4.0]]] * len(batch), ragged_rank=1)
    out, t = tga.Pad((1, 2, 3, 4), padding_mode="reflect", fill_mask=0).apply(
        batch, tg.Targets(boxes=boxes, masks=masks, keypoints=points))
    assert out.shape == (6, 9 + 2 + 4, 11 + 1 + 3, 3)
    np.testing.assert_array_equal(t.masks.numpy()[2], np_pad(masks[2], 2, 4, 1, 3, "reflect"))
    np.testing.assert_allclose(t.boxes.to_tensor().numpy()[:, 0], [[2.0, 4.0, 6.0, 9.0]] * 6)  # xyxy: x + 1, y + 2
    np.testing.assert_allclose(t.keypoints.to_tensor().numpy()[:, 0], [[4.0, 6.0]] * 6)  # (x + 1, y + 2)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_random_crop_is_a_uniform_window_of_the_padded_image(batch, mode):
    """Each output is exactly one window of numpy's padded image; over many draws every window
    position turns up (a uniform draw over 9 x 9 corners: 400 samples miss one with p < 1e-5)."""
    images = np.repeat(batch[:1], 400, axis=0)
    out = tga.RandomCrop((5, 7), padding=(2, 1, 3, 2), padding_mode=mode, fill=9)(images, seed=3).numpy()
    padded = np_pad(batch[0], 1, 2, 2, 3, NUMPY_MODE[mode], 9)  # 12 x 16
    corners = {corner_of(o, padded) for o in out[:60]}
    everything = [corner_of(o, padded) for o in out]
    assert set(everything) == {(y, x) for y in range(12 - 5 + 1) for x in range(16 - 7 + 1)}
    assert len(corners) > 20


def test_random_crop_moves_masks_boxes_and_keypoints_with_its_window(batch):
    masks = batch[..., 1:2]
    boxes = tf.ragged.constant([[[2.0, 3.0, 6.0, 8.0]]] * len(batch), ragged_rank=1)
    points = tf.ragged.constant([[[5.0, 4.0]]] * len(batch), ragged_rank=1)
    crop = tga.RandomCrop(8, padding=4, padding_mode="symmetric", fill_mask=0)
    out, t = crop.apply(batch, tg.Targets(boxes=boxes, masks=masks, keypoints=points), seed=11)
    out, got_masks = out.numpy(), t.masks.numpy()
    got_boxes, got_points = t.boxes.to_tensor(-1.0).numpy(), t.keypoints.to_tensor(-1.0).numpy()
    for i, image in enumerate(batch):
        y, x = corner_of(out[i], np_pad(image, 4, 4, 4, 4, "symmetric"))
        np.testing.assert_array_equal(got_masks[i], np_pad(masks[i], 4, 4, 4, 4, "symmetric")[y:y + 8, x:x + 8])
        dy, dx = 4 - y, 4 - x
        np.testing.assert_allclose(got_points[i, 0], [5.0 + dx, 4.0 + dy])
        expected = np.clip([2.0 + dx, 3.0 + dy, 6.0 + dx, 8.0 + dy], 0, 8)  # xyxy, clipped
        if (expected[2] - expected[0]) * (expected[3] - expected[1]) > 0:
            np.testing.assert_allclose(got_boxes[i, 0], expected)
        else:  # nothing of it left in the window: dropped
            assert t.boxes.row_lengths().numpy()[i] == 0


def test_random_crop_inference_is_torchvisions_centre_crop(batch):
    """torchvision's CenterCrop: top = int(round((H - h) / 2)) (Python rounds half to even)."""
    for size, padding in (((5, 6), None), ((4, 4), 1), ((8, 8), (0, 2))):
        out = tga.RandomCrop(size, padding=padding)(batch, training=False).numpy()
        left, top, right, bottom = (0, 0, 0, 0) if padding is None else (
            (padding,) * 4 if isinstance(padding, int) else padding * 2)
        padded = np_pad(batch[0], top, bottom, left, right, "constant")
        y, x = (int(round((padded.shape[k] - size[k]) / 2)) for k in (0, 1))
        np.testing.assert_array_equal(out[0], padded[y:y + size[0], x:x + size[1]])


def test_pad_if_needed_pads_the_shortfall_on_both_ends_as_torchvision(batch):
    """torchvision pads (size - side) to BOTH ends of a short axis, so a 9 x 11 image cropped to
    12 x 12 is a window of the 15 x 13 canvas."""
    out = tga.RandomCrop(12, pad_if_needed=True, padding_mode="edge")(np.repeat(batch[:1], 50, 0), seed=1).numpy()
    padded = np_pad(batch[0], 3, 3, 1, 1, "edge")
    assert {corner_of(o, padded) for o in out} <= {(y, x) for y in range(4) for x in range(2)}
    assert len({corner_of(o, padded) for o in out}) > 4


def test_random_crop_takes_ragged_and_encoded_images():
    images = [fixtures.photo(10, 13, seed=1), fixtures.photo(16, 9, seed=2)]
    ragged = tf.ragged.stack([tf.constant(i) for i in images])
    out = tga.RandomCrop(12, pad_if_needed=True, padding_mode="reflect")(ragged, seed=4).numpy()
    assert out.shape == (2, 12, 12, 3)
    corner_of(out[0], np_pad(images[0], 2, 2, 0, 0, "reflect"))
    corner_of(out[1], np_pad(images[1], 0, 0, 3, 3, "reflect"))
    pngs = tf.constant([fixtures.png_bytes(i) for i in images])
    np.testing.assert_array_equal(tga.RandomCrop(12, pad_if_needed=True, padding_mode="reflect")(pngs, seed=4), out)


def test_random_crop_refuses_images_smaller_than_size(batch):
    with pytest.raises(ValueError, match="pad_if_needed=True or a smaller size"):
        tga.RandomCrop(10)(batch)
    ragged = tf.ragged.stack([tf.constant(fixtures.photo(10, 13)), tf.constant(fixtures.photo(8, 20))])
    with pytest.raises(tf.errors.InvalidArgumentError, match="needs_images_at_least_size"):
        tga.RandomCrop(9)(ragged)
    assert tga.RandomCrop(8)(ragged).shape == (2, 8, 8, 3)


@pytest.mark.parametrize("kwargs, message", [
    (dict(size=0), "size must be positive"),
    (dict(size=4, padding=-1), "padding must be"),
    (dict(size=4, padding=(1, 2, 3)), "padding must be"),
    (dict(size=4, padding_mode="wrap"), "padding_mode"),
    (dict(size=4, fill="black"), "fill must be"),
])
def test_random_crop_bad_arguments_fail_at_construction(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.RandomCrop(**kwargs)


def test_per_channel_fills_must_match_the_channels(batch):
    with pytest.raises(ValueError, match="fill has 2 values for 3-channel images"):
        tga.Pad(1, fill=(1, 2))(batch)


def test_uint8_fill_must_be_a_level(batch):
    with pytest.raises(ValueError, match=r"whole levels in \[0, 255\]"):
        tga.Pad(1, fill=300)(batch)
    with pytest.raises(ValueError, match="dense batch"):
        tga.Pad(1)(tf.ragged.stack([tf.constant(batch[0])]))


def albumentations_padding(n, least, divisor):
    """Albumentations' get_dimension_padding, restated."""
    if least is not None:
        before = int((least - n) / 2.0) if n < least else 0
        return before, max(least - n, 0) - before
    total = (divisor - n % divisor) % divisor
    return total // 2, total - total // 2


@pytest.mark.parametrize("position", ["center", "top_left", "top_right", "bottom_left", "bottom_right"])
@pytest.mark.parametrize("border_mode", ["constant", "replicate", "reflect", "wrap", "reflect_101"])
def test_pad_if_needed_equals_the_albumentations_rule(batch, position, border_mode):
    kw = dict(min_height=14, min_width=None, pad_height_divisor=None, pad_width_divisor=4)
    out = tga.PadIfNeeded(**kw, position=position, border_mode=border_mode, fill=5)(batch).numpy()
    top, bottom = albumentations_padding(9, 14, None)
    left, right = albumentations_padding(11, None, 4)
    if position != "center":
        top, bottom = (0, top + bottom) if position.startswith("top") else (top + bottom, 0)
        left, right = (0, left + right) if position.endswith("left") else (left + right, 0)
    np.testing.assert_array_equal(out[3], np_pad(batch[3], top, bottom, left, right, CV_TO_NUMPY[border_mode], 5))
    assert tga.PadIfNeeded(**kw).output_shape((6, 9, 11, 3)) == out.shape


def test_pad_if_needed_random_position_and_albumentations_where_installed(batch):
    out = tga.PadIfNeeded(12, 15, position="random")(np.repeat(batch[:1], 80, 0), seed=2).numpy()
    corners = {corner_of(batch[0], o) for o in out}  # where the image sits in the canvas
    assert corners == {(y, x) for y in range(4) for x in range(5)}
    np.testing.assert_array_equal(tga.PadIfNeeded(12, 15, position="random")(batch, training=False),
                                  tga.PadIfNeeded(12, 15)(batch))
    A = pytest.importorskip("albumentations")
    import cv2
    for mode, cv in (("constant", cv2.BORDER_CONSTANT), ("reflect_101", cv2.BORDER_REFLECT_101),
                     ("reflect", cv2.BORDER_REFLECT), ("replicate", cv2.BORDER_REPLICATE)):
        ref = A.PadIfNeeded(min_height=16, min_width=13, border_mode=cv, fill=3)(image=batch[0])["image"]
        np.testing.assert_array_equal(tga.PadIfNeeded(16, 13, border_mode=mode, fill=3)(batch).numpy()[0], ref)


def test_pad_if_needed_takes_exactly_one_rule_per_axis():
    with pytest.raises(ValueError, match="exactly one of min_height and pad_height_divisor"):
        tga.PadIfNeeded(min_height=None, min_width=4)
    with pytest.raises(ValueError, match="exactly one of min_width and pad_width_divisor"):
        tga.PadIfNeeded(min_height=4, min_width=4, pad_width_divisor=8)
    with pytest.raises(ValueError, match="position"):
        tga.PadIfNeeded(4, 4, position="middle")


def test_keras_layers_export_their_config(batch):
    for layer in (tga.keras.RandomCrop(8, padding=2, padding_mode="reflect", seed=1), tga.keras.Pad((1, 2)),
                  tga.keras.PadIfNeeded(12, 12)):
        clone = type(layer).from_config(layer.get_config())
        np.testing.assert_array_equal(clone(batch, training=False), layer(batch, training=False))


def test_static_shapes_survive_so_later_stages_can_resize():
    """A later resize needs the channel count statically; the run-time size check (a reshape)
    and the tensor-sized pads must not lose what is known."""
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, 24, 24, 3], tf.uint8)])
    def chain(x):
        for t in (tga.Pad(2), tga.RandomCrop(20, padding=1), tga.PadIfNeeded(24, 26, position="random"),
                  tga.RandomCrop(30, pad_if_needed=True)):
            x = t(x, seed=1)
            shapes.append(tuple(x.shape))
        return x

    chain.get_concrete_function()
    assert shapes == [(None, 28, 28, 3), (None, 20, 20, 3), (None, 24, 26, 3), (None, 30, 30, 3)]
