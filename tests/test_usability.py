"""What a Keras user met in a first afternoon (issue #34): inputs the transforms would get
silently wrong are refused when the stage is built, errors say what to do, and the validation
recipe (`gpu_augment(..., training=False)`) exists. Each test failed before its fix."""
import os

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
import fixtures


def _jpegs(n=4, h=48, w=64):
    return [fixtures.jpeg_bytes(fixtures.photo(h, w, seed=s)) for s in range(n)]


def test_float_images_are_refused_with_the_cast_to_use():
    """Floats in [0, 1] through [RandomResizedCrop, CropMirrorNormalize] came out between -2.12
    and -1.79 with no word (read as 0..255)."""
    images = tf.random.uniform([8, 32, 32, 3])  # [0, 1], as convert_image_dtype gives
    ds = tf.data.Dataset.from_tensor_slices(images).batch(4)
    with pytest.raises(TypeError, match=r"RandomResizedCrop takes uint8 images.*float32.*convert_image_dtype"):
        ds.apply(tga.gpu_augment([tga.RandomResizedCrop(16), tga.CropMirrorNormalize()], device="/cpu:0"))


def test_float_images_pass_transforms_that_do_not_depend_on_the_range():
    images = tf.random.uniform([4, 8, 8, 3])
    ds = tf.data.Dataset.from_tensor_slices(images).batch(4)
    out = next(iter(ds.apply(tga.gpu_augment([tga.RandomFlip(horizontal=1.0)], device="/cpu:0", seed=0))))
    np.testing.assert_array_equal(out.numpy(), images.numpy()[:, :, ::-1])


@pytest.mark.parametrize("first", [tga.RandomFlip(), tga.CropMirrorNormalize(), tga.RandAugment()])
def test_a_transform_needing_pixels_before_the_decoder_is_named_with_the_fix(first):
    """It failed deep in the graph with "images must have rank 4, got rank 1"."""
    ds = tf.data.Dataset.from_tensor_slices(_jpegs()).batch(2)
    name = type(first).__name__
    with pytest.raises(ValueError, match=rf"{name} needs decoded images.*put a decoding transform"):
        ds.apply(tga.gpu_augment([first, tga.RandomResizedCrop(16)], device="/cpu:0"))


def test_float_input_to_an_augmentation_says_how_to_cast():
    with pytest.raises(TypeError, match=r"uint8 images \(0\.\.255\), got float32: cast first.*keras.Input"):
        tga.RandAugment(seed=0)(tf.zeros([2, 8, 8, 3]))


def test_training_false_runs_the_inference_behaviour_for_validation():
    """The validation recipe: the training list with training=False gives the evaluation crop
    (shorter side to round(224 * 256 / 224), centre 224 here: 16 -> 18, centre 16), no
    augmentation, the same output for any seed."""
    blobs = _jpegs()
    ds = tf.data.Dataset.from_tensor_slices(blobs).batch(4)
    transforms = [tga.RandomResizedCrop(16), tga.RandAugment(num_ops=2, magnitude=9), tga.RandomFlip()]
    runs = [next(iter(ds.apply(tga.gpu_augment(transforms, device="/cpu:0", seed=s, training=False)))).numpy()
            for s in (1, 2)]
    np.testing.assert_array_equal(runs[0], runs[1])
    want = tga.resize_center_crop(tf.constant(blobs), round(16 * 256 / 224), 16).numpy()
    np.testing.assert_array_equal(runs[0], want)


def test_an_image_over_max_pixels_says_how_to_allow_it():
    with pytest.raises(tf.errors.InvalidArgumentError, match="exceeds max_pixels.*pass a larger max_pixels"):
        tga.decode_image(tf.constant(_jpegs(1)[0]), max_pixels=100)


def test_padding_is_the_same_colour_whether_or_not_normalisation_is_fused():
    """`[ScaleJitter, CropMirrorNormalize]` padded with 0.0 after normalisation (the mean colour)
    while `[ScaleJitter, RandAugment, CropMirrorNormalize]` padded with black: pad_value is now
    in input pixel units in both."""
    blobs = tf.constant(_jpegs(2, 40, 40))
    jitter = tga.ScaleJitter(64, scale=(0.5, 0.5), pad_value=0.0)   # the image fills 32 x 32: padding around it
    fused = tga.Compose([jitter, tga.CropMirrorNormalize()])(blobs, seed=0).numpy()
    apart = tga.Compose([jitter, tga.RandAugment(num_ops=0), tga.CropMirrorNormalize()])(blobs, seed=0).numpy()
    black = (0.0 - np.array(tga.IMAGENET_MEAN)) / np.array(tga.IMAGENET_STD)
    np.testing.assert_allclose(fused[:, 48:, 48:], np.broadcast_to(black, fused[:, 48:, 48:].shape), atol=1e-5)
    np.testing.assert_allclose(apart[:, 48:, 48:], fused[:, 48:, 48:], atol=1e-5)
    grey = tga.ScaleJitter(64, scale=(0.5, 0.5), pad_value=128.0)(blobs, seed=0).numpy()
    assert grey.dtype == np.uint8 and (grey[:, 48:, 48:] == 128).all()


def test_mosaic_never_takes_a_sample_as_its_own_partner():
    """Three independent permutations often filled two quadrants with the same image in small
    batches. Each quadrant is filled from a distinct image, and each image is used once per
    quadrant, for every seed tried."""
    n = 5
    images = tf.constant(np.arange(n, dtype=np.uint8)[:, None, None, None] * np.ones((1, 8, 8, 3), np.uint8) * 40)
    mosaic = tga.Mosaic(16, center=(0.5, 0.5))
    for seed in range(20):
        out = mosaic(images, seed=seed).numpy()
        corners = out[:, [0, 0, 15, 15], [0, 15, 0, 15], 0] // 40  # the image in each quadrant
        assert all(len(set(row)) == 4 for row in corners), (seed, corners)
        assert all(sorted(col) == list(range(n)) for col in corners.T), (seed, corners)


def test_draw_boxes_maps_normalised_output_back_or_says_what_it_needs():
    """It returned uint8 garbage for the pipeline's normalised float output."""
    from tfgpuaug import preview
    pixels = np.full((1, 20, 20, 3), 100, np.uint8)
    normalised = (pixels - np.array(tga.IMAGENET_MEAN)) / np.array(tga.IMAGENET_STD)
    boxes = np.array([[[2, 2, 10, 10]]], np.float32)
    with pytest.raises(ValueError, match="pass the mean and std"):
        preview.draw_boxes(normalised.astype(np.float32), boxes)
    drawn = preview.draw_boxes(normalised.astype(np.float32), boxes, mean=tga.IMAGENET_MEAN, std=tga.IMAGENET_STD)
    np.testing.assert_array_equal(drawn, preview.draw_boxes(pixels, boxes))
    assert drawn[0, 15, 15].tolist() == [100, 100, 100] and drawn[0, 2, 5].tolist() == [255, 0, 0]


def test_a_corrupt_file_says_what_to_do_and_skip_warnings_name_it(tmp_path):
    """"image 0: unknown image format ... (19 bytes)" said neither which file nor what to do;
    image_folder yielded tuples, so skip warnings could not name files either."""
    folder = tmp_path / "cats"
    folder.mkdir()
    for i, blob in enumerate(_jpegs(3)):
        (folder / f"good{i}.jpg").write_bytes(blob)
    (folder / "broken.jpg").write_bytes(b"this is not an image")
    transforms = [tga.RandomResizedCrop(16)]
    ds = tga.data.image_folder(str(tmp_path)).batch(4)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'on_error="skip".*with_paths=True.*tfgpuaug.scan'):
        next(iter(ds.apply(tga.gpu_augment(transforms, device="/cpu:0", seed=0))))
    ds = tga.data.image_folder(str(tmp_path), with_paths=True).batch(4)
    out = next(iter(ds.apply(tga.gpu_augment(transforms, device="/cpu:0", seed=0, on_error="skip"))))
    assert out["images"].shape[0] == 3 and "broken.jpg" not in [p.decode() for p in out["path"].numpy()]
    assert sorted(out) == ["images", "labels", "path"]


def test_a_gpu_device_without_a_gpu_is_refused_when_built():
    """It failed at the first batch with TensorFlow's "Could not find device for node
    ExperimentalMapDataset"."""
    if tf.config.list_physical_devices("GPU"):
        pytest.skip("this machine has a GPU")
    ds = tf.data.Dataset.from_tensor_slices(np.zeros([4, 8, 8, 3], np.uint8)).batch(2)
    with pytest.raises(ValueError, match=r"names a GPU, and TensorFlow sees none.*device=None"):
        ds.apply(tga.gpu_augment([tga.RandomFlip()], device="/gpu:0"))


def test_relative_box_format_on_pixel_boxes_is_refused():
    """bounding_box_format="rel_xyxy" on pixel boxes dropped every box (all -1) without a word."""
    element = {"images": tf.zeros([2, 32, 32, 3], tf.uint8),
               "bounding_boxes": {"boxes": tf.constant([[[2., 3., 20., 30.]], [[1., 1., 8., 9.]]]),
                                  "labels": tf.constant([[1], [2]])}}
    ds = tf.data.Dataset.from_tensors(element)
    stage = tga.gpu_augment([tga.RandomFlip()], device="/cpu:0", seed=0, bounding_box_format="rel_xyxy")
    refusal = r"rel_xyxy means coordinates in \[0, 1\].*boxes in pixels need format xyxy"
    with pytest.raises(tf.errors.InvalidArgumentError, match=refusal):
        next(iter(ds.apply(stage)))
    fine = tga.gpu_augment([tga.RandomFlip()], device="/cpu:0", seed=0, bounding_box_format="xyxy")
    assert next(iter(ds.apply(fine)))["bounding_boxes"]["boxes"].shape[0] == 2


def test_keras_layers_take_keras_3s_dict_layout_and_spellings():
    """tfgpuaug's layers refused Keras 3's {"images", "bounding_boxes"} input, which Keras's own
    layers accept, and Keras's `mode=` for RandomFlip."""
    images = np.zeros([2, 10, 20, 3], np.uint8)
    images[:, :, :5] = 200  # a bright left edge
    boxes = np.array([[[0, 0, 5, 10], [-1, -1, -1, -1]], [[2, 2, 6, 6], [10, 0, 20, 10]]], np.float32)
    labels = np.array([[1, -1], [2, 3]], np.int32)
    layer = tga.keras.RandomFlip(mode="horizontal", bounding_box_format="xyxy", seed=0)
    assert layer.transform.horizontal == 0.5 and layer.transform.vertical == 0.0
    flip_all = tga.keras.RandomFlip(horizontal=1.0, bounding_box_format="xyxy")
    out = flip_all({"images": images, "bounding_boxes": {"boxes": boxes, "labels": labels}}, training=True)
    assert out["images"].shape == (2, 10, 20, 3) and (out["images"].numpy()[:, :, 15:] == 200).all()
    np.testing.assert_allclose(out["bounding_boxes"]["boxes"].numpy(),
                               [[[15, 0, 20, 10], [-1, -1, -1, -1]], [[14, 2, 18, 6], [0, 0, 10, 10]]])
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"].numpy(), labels)
    assert flip_all.get_config()["bounding_box_format"] == "xyxy"


def test_preview_spreads_over_classes_and_passes_over_a_bad_file(tmp_path, capsys):
    """It took the first N files (one class) and died with a traceback on a bad file."""
    from tfgpuaug import preview
    for cls in ("a_cats", "b_dogs"):
        (tmp_path / cls).mkdir()
        for i, blob in enumerate(_jpegs(3)):
            (tmp_path / cls / f"{i}.jpg").write_bytes(blob)
    (tmp_path / "a_cats" / "0.jpg").write_bytes(b"not an image")  # sorts first
    files = preview.list_images(str(tmp_path), 2)
    assert {os.path.basename(os.path.dirname(f)) for f in files[:2]} == {"a_cats", "b_dogs"}
    kept, blobs = preview.readable_images([str(tmp_path / "a_cats" / "0.jpg")] + files, 2)
    assert len(kept) == 2 and str(tmp_path / "a_cats" / "0.jpg") not in kept
    assert "skipping" in capsys.readouterr().out


def test_raise_names_the_bad_file_when_elements_carry_paths():
    """With on_error="raise" the error said "image 1: ..." though the element named its files."""
    blobs = _jpegs(2)
    ds = tf.data.Dataset.from_tensor_slices({"images": [blobs[0], b"not an image", blobs[1]],
                                             "labels": [0, 1, 2], "path": ["a.jpg", "b.jpg", "c.jpg"]}).batch(3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r'batch 0, image 1 \(b.jpg\): unknown image format.*on_error="skip"'):
        next(iter(ds.apply(tga.gpu_augment([tga.RandomResizedCrop(16)], device="/cpu:0", seed=0))))
    # A clean batch runs as before, every sample kept, in order.
    clean = tf.data.Dataset.from_tensor_slices({"images": blobs, "path": ["a.jpg", "c.jpg"]}).batch(2)
    out = next(iter(clean.apply(tga.gpu_augment([tga.Resize(16)], device="/cpu:0", seed=0))))
    assert [p.decode() for p in out["path"].numpy()] == ["a.jpg", "c.jpg"] and out["images"].shape[0] == 2


def _detection(boxes, labels, size=32):
    return tf.data.Dataset.from_tensors({
        "images": tf.zeros([len(boxes), size, size, 3], tf.uint8),
        "bounding_boxes": {"boxes": tf.ragged.constant(boxes, ragged_rank=1, dtype=tf.float32),
                           "labels": tf.ragged.constant(labels)}})


def test_max_boxes_truncation_is_reported_not_silent():
    """max_boxes=2 kept the first two of three boxes without a word. (What reaches stderr, and
    how often, is checked in a fresh process below: the rate limit counts per process.)"""
    tga.data_warnings()
    ds = _detection([[[1, 1, 5, 5], [2, 2, 6, 6], [3, 3, 8, 8]], [[1, 1, 4, 4]]], [[1, 2, 3], [4]])
    out = next(iter(ds.apply(tga.gpu_augment([tga.Resize(16)], device="/cpu:0", seed=0, max_boxes=2))))
    assert out["bounding_boxes"]["boxes"].shape == (2, 2, 4)
    warning = "max_boxes=2 dropped boxes: an image of the batch has 3 boxes"
    assert [w for w in tga.data_warnings() if warning in w]
    next(iter(ds.apply(tga.gpu_augment([tga.Resize(16)], device="/cpu:0", seed=0, max_boxes=3))))
    assert tga.data_warnings() == []


def test_a_batch_whose_boxes_all_drop_is_reported():
    """Boxes of the wrong format or too strict a filter lost every box without a word."""
    tga.data_warnings()
    ds = _detection([[[1, 1, 3, 3]], [[4, 4, 6, 6]]], [[1], [2]])
    stage = tga.gpu_augment([tga.Resize(16)], device="/cpu:0", seed=0, min_box_area=100.0)
    out = next(iter(ds.apply(stage)))
    assert out["bounding_boxes"]["boxes"].flat_values.shape[0] == 0
    assert [w for w in tga.data_warnings() if "every box of a batch (2) was dropped" in w]
    next(iter(ds.apply(tga.gpu_augment([tga.Resize(16)], device="/cpu:0", seed=0))))
    assert tga.data_warnings() == []


WARNINGS_SCRIPT = """
import tensorflow as tf, tfgpuaug as tga
element = {"images": tf.zeros([1, 8, 8, 3], tf.uint8),
           "bounding_boxes": {"boxes": tf.ragged.constant([[[1., 1., 2., 2.], [1., 1., 3., 3.]]], ragged_rank=1),
                              "labels": tf.ragged.constant([[1, 2]])}}
ds = tf.data.Dataset.from_tensors(element).repeat(12)
for _ in ds.apply(tga.gpu_augment([tga.Resize(8)], device="/cpu:0", seed=0, max_boxes=1)):
    pass
print("kept", len(tga.data_warnings()))
"""


def test_data_warnings_reach_stderr_rate_limited_whatever_tf_logging_says():
    """In a fresh process with TensorFlow's C++ logging at level 2: the 12 truncations print
    the 1st, 2nd, 3rd and 10th (with its count); Python gets all 12."""
    import subprocess
    import sys
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    run = subprocess.run([sys.executable, "-c", WARNINGS_SCRIPT], capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    printed = [line for line in run.stderr.splitlines() if "max_boxes=1 dropped boxes" in line]
    assert len(printed) == 4, printed
    assert "[seen 10 times]" in printed[-1] and "[seen" not in printed[0]
    assert "kept 12" in run.stdout


def test_data_warnings_reach_python_logging_from_model_fit(caplog):
    import keras
    tga.data_warnings()
    ds = _detection([[[1, 1, 5, 5], [2, 2, 6, 6]], [[1, 1, 4, 4]]], [[1, 2], [4]])
    ds = ds.apply(tga.gpu_augment([tga.Resize(8)], device="/cpu:0", seed=0, max_boxes=1))
    ds = ds.map(lambda e: (tf.cast(e["images"], tf.float32), e["bounding_boxes"]["labels"][:, 0]))
    model = keras.Sequential([keras.Input((8, 8, 3)), keras.layers.Flatten(), keras.layers.Dense(5)])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    with caplog.at_level("WARNING", logger="tfgpuaug"):
        model.fit(ds, epochs=1, verbose=0, callbacks=[tga.keras.DataWarningsLogger()])
    assert any("max_boxes=1 dropped boxes" in r.getMessage() and r.name == "tfgpuaug" for r in caplog.records)


def test_keras_spellings_that_mean_the_same_are_accepted():
    layer = tga.keras.Resize(height=8, width=12, interpolation="nearest")
    assert layer.transform.size == (8, 12) and layer.transform.method == "nearest"
    assert tga.keras.RandomResizedCrop(height=8, width=8).transform.size == (8, 8)
    with pytest.raises(TypeError, match="give height and width together"):
        tga.keras.Resize(height=8)
    with pytest.raises(TypeError, match=r"not Keras's factor.*factor=0.3 is closest to magnitude=9"):
        tga.keras.RandAugment(factor=0.3)
    with pytest.raises(TypeError, match="RandomFlip has no factor"):
        tga.keras.RandomFlip(factor=0.3)


def test_value_range_maps_float_images_in_and_back_out():
    """Keras hands layers float images unless the input is declared uint8; Keras's layers take
    `value_range`. Checked against the same layer on the uint8 pixels."""
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, [2, 16, 16, 3]).astype(np.uint8)
    unit = pixels.astype(np.float32) / 255.0
    plain = tga.keras.RandAugment(num_ops=2, magnitude=9, seed=3)
    ranged = tga.keras.RandAugment(num_ops=2, magnitude=9, seed=3, value_range=(0, 1))
    expected = plain(pixels, training=True).numpy()
    got = ranged(unit, training=True).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got * 255.0, expected, atol=1e-3)  # the same pixels, in [0, 1]
    with pytest.raises(TypeError, match="takes uint8 images|augmentations take uint8"):
        plain(unit, training=True)
    normalize = tga.keras.CropMirrorNormalize(value_range=(0, 1))  # float output stays as it is
    np.testing.assert_allclose(normalize(unit).numpy(), tga.keras.CropMirrorNormalize()(pixels).numpy(), atol=1e-5)
    config = ranged.get_config()
    assert config["value_range"] == (0, 1)
    assert tga.keras.RandAugment.from_config(config).value_range == (0, 1)
    with pytest.raises(ValueError, match=r"uint8 images are 0..255, and value_range=\(0, 1\)"):
        ranged(pixels, training=True)
    # In a Sequential model fed floats 0..255 (no dtype="uint8" declared).
    import keras
    model = keras.Sequential([keras.Input((16, 16, 3)), tga.keras.Resize(8, value_range=(0, 255))])
    out = model(pixels.astype(np.float32)).numpy()
    np.testing.assert_allclose(out, tga.keras.Resize(8)(pixels).numpy().astype(np.float32))
