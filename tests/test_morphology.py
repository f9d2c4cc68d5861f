"""Morphological (Albumentations') against a numpy restatement of cv2.dilate / cv2.erode with
OpenCV's elliptical element (exact: maxima and minima only), against cv2 and Albumentations 2.0.8
themselves where installed, and the box rule against the rasterised box's own morphology."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg
from tfgpuaug.morphology import ellipse_element, morphology

# cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (w, h)) for a few sizes, printed by OpenCV 4.10
KNOWN_ELEMENTS = {
    (2, 3): [[0, 1], [1, 1], [0, 1]],
    (3, 3): [[0, 1, 0], [1, 1, 1], [0, 1, 0]],
    (5, 5): [[0, 0, 1, 0, 0], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [0, 0, 1, 0, 0]],
    (1, 1): [[1]],
}


def numpy_morphology(image, element, operation):
    """cv2's definition: dst(y, x) = max (min) over set taps (i, j) of src(y + i - ay, x + j - ax),
    taps outside the image ignored."""
    h, w = image.shape[:2]
    kh, kw = element.shape
    ay, ax = kh // 2, kw // 2
    pick = np.maximum if operation == "dilation" else np.minimum
    out = None
    for i, j in zip(*np.nonzero(element)):
        tap = np.full_like(image, 0 if operation == "dilation" else 255)
        ys = slice(max(0, ay - i), min(h, h + ay - i))
        xs = slice(max(0, ax - j), min(w, w + ax - j))
        src_ys = slice(ys.start + i - ay, ys.stop + i - ay)
        src_xs = slice(xs.start + j - ax, xs.stop + j - ax)
        tap[ys, xs] = image[src_ys, src_xs]
        out = tap if out is None else pick(out, tap)
    return out


@pytest.mark.parametrize("size, rows", KNOWN_ELEMENTS.items())
def test_element_is_opencvs(size, rows):
    np.testing.assert_array_equal(ellipse_element(*size), np.array(rows, bool))


@pytest.mark.parametrize("scale", [(2, 3), 3, (5, 4), (1, 7)])
@pytest.mark.parametrize("operation", ["dilation", "erosion"])
def test_kernel_equals_the_definition(scale, operation):
    images = np.stack([fixtures.photo(17, 23, seed=s) for s in range(3)])
    pair = (scale, scale) if isinstance(scale, int) else sorted(scale)
    element = ellipse_element(*pair)
    out = tga.Morphological(scale, operation, probability=1.0)(images, seed=1).numpy()
    for i, image in enumerate(images):
        np.testing.assert_array_equal(out[i], numpy_morphology(image, element, operation), err_msg=f"sample {i}")


def test_matches_cv2_and_albumentations_where_installed():
    cv2 = pytest.importorskip("cv2")
    A = pytest.importorskip("albumentations")
    image = fixtures.photo(31, 29, seed=4)
    for scale in ((2, 3), (3, 3), (5, 4)):  # (5, 4): Albumentations orders it to (4, 5)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, tuple(sorted(scale)))
        np.testing.assert_array_equal(ellipse_element(*sorted(scale)), kernel.astype(bool))
        for operation, cv in (("dilation", cv2.dilate), ("erosion", cv2.erode)):
            ours = tga.Morphological(scale, operation, probability=1.0)(image[None], seed=1).numpy()[0]
            np.testing.assert_array_equal(ours, cv(image, kernel))
            theirs = A.Morphological(scale=scale, operation=operation, p=1.0)(image=image)["image"]
            np.testing.assert_array_equal(ours, theirs)


def test_floats_masks_and_probability():
    images = np.stack([fixtures.photo(12, 14, seed=s) for s in range(200)])
    out = tga.Morphological(3, "erosion", probability=0.3)(images, seed=2).numpy()
    changed = np.array([not np.array_equal(o, i) for o, i in zip(out, images)])
    assert 0.2 < changed.mean() < 0.4, changed.mean()  # 200 draws: sd 0.032
    floats = images[:2].astype(np.float32) / 7.0
    np.testing.assert_array_equal(morphology(tf.constant(floats), ellipse_element(3, 3), "dilation").numpy()[1],
                                  numpy_morphology(floats[1], ellipse_element(3, 3), "dilation"))
    masks = np.zeros((2, 12, 14, 1), np.uint8)
    masks[:, 4:7, 5:9] = 3
    _, t = tga.Morphological(3, "dilation", probability=1.0).apply(images[:2], tg.Targets(masks=masks), seed=1)
    np.testing.assert_array_equal(t.masks.numpy()[0], numpy_morphology(masks[0], ellipse_element(3, 3), "dilation"))
    np.testing.assert_array_equal(tga.Morphological(probability=1.0)(images, training=False), images)


@pytest.mark.parametrize("operation", ["dilation", "erosion"])
@pytest.mark.parametrize("scale", [(2, 3), (4, 5)])
def test_boxes_are_the_bounding_boxes_of_their_moved_rectangles(operation, scale):
    """Each whole-pixel box rasterised, put through the same morphology in numpy, and measured:
    the transform's box is that extent (inner boxes, boxes on the image's edges, and a thin box
    that erosion empties, which is dropped)."""
    h, w = 20, 24
    boxes = [[3.0, 4.0, 10.0, 9.0], [0.0, 0.0, 6.0, 5.0], [18.0, 15.0, 24.0, 20.0], [8.0, 12.0, 10.0, 13.0]]
    images = np.zeros((1, h, w, 3), np.uint8)
    ragged = tf.ragged.constant([boxes], ragged_rank=1)
    _, t = tga.Morphological(scale, operation, probability=1.0).apply(images, tg.Targets(boxes=ragged), seed=1)
    scale = sorted(scale)
    got = t.boxes.to_tensor().numpy()[0].tolist()
    expected = []
    for x1, y1, x2, y2 in boxes:
        mask = np.zeros((h, w), np.uint8)
        mask[int(y1):int(y2), int(x1):int(x2)] = 255
        moved = numpy_morphology(mask[..., None], ellipse_element(*scale), operation)[..., 0]
        ys, xs = np.nonzero(moved)
        if len(ys):
            expected.append([xs.min(), ys.min(), xs.max() + 1.0, ys.max() + 1.0])
    assert got == expected


def test_bad_arguments_fail_at_construction():
    with pytest.raises(ValueError, match="scale must be"):
        tga.Morphological((0, 3))
    with pytest.raises(ValueError, match="operation"):
        tga.Morphological(3, "opening")
    with pytest.raises(ValueError, match="probability"):
        tga.Morphological(3, probability=2.0)


@pytest.mark.parametrize("dtype, shape", [(np.uint8, (4, 6, 8, 3)), (np.uint8, (4, 5, 7, 3)),
                                          (np.float32, (4, 3, 5, 1)), (np.int16, (4, 2, 2, 2))])
def test_select_samples_takes_whole_samples_on_every_path(dtype, shape):
    """Rows as int32 words (uint8, a multiple of 4 bytes), a rank-1 Select (float32), the
    broadcast select (the rest): each sample wholly from one side."""
    from tfgpuaug.transforms import select_samples
    rng = np.random.RandomState(0)
    yes, no = (rng.randint(0, 100, shape).astype(dtype) for _ in range(2))
    flags = np.array([True, False, False, True])
    out = select_samples(tf.constant(flags), tf.constant(yes), tf.constant(no)).numpy()
    np.testing.assert_array_equal(out, np.where(flags[:, None, None, None], yes, no))
