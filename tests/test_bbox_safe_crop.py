"""RandomSizedBBoxSafeCrop (issue 36; Albumentations' RandomSizedBBoxSafeCrop): every box is
kept whole (none dropped, none clipped) and its output extent is the crop's affine map of the
input box; the crop draw against its definition (the union widened by uniform shares of the
room to each edge) recomputed in numpy from the same uniforms; images without boxes get a
(1 - erosion_rate) crop; inference resizes the whole image. Pixels and masks against the boxes:
test_detection.py's rectangle oracle ("bbox_safe_crop" case)."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg

H, W, S = 60, 80, 32


def _element(boxes):
    images = tf.constant(np.stack([fixtures.photo(H, W, 3, seed=i) for i in range(len(boxes))]))
    rows = [np.asarray(b, np.float32).reshape(-1, 4) for b in boxes]
    ragged = tf.RaggedTensor.from_row_lengths(np.concatenate(rows), [len(r) for r in rows])
    return images, tg.Targets(boxes=ragged)


def test_every_box_is_kept_whole_and_maps_affinely():
    boxes = [[[10, 12, 30, 40], [50, 5, 70, 20]], [[0, 0, 80, 60]], [[33, 21, 34, 22]], [[5, 30, 25, 55]]]
    images, targets = _element(boxes)
    for seed in range(10):
        t = tga.RandomSizedBBoxSafeCrop(S, seed=seed)
        out, moved = t.apply(images, targets, seed=tf.constant([seed, 1]))
        assert out.shape == (4, S, S, 3)
        got = moved.boxes
        np.testing.assert_array_equal(got.row_lengths().numpy(), [2, 1, 1, 1])  # none dropped
        flat = got.flat_values.numpy()
        assert (flat >= -1e-3).all() and (flat <= S + 1e-3).all()
        # the same map for every box of an image: x' = (x - left) * S / crop_width
        for i, rows in enumerate(got.to_list()):
            src = np.asarray(boxes[i], np.float32)
            dst = np.asarray(rows)
            sx = (dst[:, 2] - dst[:, 0]) / (src[:, 2] - src[:, 0])
            sy = (dst[:, 3] - dst[:, 1]) / (src[:, 3] - src[:, 1])
            np.testing.assert_allclose(sx, sx[0], rtol=1e-4)
            np.testing.assert_allclose(sy, sy[0], rtol=1e-4)
            assert sx[0] >= S / W - 1e-4 and sy[0] >= S / H - 1e-4  # the crop is never larger than the image


def test_crop_draw_matches_its_definition():
    """The crop box [y, x, h, w] recomputed in numpy from the transform's uniforms."""
    boxes = [[[10, 12, 30, 40], [50, 5, 70, 20]], []]
    images, targets = _element(boxes)
    t = tga.RandomSizedBBoxSafeCrop(S, erosion_rate=0.5, seed=0)
    seed = tf.constant([7, 3])
    captured = {}
    import tfgpuaug.transforms as tr
    real = tr._crop_resize_with_targets

    def spy(images, targets, box, *args, **kwargs):
        captured["box"] = box.numpy()
        return real(images, targets, box, *args, **kwargs)

    tr._crop_resize_with_targets = spy
    try:
        t.apply(images, targets, seed=seed)
    finally:
        tr._crop_resize_with_targets = real
    u = tf.random.stateless_uniform([2, 4], t._next_seed(seed)).numpy()
    # image 0: boxes eroded by a quarter of their size on each side, then their union
    x1, y1, x2, y2 = min(10 + 5, 50 + 5), min(12 + 7, 5 + 3.75), max(30 - 5, 70 - 5), max(40 - 7, 20 - 3.75)
    top, left = y1 * u[0, 0], x1 * u[0, 1]
    bottom, right = y2 + (H - y2) * u[0, 2], x2 + (W - x2) * u[0, 3]
    np.testing.assert_allclose(captured["box"][0], [top, left, bottom - top, right - left], rtol=1e-5, atol=1e-4)
    # image 1, no boxes: half of each side at a uniform place
    np.testing.assert_allclose(captured["box"][1], [H / 2 * u[1, 0], W / 2 * u[1, 1], H / 2, W / 2], rtol=1e-5)


def test_inference_resizes_the_whole_image_and_bad_arguments_are_refused():
    images, targets = _element([[[10, 12, 30, 40]]])
    out, moved = tga.RandomSizedBBoxSafeCrop(S).apply(images, targets, training=False)
    np.testing.assert_allclose(moved.boxes.flat_values.numpy(), [[10 * S / W, 12 * S / H, 30 * S / W, 40 * S / H]],
                               rtol=1e-5)
    np.testing.assert_array_equal(out.numpy(), tga.resize(images, S).numpy())
    with pytest.raises(ValueError, match="erosion_rate"):
        tga.RandomSizedBBoxSafeCrop(S, erosion_rate=1.0)
