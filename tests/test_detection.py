"""Boxes, masks and keypoints travel with the images (issue 20).

The oracle: each box is drawn as a filled rectangle (its own value) in a mask; image and mask
go through the same transforms (masks with nearest sampling); the output box must equal the
extent of its output rectangle within a pixel or two (the stated tolerance: nearest sampling
of the mask moves an edge by up to one output pixel, plus one for rotations whose enclosing
box is computed from exact corners). Box formats are checked against Keras 3's converters.
"""
import io

import keras
import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfgpuaug as tga
from tfgpuaug import boxes as bx

SIZES = [(180, 240), (260, 150), (120, 120), (200, 300)]
GEOMETRIC = ["rotate", "shear_x", "shear_y", "translate_x", "translate_y"]


def _scene(seed: int):
    """Images, masks (box k of image i filled with its label 10 i + k, plus 1) and
    non-overlapping xyxy boxes per image."""
    rng = np.random.default_rng(seed)
    images, masks, boxes, labels = [], [], [], []
    for i, (h, w) in enumerate(SIZES):
        img = rng.integers(0, 255, (h, w, 3), dtype=np.uint8)
        mask = np.zeros((h, w, 1), np.uint8)
        bb = []
        cols, rows = 3, 2  # one box per grid cell, so rectangles never overlap
        for k in range(int(rng.integers(1, 5))):
            cy, cx = divmod(k, cols)
            cell_h, cell_w = h // rows, w // cols
            y0 = cy * cell_h + int(rng.integers(0, cell_h // 3))
            x0 = cx * cell_w + int(rng.integers(0, cell_w // 3))
            y1 = y0 + int(rng.integers(cell_h // 3, cell_h - (y0 - cy * cell_h)))
            x1 = x0 + int(rng.integers(cell_w // 3, cell_w - (x0 - cx * cell_w)))
            mask[y0:y1, x0:x1] = 10 * i + k + 1  # unique in the batch: a mosaic mixes images
            bb.append([x0, y0, x1, y1])
        images.append(img)
        masks.append(mask)
        boxes.append(np.array(bb, np.float32))
        labels.append(10 * i + np.arange(len(bb), dtype=np.int32))
    return images, masks, boxes, labels


def _png(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(a[..., 0] if a.shape[-1] == 1 else a).save(buf, "PNG")
    return buf.getvalue()


def _batch(seed: int, encoded: bool, dense_images: bool = False):
    images, masks, boxes, labels = _scene(seed)
    if encoded:
        img = tf.constant([_png(a) for a in images])
        msk = tf.constant([_png(m) for m in masks])
    else:
        img = tf.ragged.stack([tf.constant(a) for a in images])
        msk = tf.ragged.stack([tf.constant(m) for m in masks])
    return {"images": img, "segmentation_masks": msk,
            "bounding_boxes": {"boxes": _ragged(boxes), "labels": _ragged(labels)}}


def _ragged(rows) -> tf.RaggedTensor:
    """[B, (N), ...] from per-image arrays (in eager and graph mode alike)."""
    return tf.RaggedTensor.from_row_lengths(np.concatenate(rows), [len(r) for r in rows])


def _run(transforms, element, seed, **kwargs):
    ds = tf.data.Dataset.from_tensors(element)
    return next(iter(ds.apply(tga.gpu_augment(transforms, device="/cpu:0", seed=seed, **kwargs))))


def _sliver(box) -> bool:
    """Too thin or small for nearest sampling to show a mask pixel."""
    w, h = box[2] - box[0], box[3] - box[1]
    return min(w, h) < 1 or w * h < 6


def _check_against_masks(out, tolerance: float, rotates=False, drops_by_centre: bool = False):
    """With `rotates`, a rectangle turned into a parallelogram and cut by the image border (in
    the output, or at an earlier stage) has a smaller extent than the clipped enclosing box of
    its corners (what Keras 3 and Model Garden compute, and so do we): there the box must
    contain the extent; boxes away from the border are compared as the others."""
    masks = out["segmentation_masks"].numpy()
    boxes = out["bounding_boxes"]["boxes"]
    labels = out["bounding_boxes"]["labels"]
    checked = 0
    for i in range(masks.shape[0]):
        got = {}  # label -> box; a label twice (a mosaic may use one image twice): their union
        for box, label in zip(boxes[i].numpy(), labels[i].numpy()):
            old = got.get(int(label))
            if old is not None and _sliver(box):
                continue  # a sliver of a second copy (no mask pixel) would widen the union
            got[int(label)] = box if old is None else np.concatenate([np.minimum(old[:2], box[:2]),
                                                                       np.maximum(old[2:], box[2:])])
        present = set(np.unique(masks[i])) - {0}
        for k in present:
            ys, xs = np.nonzero(masks[i, ..., 0] == k)
            label = int(k) - 1
            extent = np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], np.float32)
            if len(ys) < 4:  # a sliver of a pixel or two: its box may have been dropped
                continue
            if drops_by_centre and label not in got:  # SSD's rule: its centre left the crop
                continue
            assert label in got, f"image {i}: label {label} visible ({len(ys)} px) but its box was dropped"
            h, w = masks.shape[1:3]
            at_border = xs.min() == 0 or ys.min() == 0 or xs.max() == w - 1 or ys.max() == h - 1
            box = got[label]
            inside = (box[:2] > 1).all() and box[2] < w - 1 and box[3] < h - 1
            if rotates and (at_border or not inside or rotates == "stages"):
                box = got[label]
                assert (box[:2] <= extent[:2] + tolerance).all() and (box[2:] >= extent[2:] - tolerance).all(), (
                    f"image {i} label {label}: {box} does not contain {extent}")
            else:
                np.testing.assert_allclose(got[label], extent, atol=tolerance,
                                           err_msg=f"image {i} label {label}")
            checked += 1
        for label, box in got.items():  # every kept box still shows (or is a sliver)
            assert label + 1 in present or _sliver(box), f"image {i}: box {label} kept ({box}) but not in the mask"
    return checked


CASES = {
    "random_resized_crop+mirror": (lambda: [tga.RandomResizedCrop(160, scale=(0.25, 1.0)),
                                            tga.CropMirrorNormalize(mirror=0.5)], 1.5),
    "resize_center_crop": (lambda: [tga.ResizeCenterCrop(200, 160)], 1.5),
    "resize": (lambda: [tga.Resize((140, 190))], 1.5),
    "resize+flips": (lambda: [tga.Resize(160), tga.RandomFlip(0.5, 0.5)], 1.5),
    "scale_jitter+mirror": (lambda: [tga.ScaleJitter(192, scale=(0.5, 2.0)),
                                     tga.CropMirrorNormalize(mirror=0.5)], 1.5),
    "letterbox": (lambda: [tga.Letterbox((160, 224))], 1.5),
    "rand_augment_geometric": (lambda: [tga.Resize(160), tga.RandAugment(2, 12, augmentations=GEOMETRIC,
                                                                          interpolation="nearest")], 2.5),
    "mosaic": (lambda: [tga.Mosaic(192)], 1.5),
    "one_geometric_op": (lambda: [tga.Resize(160), tga.RandAugment(1, 14, augmentations=GEOMETRIC,
                                                                    interpolation="nearest")], 2.5),
    "trivial_augment": (lambda: [tga.Resize(160), tga.TrivialAugment(interpolation="nearest")], 2.5),
    "random_perspective": (lambda: [tga.Resize(160), tga.RandomPerspective(0.6, probability=1.0,
                                                                           interpolation="nearest")], 1.5),
    "random_affine": (lambda: [tga.Resize(160), tga.RandomAffine(25, (0.15, 0.1), (0.7, 1.3), (-10, 10, -5, 5),
                                                                 interpolation="nearest")], 1.5),
    "random_zoom_out": (lambda: [tga.Resize(160), tga.RandomZoomOut((1.0, 2.5), probability=1.0)], 2.0),
    "bbox_safe_crop": (lambda: [tga.RandomSizedBBoxSafeCrop(160)], 1.5),
    "at_least_one_bbox_crop": (lambda: [tga.AtLeastOneBBoxRandomCrop(96, erosion_factor=0.2)], 1.5),
    "crop_from_borders": (lambda: [tga.RandomCropFromBorders(128, 0.3, 0.2, 0.25, 0.3)], 1.5),
    "crop_near_bbox": (lambda: [tga.RandomCropNearBBox(128, (0.3, 0.4), pick="random")], 1.5),
}
# A two-stage plan may cut a box at its first stage and move it back in at its second: the
# containment check only. One-stage plans are compared exactly away from the border.
ROTATES = {"rand_augment_geometric": "stages", "trivial_augment": True, "one_geometric_op": True,
           "random_perspective": True, "random_affine": True}


@pytest.mark.parametrize("encoded", [True, False], ids=["encoded", "decoded"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_boxes_follow_the_pixels(case, encoded):
    """Mutants caught: a flip that skips the boxes, the crop offset added instead of subtracted,
    the resize scale of the wrong axis, the mirrored placement's padding on the wrong side,
    a rotation in the wrong direction (each makes at least one seed fail)."""
    make, tolerance = CASES[case]
    checked = 0
    for seed in range(4):
        out = _run(make(), _batch(seed, encoded), seed, max_boxes=20)  # a mosaic holds up to 16
        assert out["bounding_boxes"]["boxes"].shape[1:] == (20, 4)
        checked += _check_against_masks(out, tolerance, ROTATES.get(case, False))
    assert checked >= 12, f"only {checked} boxes were compared"


def test_crops_drop_boxes_outside_and_clip_the_rest():
    """RandomResizedCrop at small scales cuts boxes: boxes are clipped to the output, labels of
    dropped boxes go with them, nothing outside [0, size]. Mutant: no clipping / no dropping."""
    dropped = clipped = 0
    for seed in range(8):
        element = _batch(seed, encoded=False)
        out = _run([tga.RandomResizedCrop(96, scale=(0.08, 0.3))], element, seed)
        b = out["bounding_boxes"]["boxes"]
        assert isinstance(b, tf.RaggedTensor)  # no max_boxes: ragged out
        flat = b.flat_values.numpy()
        assert (flat >= 0).all() and (flat <= 96).all()
        assert np.all(flat[:, 2] > flat[:, 0]) and np.all(flat[:, 3] > flat[:, 1])
        n_in = element["bounding_boxes"]["labels"].row_lengths().numpy()
        n_out = out["bounding_boxes"]["labels"].row_lengths().numpy()
        dropped += int((n_in - n_out).sum())
        clipped += int(((flat == 0) | (flat == 96)).any(axis=1).sum())
        assert np.array_equal(b.row_lengths().numpy(), n_out)
    assert dropped > 0 and clipped > 0


def test_min_visibility_drops_mostly_cut_boxes():
    """A box with less than min_box_visibility of its area inside the crop is dropped."""
    element = _batch(0, encoded=False)
    counts = []
    for visibility in (0.0, 0.9):
        total = 0
        for seed in range(6):
            out = _run([tga.RandomResizedCrop(96, scale=(0.1, 0.4))], element, seed,
                       min_box_visibility=visibility)
            total += int(out["bounding_boxes"]["labels"].flat_values.shape[0])
        counts.append(total)
    assert counts[1] < counts[0]


def test_dense_padded_in_and_keypoints():
    """Dense boxes padded with -1 (labels -1) are read as Keras 3 pads them; keypoints at box
    corners stay at the corners of the moved box under flips and resizes; an image without
    boxes stays without."""
    images, _, boxes, labels = _scene(1)
    n = 5
    dense = np.full((len(images), n, 4), -1, np.float32)
    dense_labels = np.full((len(images), n), -1, np.int32)
    for i, (b, lab) in enumerate(zip(boxes, labels)):
        dense[i, :len(b)], dense_labels[i, :len(b)] = b, lab
    dense[2], dense_labels[2] = -1, -1  # an image without boxes
    keypoints = dense[:, :1, :2].copy()  # the first box's top-left corner
    keypoints[2] = 5.0
    element = {"images": tf.ragged.stack([tf.constant(a) for a in images]),
               "bounding_boxes": {"boxes": tf.constant(dense), "labels": tf.constant(dense_labels)},
               "keypoints": tf.constant(keypoints)}
    for seed in range(3):
        out = _run([tga.Resize(128), tga.RandomFlip(1.0, 0.0)], element, seed, max_boxes=n)
        b, lab = out["bounding_boxes"]["boxes"].numpy(), out["bounding_boxes"]["labels"].numpy()
        assert b.shape == (4, n, 4) and lab.shape == (4, n)
        assert (lab[2] == -1).all() and (b[2] == -1).all()
        for i in (0, 1, 3):
            # flipped left-right: the first box's top-left corner becomes its top-right
            np.testing.assert_allclose(out["keypoints"][i, 0].numpy(), [b[i, 0, 2], b[i, 0, 1]], atol=1e-3)
        np.testing.assert_allclose(out["keypoints"][2, 0].numpy(), [128 - 5 * 128 / 120, 5 * 128 / 120], atol=1e-3)


def test_relative_formats_round_trip_through_a_pipeline():
    """rel_yxyx in, rel_yxyx out: equal to converting the xyxy pipeline's output."""
    element = _batch(2, encoded=True)
    out_xyxy = _run([tga.RandomResizedCrop(128), tga.RandomFlip()], element, 5, max_boxes=6)
    images, _, boxes, labels = _scene(2)
    rel = [bx.convert_format(b, "xyxy", "rel_yxyx", h, w).numpy() for b, (h, w) in zip(boxes, SIZES)]
    element["bounding_boxes"]["boxes"] = tf.ragged.constant(rel, ragged_rank=1, dtype=tf.float32)
    out_rel = _run([tga.RandomResizedCrop(128), tga.RandomFlip()], element, 5, max_boxes=6,
                   bounding_box_format="rel_yxyx")
    expect = bx.convert_format(out_xyxy["bounding_boxes"]["boxes"], "xyxy", "rel_yxyx", 128, 128).numpy()
    valid = out_xyxy["bounding_boxes"]["labels"].numpy() >= 0
    np.testing.assert_allclose(out_rel["bounding_boxes"]["boxes"].numpy()[valid], expect[valid], atol=1e-4)


def test_errors_are_clear():
    element = _batch(0, encoded=False)
    with pytest.raises(ValueError, match="bounding_box_format must be one of"):
        tga.gpu_augment([tga.Resize(64)], bounding_box_format="xyxyx")
    with pytest.raises(ValueError, match="max_boxes must be positive"):
        tga.gpu_augment([tga.Resize(64)], max_boxes=0)
    with pytest.raises(NotImplementedError, match="crop"):
        _run([tga.Resize(64), tga.CropMirrorNormalize(crop=32)], element, 0)
    ds = tf.data.Dataset.from_tensors(element)
    del ds  # ragged boxes cross to a GPU (test_ragged_boxes_cross_the_copy_without_max_boxes); sparse ones do not
    sparse = tf.data.Dataset.from_tensors(dict(element, extra=tf.sparse.from_dense(tf.ones([4, 2]))))
    with pytest.raises(ValueError, match="sparse component"):
        sparse.apply(tga.gpu_augment([tga.Resize(64)], device="/gpu:0"))
    bad = dict(element, bounding_boxes={"boxes": tf.zeros([4, 3, 5]), "labels": tf.zeros([4, 3], tf.int32)})
    with pytest.raises(ValueError, match="boxes must be"):
        _run([tga.Resize(64)], bad, 0)
    with pytest.raises(ValueError, match="a dict with 'boxes'"):
        _run([tga.Resize(64)], dict(element, bounding_boxes=tf.zeros([4, 3, 4])), 0)


FORMATS = list(bx.FORMATS)


@pytest.mark.parametrize("source", FORMATS)
def test_formats_match_keras_and_round_trip(source):
    """Every conversion equals keras.utils.bounding_boxes.convert_format; round trips exact."""
    rng = np.random.default_rng(0)
    h, w = 240.0, 320.0
    x0, y0 = rng.uniform(0, 200, 16), rng.uniform(0, 150, 16)
    xyxy = np.stack([x0, y0, x0 + rng.uniform(1, 100, 16), y0 + rng.uniform(1, 80, 16)], -1).astype(np.float32)
    src = keras.utils.bounding_boxes.convert_format(xyxy[None], "xyxy", source, height=h, width=w)
    src = np.asarray(src)
    for target in FORMATS:
        ours = bx.convert_format(tf.constant(src), source, target, h, w).numpy()
        theirs = np.asarray(keras.utils.bounding_boxes.convert_format(src, source, target, height=h, width=w))
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-3, err_msg=f"{source} -> {target}")
        back = bx.convert_format(tf.constant(ours), target, source, h, w).numpy()
        np.testing.assert_allclose(back, src, rtol=1e-5, atol=1e-3)


def test_box_utilities():
    a = tf.constant([[0.0, 0.0, 10.0, 10.0], [5.0, 5.0, 15.0, 15.0], [20.0, 20.0, 20.0, 30.0]])
    b = tf.constant([[0.0, 0.0, 10.0, 10.0], [0.0, 0.0, 5.0, 5.0]])
    np.testing.assert_allclose(bx.iou(a, b).numpy(), [[1.0, 0.25], [25 / 175, 0.0], [0.0, 0.0]], atol=1e-6)
    np.testing.assert_allclose(bx.area(a).numpy(), [100.0, 100.0, 0.0])
    np.testing.assert_allclose(bx.clip_to_image(a, 12, 8).numpy(), [[0, 0, 8, 10], [5, 5, 8, 12], [8, 12, 8, 12]])
    ragged = tf.ragged.constant([[[0.0, 0.0, 1.0, 1.0]], [], [[1.0, 1.0, 2.0, 2.0], [2.0, 2.0, 3.0, 3.0]]],
                                ragged_rank=1)
    labels = tf.ragged.constant([[3], [], [4, 5]])
    dense, dense_labels = bx.pad(ragged, labels, 2)
    assert dense.shape == (3, 2, 4) and dense_labels.numpy().tolist() == [[3, -1], [-1, -1], [4, 5]]
    back, back_labels = bx.unpad(dense, dense_labels)
    assert back.to_list() == ragged.to_list() and back_labels.to_list() == labels.to_list()
    rel = bx.convert_format(ragged, "xyxy", "rel_xyxy", tf.constant([10.0, 10.0, 4.0]), tf.constant([2.0, 2.0, 2.0]))
    np.testing.assert_allclose(rel[2].numpy(), [[0.5, 0.25, 1.0, 0.5], [1.0, 0.5, 1.5, 0.75]])
    with pytest.raises(ValueError, match="needs the image height and width"):
        bx.convert_format(a, "xyxy", "rel_xyxy")
    with pytest.raises(ValueError, match="format must be one of"):
        bx.area(a, "xyxz")


def test_scale_jitter_matches_model_garden_steps():
    """resize_and_pad equals Model Garden's steps done with tf.image: resize the whole image to
    the scaled size (bilinear, no antialias), crop at the offset, pad with zeros, within 1
    level; image_info obeys its formulas (scaled size = round(size * scale), offsets inside
    [0, scaled - output])."""
    images, _, _, _ = _scene(3)
    contents = tf.constant([_png(a) for a in images])
    out, info = tga.resize_and_pad(contents, 160, scale=(0.5, 2.0), jitter=True, seed=11)
    out, info = out.numpy(), info.numpy()
    for i, img in enumerate(images):
        sy, sx, oy, ox, h, w = info[i]
        assert (h, w) == img.shape[:2]
        sh, sw = round(sy * h), round(sx * w)
        assert abs(sy * h - sh) < 1e-3 and abs(sx * w - sw) < 1e-3
        assert 0 <= oy <= max(sh - 160, 0) and 0 <= ox <= max(sw - 160, 0)
        assert min(160 * 0.5 / h, 160 * 0.5 / w) * 0.99 <= sy <= max(160 * 2 / h, 160 * 2 / w) * 1.01
        full = tf.image.resize(img, [sh, sw], method="bilinear", antialias=False).numpy()
        full = np.clip(np.round(full), 0, 255)
        ref = np.zeros((160, 160, 3))
        crop = full[int(oy):int(oy) + 160, int(ox):int(ox) + 160]
        ref[:crop.shape[0], :crop.shape[1]] = crop
        np.testing.assert_allclose(out[i], ref, atol=1, err_msg=f"image {i}")
    centred, info_c = tga.resize_and_pad(contents, (160, 200), center=True)
    for i, img in enumerate(images):  # letterbox: the padding splits evenly
        sy, sx, oy, ox, h, w = info_c.numpy()[i]
        sh, sw = round(sy * h), round(sx * w)
        assert (sh == 160 or sw == 200) and sh <= 160 and sw <= 200
        assert oy == -((160 - sh) // 2) and ox == -((200 - sw) // 2)
        assert (centred.numpy()[i, :int(-oy)] == 0).all()


def _example(blob: bytes, boxes_rel_xyxy: np.ndarray, labels, crowd=None, area=None) -> bytes:
    f = lambda v: tf.train.Feature(float_list=tf.train.FloatList(value=list(v)))  # noqa: E731
    i = lambda v: tf.train.Feature(int64_list=tf.train.Int64List(value=list(v)))  # noqa: E731
    feature = {"image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[blob])),
               "image/object/bbox/xmin": f(boxes_rel_xyxy[:, 0]), "image/object/bbox/ymin": f(boxes_rel_xyxy[:, 1]),
               "image/object/bbox/xmax": f(boxes_rel_xyxy[:, 2]), "image/object/bbox/ymax": f(boxes_rel_xyxy[:, 3]),
               "image/object/class/label": i(labels)}
    if crowd is not None:
        feature["image/object/is_crowd"] = i(crowd)
    if area is not None:
        feature["image/object/area"] = f(area)
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def test_detection_tfrecord_reader(tmp_path):
    """Model Garden's detection TF Example layout reads back into Keras 3's layout; resizing
    leaves relative boxes where they were (rel_xyxy in and out); a record whose coordinate
    lists differ in length raises instead of pairing boxes with the wrong labels."""
    images, _, boxes, labels = _scene(4)
    path = str(tmp_path / "det.tfrecord")
    written = []
    with tf.io.TFRecordWriter(path) as w:
        for img, b, lab, (h, w_) in zip(images, boxes, labels, SIZES):
            rel = b / np.array([w_, h, w_, h], np.float32)
            written.append(rel)
            w.write(_example(_png(img), rel, lab + 1, crowd=[0] * len(lab), area=None))
    ds = tga.data.detection_tfrecord(path)
    first = next(iter(ds))
    np.testing.assert_allclose(first["bounding_boxes"]["boxes"].numpy(), written[0], atol=1e-6)
    assert first["bounding_boxes"]["labels"].numpy().tolist() == (labels[0] + 1).tolist()
    assert not first["bounding_boxes"]["is_crowd"].numpy().any()
    assert (first["bounding_boxes"]["area"].numpy() == -1).all()  # absent: -1
    out = next(iter(ds.ragged_batch(4).apply(tga.gpu_augment(
        [tga.Resize(96)], device="/cpu:0", seed=0, bounding_box_format="rel_xyxy", max_boxes=5))))
    for i, rel in enumerate(written):
        np.testing.assert_allclose(out["bounding_boxes"]["boxes"][i, :len(rel)].numpy(), rel, atol=1e-5)
        assert out["bounding_boxes"]["is_crowd"][i, :len(rel)].numpy().tolist() == [False] * len(rel)
    bad = str(tmp_path / "bad.tfrecord")
    with tf.io.TFRecordWriter(bad) as w:
        w.write(_example(_png(images[0]), written[0], [1]))  # one label for several boxes
    if len(written[0]) > 1:
        with pytest.raises(tf.errors.InvalidArgumentError, match="differ in length"):
            next(iter(tga.data.detection_tfrecord(bad)))


def test_random_iou_crop():
    """SSD's crop: boxes match their mask rectangles (boxes whose centre left the crop may be
    dropped though partly visible); with min_ious=(0.1,) some kept box overlaps the crop (the
    whole output) with IoU >= 0.1 in most images (the rest fell back to the whole image, which
    then keeps every box). Mutant: the IoU test against the wrong box, or the crop's x and y
    swapped (boxes stop matching their rectangles)."""
    met = total = checked = 0
    for seed in range(6):
        for encoded in (True, False):
            element = _batch(seed, encoded)
            out = _run([tga.RandomIoUCrop(128, min_ious=(0.1,), trials=60)], element, seed, max_boxes=6)
            checked += _check_against_masks(out, 1.5, drops_by_centre=True)
            boxes = out["bounding_boxes"]["boxes"].numpy()
            labels = out["bounding_boxes"]["labels"].numpy()
            n_in = element["bounding_boxes"]["labels"].row_lengths().numpy()
            for i in range(boxes.shape[0]):
                total += 1
                kept = boxes[i][labels[i] >= 0]
                if len(kept) and bx.iou(kept, np.array([[0, 0, 128, 128]], np.float32)).numpy().max() >= 0.1 - 1e-4:
                    met += 1
                else:
                    assert (labels[i] >= 0).sum() == n_in[i], "a fallback keeps every box"
    assert checked >= 20 and met >= 0.8 * total, (met, total)  # a simulation of the rule: 92%


def test_preview_draws_box_outlines():
    """draw_boxes colours exactly the outline band of each box (padding slots skipped) and
    leaves the inside and outside alone; relative formats are scaled by the image size."""
    from tfgpuaug import preview

    images = np.zeros((2, 40, 50, 3), np.uint8)
    boxes = np.array([[[10, 5, 30, 25], [-1, -1, -1, -1]], [[0, 0, 50, 40], [-1, -1, -1, -1]]], np.float32)
    out = preview.draw_boxes(images, boxes, thickness=2)
    red = (out[..., 0] == 255) & (out[..., 1] == 0)
    expect = np.zeros((40, 50), bool)
    expect[5:25, 10:30] = True
    expect[7:23, 12:28] = False
    assert (red[0] == expect).all()
    assert red[1, 0].all() and red[1, -1].all() and not red[1, 2:-2, 2:-2].any()
    rel = preview.draw_boxes(images[0], np.array([[0.2, 0.125, 0.6, 0.625]], np.float32), "rel_xyxy")
    assert ((rel[..., 0] == 255) == expect).all()
    assert (images == 0).all()  # a copy


def _gpu_stage_transforms():
    return [tga.ScaleJitter(96), tga.RandomFlip(), tga.ColorJitter(0.3, 0.3), tga.CropMirrorNormalize()]


def test_gpu_stage_carries_annotations_made_final_on_the_host():
    """With annotations, a GPU-placed stage runs every transform through the last one that moves
    them on the host (here scale jitter and flip, with boxes and masks), pads the boxes to
    max_boxes there, and the GPU part (colour jitter, normalize) passes them through. The two
    halves compute what the one-map CPU stage computes: pixels, boxes, labels and masks equal.
    Mutant checked against: a host_stop that ignores annotations (the host part stops after the
    decoding ScaleJitter, the GPU part gets the flip and its boxes are left unmoved: they differ)."""
    assert tga.Compose(_gpu_stage_transforms()).host_stop(with_targets=True) == 2
    assert tga.Compose(_gpu_stage_transforms()).host_stop() == 1
    assert tga.Compose([tga.ScaleJitter(96), tga.RandomFlip(), tga.CropMirrorNormalize()]).host_stop(True) == 2
    assert tga.Compose([tga.ScaleJitter(96), tga.ColorJitter(0.2), tga.RandomFlip()]).host_stop(True) == 3
    ds = tf.data.Dataset.from_tensors(_batch(0, encoded=True)).repeat(3)
    whole = ds.apply(tga.gpu_augment(_gpu_stage_transforms(), device="/cpu:0", seed=5, max_boxes=8))
    split = ds.apply(tga.host_stage(_gpu_stage_transforms(), seed=5, max_boxes=8))
    split = split.apply(tga.device_stage(_gpu_stage_transforms()))
    flipped = 0
    for a, b in zip(whole, split):
        np.testing.assert_array_equal(a["images"].numpy(), b["images"].numpy())
        np.testing.assert_array_equal(a["segmentation_masks"].numpy(), b["segmentation_masks"].numpy())
        for k in ("boxes", "labels"):
            assert b["bounding_boxes"][k].shape[:2] == (4, 8)
            np.testing.assert_array_equal(a["bounding_boxes"][k].numpy(), b["bounding_boxes"][k].numpy())
        _check_against_masks(b, tolerance=1.5)
        flipped += 1
    assert flipped == 3


@pytest.mark.gpu_path
def test_gpu_stage_with_annotations_is_placed_on_the_gpu():
    """Structurally, as test_device_stage does: the box bookkeeping (ragged ops, some CPU-only)
    is in the host map; the device map's ops all have GPU kernels and the padded annotations
    pass through it to the device prefetch."""
    from test_device_stage import dataset_chain, function_nodes, has_gpu_kernel, needs_cuda_build
    if needs_cuda_build.args[0]:
        pytest.skip("op library built without CUDA kernels")
    graph = tf.Graph()
    with graph.as_default():
        ds = tf.data.Dataset.from_tensors(_batch(0, encoded=True))
        ds = ds.apply(tga.gpu_augment(_gpu_stage_transforms(), device="/gpu:0", seed=1, max_boxes=8))
        chain = dataset_chain(ds._variant_tensor)
        spec = ds.element_spec
    assert spec["bounding_boxes"]["boxes"].shape.as_list()[1:] == [8, 4]
    types = [op.type for op in chain]
    device_map = chain[0]  # the last op: no prefetch on the device
    assert device_map.type == "ExperimentalMapDataset" and "GPU:0" in device_map.device.upper()
    host_map = chain[types.index("ParallelMapDatasetV2", types.index("GeneratorDataset"))]
    library = graph.as_graph_def().library
    device_ops = function_nodes(library, device_map.get_attr("f").name)
    host_ops = {n.op for n in function_nodes(library, host_map.get_attr("f").name)}
    assert not sorted({n.op for n in device_ops if not has_gpu_kernel(n)})
    assert {"TfGpuAug>CropMirrorNormalize", "TfGpuAug>Augment"} <= {n.op for n in device_ops}
    assert "TfGpuAug>DecodeImageBatch" in host_ops or "TfGpuAug>DecodeResizePad" in host_ops


def test_mosaic_draws_a_centre_per_sample_and_pastes_exact_tiles():
    """Each sample gets its own centre, inside `center` times the size. Every image carries one
    box over all of it, so the first output box of a sample is its top-left tile: [0, 0, xc, yc].
    The mask (constant i + 1 per image) shows the sample itself there, and the tile's pixels
    equal crop_and_resize of its centred cover crop (the same resampler, pasted in place); each
    other quadrant holds one source. Mutant checked against: one centre for the whole batch (the
    centres are then all equal)."""
    rng = np.random.default_rng(7)
    sizes = [(90, 120), (130, 70), (64, 64), (100, 150), (80, 110), (120, 90)]
    images = [rng.integers(0, 255, (h, w, 3), dtype=np.uint8) for h, w in sizes]
    masks = [np.full((h, w, 1), i + 1, np.uint8) for i, (h, w) in enumerate(sizes)]
    element = {"images": tf.ragged.stack([tf.constant(a) for a in images]),
               "segmentation_masks": tf.ragged.stack([tf.constant(m) for m in masks]),
               "bounding_boxes": {"boxes": _ragged([np.array([[0, 0, w, h]], np.float32) for h, w in sizes]),
                                  "labels": _ragged([np.array([i], np.int32) for i in range(len(sizes))])}}
    out = _run([tga.Mosaic((96, 128), center=(0.25, 0.75), antialias=False)], element, 11)
    canvas, ids = out["images"].numpy(), out["segmentation_masks"].numpy()[..., 0]
    centres = set()
    for i, (h, w) in enumerate(sizes):
        first = out["bounding_boxes"]["boxes"][i][0].numpy()
        assert out["bounding_boxes"]["labels"][i][0] == i and first[0] == 0 and first[1] == 0
        xc, yc = int(first[2]), int(first[3])
        assert (xc, yc) == (first[2], first[3])
        assert 0.25 * 96 - 1 <= yc <= 0.75 * 96 + 1 and 0.25 * 128 - 1 <= xc <= 0.75 * 128 + 1
        centres.add((yc, xc))
        assert (ids[i, :yc, :xc] == i + 1).all()
        f = np.float32  # the transform's float32 arithmetic, step by step
        cover = max(f(yc) / f(h), f(xc) / f(w))
        bh, bw = f(yc) / cover, f(xc) / cover
        box = np.array([[(f(h) - bh) / f(2), (f(w) - bw) / f(2), bh, bw]], np.float32)
        want = tga.geometry.crop_and_resize(images[i][np.newaxis], box, (yc, xc), antialias=False)[0].numpy()
        np.testing.assert_array_equal(canvas[i, :yc, :xc], want)
        for q in (ids[i, :yc, xc:], ids[i, yc:, :xc], ids[i, yc:, xc:]):  # one source per quadrant
            assert len(np.unique(q)) == 1
    assert len(centres) >= 4, centres


def test_paste_resize_refuses_bad_tiles_by_name():
    img = tf.zeros([2, 8, 8, 3], tf.uint8)
    ok = dict(sources=[[0, 1]], boxes=[[[0, 0, 8, 8], [2, 2, 4, 4]]], regions=[[[0, 0, 5, 5], [5, 5, 3, 3]]])
    out = tga.geometry._paste_resize(img, size=(8, 8), method="bilinear", antialias=False, **ok)
    assert out.shape == (1, 8, 8, 3)
    cases = [(dict(ok, sources=[[0, 2]]), "sample 0, tile 1: source 2 is not one of the 2 images"),
             (dict(ok, regions=[[[0, 0, 5, 5], [5, 5, 4, 3]]]), r"tile 1: region \(5, 5, 4, 3\) is not inside"),
             (dict(ok, boxes=[[[0, 0, 9, 8], [2, 2, 4, 4]]]), "sample 0, tile 0")]
    for args, words in cases:
        with pytest.raises(tf.errors.InvalidArgumentError, match=words):
            tga.geometry._paste_resize(img, size=(8, 8), method="bilinear", antialias=False, **args)
    paste = tga._loader.ops().tf_gpu_aug_paste_resize
    for shapes, words in [([[2, 2]], "shapes describe 4 pixels but values holds 128"),
                          ([[8, 0], [8, 16]], "image 0 has an empty shape")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=words):
            paste(tf.zeros([128, 3], tf.uint8), tf.constant(shapes), [[0]], [[[0.0, 0.0, 1.0, 1.0]]],
                  [[[0, 0, 1, 1]]], [8, 8])


def test_distribute_passes_the_box_arguments_on():
    """`tga.distribute` takes gpu_augment's box arguments (max_boxes is what a GPU target needs)."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    dist = tga.distribute(strategy, lambda context: tf.data.Dataset.from_tensors(_batch(0, encoded=True)),
                          [tga.ScaleJitter(64), tga.RandomFlip()], seed=0, max_boxes=6, min_box_area=4.0)
    element = next(iter(dist))
    boxes = strategy.experimental_local_results(element["bounding_boxes"]["boxes"])[0]
    labels = strategy.experimental_local_results(element["bounding_boxes"]["labels"])[0]
    assert boxes.shape == (4, 6, 4) and labels.shape == (4, 6)
    real = labels.numpy() >= 0
    assert real.any() and (~real).any()  # padded with -1 after the real ones
    kept = boxes.numpy()[real]
    assert (kept >= 0).all() and (kept <= 64).all()
    assert ((kept[:, 2] - kept[:, 0]) * (kept[:, 3] - kept[:, 1]) > 4.0).all()  # min_box_area applied


def test_ragged_boxes_cross_the_copy_without_max_boxes(tmp_path):
    """Issue 35: a GPU target without max_boxes. The ragged boxes and labels cross the copy as
    values and row splits and come back ragged; on the split forced onto the CPU the stream
    (pixels, masks, ragged boxes, labels) equals the one-map CPU stage's, and the iterator still
    checkpoints exactly mid-stream."""
    ds = tf.data.Dataset.from_tensors(_batch(0, encoded=True)).repeat(3)
    whole = ds.apply(tga.gpu_augment(_gpu_stage_transforms(), device="/cpu:0", seed=5))
    split = ds.apply(tga.gpu_augment(_gpu_stage_transforms(), seed=5, _split_device="/cpu:0"))
    assert isinstance(split.element_spec["bounding_boxes"]["boxes"], tf.RaggedTensorSpec)
    seen = 0
    for a, b in zip(whole, split):
        np.testing.assert_array_equal(a["images"].numpy(), b["images"].numpy())
        np.testing.assert_array_equal(a["segmentation_masks"].numpy(), b["segmentation_masks"].numpy())
        for k in ("boxes", "labels"):
            assert isinstance(b["bounding_boxes"][k], tf.RaggedTensor)
            np.testing.assert_array_equal(a["bounding_boxes"][k].row_splits.numpy(),
                                          b["bounding_boxes"][k].row_splits.numpy())
            np.testing.assert_array_equal(a["bounding_boxes"][k].flat_values.numpy(),
                                          b["bounding_boxes"][k].flat_values.numpy())
        seen += 1
    assert seen == 3
    it = iter(split)
    next(it)
    path = tf.train.Checkpoint(iterator=it).save(str(tmp_path / "it"))
    rest = [x["bounding_boxes"]["boxes"].flat_values.numpy() for x in it]
    resumed = iter(split)
    tf.train.Checkpoint(iterator=resumed).restore(path)
    again = [x["bounding_boxes"]["boxes"].flat_values.numpy() for x in resumed]
    assert len(rest) == len(again) == 2
    for x, y in zip(rest, again):
        np.testing.assert_array_equal(x, y)


@pytest.mark.gpu_path
def test_ragged_boxes_on_a_gpu_target_keep_the_pixels_on_the_gpu():
    """Structurally, for /gpu:0 without max_boxes: the copy carries only dense tensors, the
    device map is on the GPU, and its only CPU-only op is RaggedTensorToVariant, which encodes
    the rebuilt boxes and labels (no pixel goes through it)."""
    from test_device_stage import CUDA_BUILT, dataset_chain, function_nodes, has_gpu_kernel
    if not CUDA_BUILT:
        pytest.skip("op library built without CUDA kernels")
    graph = tf.Graph()
    with graph.as_default():
        ds = tf.data.Dataset.from_tensors(_batch(0, encoded=True))
        ds = ds.apply(tga.gpu_augment(_gpu_stage_transforms(), device="/gpu:0", seed=1))
        chain = dataset_chain(ds._variant_tensor)
    assert isinstance(ds.element_spec["bounding_boxes"]["boxes"], tf.RaggedTensorSpec)
    device_map, copy = chain[0], chain[1]
    assert device_map.type == "ExperimentalMapDataset" and "GPU:0" in device_map.device.upper()
    assert copy.type == "GeneratorDataset" and tf.variant not in copy.get_attr("output_types")
    library = graph.as_graph_def().library
    device_ops = function_nodes(library, device_map.get_attr("f").name)
    cpu_only = {n.op for n in device_ops if not has_gpu_kernel(n)}
    assert cpu_only == {"RaggedTensorToVariant"}, cpu_only
    assert {"TfGpuAug>CropMirrorNormalize", "TfGpuAug>Augment"} <= {n.op for n in device_ops}
