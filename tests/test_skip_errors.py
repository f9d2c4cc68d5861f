"""on_error="skip": a bad file costs its own sample, not its batch (issue #22).

Each good image is a flat colour that encodes its label, so after the stage every image can
be checked against the label it arrived with: the oracle for "the other components stayed
aligned" is the pixels themselves.
"""
import os

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga

N_GOOD, BATCH = 64, 16


def colour(label: int) -> np.ndarray:
    return np.array([(label * 37) % 256, (label * 91) % 256, (label * 53 + 40) % 256], np.uint8)


def good_jpeg(label: int, size=(48, 64)) -> bytes:
    return fixtures.jpeg_bytes(np.broadcast_to(colour(label), (*size, 3)).copy(), quality=95)


def bad_files() -> dict:
    whole = good_jpeg(1)
    huge = fixtures.with_jpeg_size(whole, 60000, 60000)  # over max_pixels: refused before allocating
    return {"truncated": whole[: len(whole) // 3], "garbage": b"not an image at all", "empty": b"",
            "oversized": huge, "png_cut": fixtures.png_bytes(fixtures.photo(20, 20))[:60]}


def assert_labels_match(images: np.ndarray, labels: np.ndarray, tolerance: float = 3.0):
    """Every image is (close to) the flat colour of its label (JPEG at quality 95: a few levels)."""
    assert len(images) == len(labels)
    for image, label in zip(images, labels):
        mean = image.reshape(-1, 3).mean(axis=0)
        np.testing.assert_allclose(mean, colour(int(label)), atol=tolerance)


EVAL = [tga.ResizeCenterCrop(40, 32)]
TRAIN = [tga.RandomResizedCrop(32), tga.RandomFlip()]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The issue's example: 64 good JPEGs in one class folder plus one truncated file."""
    root = tmp_path_factory.mktemp("folder")
    os.makedirs(root / "a")
    for i in range(N_GOOD):
        (root / "a" / f"{i:03d}.jpg").write_bytes(good_jpeg(0))
    (root / "a" / "033_truncated.jpg").write_bytes(bad_files()["truncated"])
    return str(root)


def collect(ds):
    images, labels = [], []
    for x, y in ds:
        images.append(x.numpy())
        labels.append(y.numpy())
    return np.concatenate(images), np.concatenate(labels)


def test_issue_example_keeps_every_good_image(folder):
    ds = tga.data.image_folder(folder).batch(BATCH)
    before = tga.skipped_images()
    out = ds.apply(tga.gpu_augment(TRAIN, seed=3, on_error="skip"))
    images, labels = collect(out)
    assert images.shape == (N_GOOD, 32, 32, 3)
    assert (labels == 0).all()
    assert tga.skipped_images() - before == 1
    # raise (the default) fails the batch that holds the bad file, naming its index
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"image \d+: .*JPEG"):
        collect(ds.apply(tga.gpu_augment(TRAIN, seed=3)))


def labelled_batch(bad_at: dict):
    """A (contents, labels) batch of 12 where the positions in `bad_at` hold bad files."""
    contents, labels = [], []
    bad = bad_files()
    for i in range(12):
        contents.append(bad[bad_at[i]] if i in bad_at else good_jpeg(i))
        labels.append(i)
    return tf.constant(contents), tf.constant(labels)


@pytest.mark.parametrize("transforms", [
    EVAL,
    TRAIN,
    [tga.RandomResizedCrop(32), tga.CropMirrorNormalize([0, 0, 0], [1, 1, 1])],  # fused, float
    [tga.Resize((30, 30))],  # the batched decode, then resize
    [tga.Letterbox(40)],  # DecodeResizePad
    [tga.ScaleJitter(40, scale=(0.8, 1.2))],
], ids=["eval", "train", "fused_normalize", "resize", "letterbox", "scale_jitter"])
def test_every_kind_of_bad_file_is_dropped_with_its_label(transforms):
    bad_at = {1: "truncated", 4: "garbage", 5: "empty", 8: "oversized", 11: "png_cut"}
    contents, labels = labelled_batch(bad_at)
    ds = tf.data.Dataset.from_tensors((contents, labels))
    images, out_labels = collect(ds.apply(tga.gpu_augment(transforms, seed=1, on_error="skip")))
    assert sorted(out_labels.tolist()) == [i for i in range(12) if i not in bad_at]
    if transforms[0].__class__.__name__ in ("Letterbox", "ScaleJitter"):
        images = images[:, 15:25, 15:25]  # the middle is image, the rest may be padding
    assert_labels_match(images.astype(np.float32), out_labels)


def test_good_samples_equal_the_stage_without_the_bad_ones():
    """Skipping changes nothing for the good samples of an eval pipeline (deterministic)."""
    contents, labels = labelled_batch({2: "truncated", 7: "garbage"})
    keep = [i for i in range(12) if i not in (2, 7)]
    skipped, _ = collect(tf.data.Dataset.from_tensors((contents, labels)).apply(
        tga.gpu_augment(EVAL, seed=1, on_error="skip")))
    clean, _ = collect(tf.data.Dataset.from_tensors((tf.gather(contents, keep), tf.gather(labels, keep))).apply(
        tga.gpu_augment(EVAL, seed=1)))
    np.testing.assert_array_equal(skipped, clean)


def test_batch_of_only_bad_files_is_dropped_and_counted():
    bad = bad_files()
    good = tf.constant([good_jpeg(i) for i in range(4)])
    worst = tf.constant([bad["garbage"], bad["empty"], bad["truncated"], bad["png_cut"]])
    ds = tf.data.Dataset.from_tensor_slices(tf.stack([good, worst, good]))
    ds = ds.map(lambda c: (c, tf.range(4)))
    before = tga.skipped_images()
    images, _ = collect(ds.apply(tga.gpu_augment(EVAL, seed=1, on_error="skip")))
    assert images.shape[0] == 8
    assert tga.skipped_images() - before == 4


def test_dict_elements_keep_their_keys_aligned():
    contents, labels = labelled_batch({3: "truncated"})
    names = tf.constant([f"img_{i}.jpg" for i in range(12)])
    ds = tf.data.Dataset.from_tensors({"images": contents, "labels": labels, "filename": names})
    out = next(iter(ds.apply(tga.gpu_augment(EVAL, seed=1, on_error="skip"))))
    assert out["images"].shape[0] == 11
    assert [n.decode() for n in out["filename"].numpy()] == [f"img_{i}.jpg" for i in range(12) if i != 3]
    assert_labels_match(out["images"].numpy().astype(np.float32), out["labels"].numpy())


def test_each_skip_is_reported_once_with_its_file_name(capfd):
    """The report names batch, index, file and reason. It goes to stderr directly: through
    TensorFlow's logging, TF_CPP_MIN_LOG_LEVEL=2 (this test process's setting) hid every skip.
    `data_warnings()` hands the same reports to Python."""
    assert os.environ.get("TF_CPP_MIN_LOG_LEVEL", "0") >= "2"  # TensorFlow's warnings are off here
    tga.data_warnings()  # drop older reports
    good = tf.io.encode_jpeg(np.zeros((8, 8, 3), np.uint8))
    contents = tf.stack([good, tf.strings.substr(good, 0, 40), good, tf.constant(b"junk"), good])
    names = [b"a.jpg", b"b.jpg", b"c.jpg", b"d.jpg", b"e.jpg"]
    ds = tf.data.Dataset.from_tensors({"images": contents, "filename": names}).repeat(2)
    before = tga.skipped_images()
    kept = [int(e["images"].shape[0]) for e in ds.apply(tga.gpu_augment([tga.ResizeCenterCrop(8, 8)], seed=1,
                                                                          on_error="skip"))]
    assert kept == [3, 3] and tga.skipped_images() - before == 4
    log = [line for line in capfd.readouterr().err.splitlines() if "tfgpuaug skipped" in line]
    assert len(log) == 4, log
    assert sum("batch 0, image 1 (b.jpg): invalid JPEG" in line for line in log) == 1
    assert sum("batch 1, image 3 (d.jpg): unknown image format" in line for line in log) == 1
    assert sorted(tga.data_warnings()) == sorted(log)
    assert tga.data_warnings() == []  # taken


def test_boxes_stay_with_their_images():
    """Detection elements: the skipped image's boxes and labels leave with it."""
    contents, labels = labelled_batch({0: "garbage", 6: "truncated"})
    boxes = tf.ragged.constant([[[0.0, 0.0, 10.0, float(i + 1)]] * (i % 3 + 1) for i in range(12)],
                               ragged_rank=1, inner_shape=(4,))
    box_labels = tf.ragged.constant([[i] * (i % 3 + 1) for i in range(12)])
    ds = tf.data.Dataset.from_tensors({"images": contents, "labels": labels,
                                       "bounding_boxes": {"boxes": boxes, "labels": box_labels}})
    out = next(iter(ds.apply(tga.gpu_augment([tga.Resize((48, 64))], seed=1, on_error="skip"))))
    kept = [i for i in range(12) if i not in (0, 6)]
    assert out["labels"].numpy().tolist() == kept
    assert out["bounding_boxes"]["labels"].to_list() == [[i] * (i % 3 + 1) for i in kept]
    np.testing.assert_allclose([row[0][3] for row in out["bounding_boxes"]["boxes"].to_list()],
                               [i + 1 for i in kept])


def test_split_stage_skips_on_the_host():
    """host_stage + device_stage (the tf.data service split) drop the same samples."""
    contents, labels = labelled_batch({5: "truncated", 9: "garbage"})
    ds = tf.data.Dataset.from_tensors((contents, labels))
    split = ds.apply(tga.host_stage(EVAL, seed=1, on_error="skip")).apply(tga.device_stage(EVAL))
    whole = ds.apply(tga.gpu_augment(EVAL, seed=1, on_error="skip"))
    (a, la), (b, lb) = collect(split), collect(whole)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(la, lb)


def test_decoding_op_reports_per_image_reasons():
    """The op level: zeros and a reason for the bad image, the good ones as when raising."""
    contents, _ = labelled_batch({2: "garbage"})
    ops = tga._loader.ops()
    boxes = tf.constant([[0.0, 0.0, 48.0, 64.0]] * 12)
    flags = tf.zeros([0], tf.bool)
    images, errors = ops.tf_gpu_aug_decode_crop_resize(contents, boxes, [8, 8], flags, on_error="skip")
    errors = errors.numpy()
    assert errors[2].decode().startswith("unknown image format")
    assert all(e == b"" for i, e in enumerate(errors) if i != 2)
    assert not images[2].numpy().any()
    good = tf.constant([c for i, c in enumerate(contents.numpy()) if i != 2])
    clean, clean_errors = ops.tf_gpu_aug_decode_crop_resize(good, boxes[:11], [8, 8], flags)
    np.testing.assert_array_equal(np.delete(images.numpy(), 2, axis=0), clean.numpy())
    with pytest.raises(tf.errors.InvalidArgumentError, match="image 2: unknown image format"):
        ops.tf_gpu_aug_decode_crop_resize(contents, boxes, [8, 8], flags)


def test_header_reader_skips_per_image():
    contents, _ = labelled_batch({4: "truncated", 5: "empty"})
    shape, errors = tga._loader.ops().tf_gpu_aug_image_shape(contents, on_error="skip")
    shape, errors = shape.numpy(), errors.numpy()
    assert shape[5].tolist() == [0, 0, 0] and errors[5] != b""
    assert shape[0].tolist() == [48, 64, 3]


def test_on_error_is_checked_at_construction():
    with pytest.raises(ValueError, match="on_error"):
        tga.gpu_augment(EVAL, on_error="ignore")
