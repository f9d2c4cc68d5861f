"""gpu_augment and the readers with real datasets and files: the device-placed graph forced
onto /cpu:0 equals the plain CPU path; other components pass through; seeds and iterator
checkpoints reproduce the stream; a real Keras fit consumes it."""
import os

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import samples


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("images"))
    samples.make_sample_images(root, per_class=6, seed=1)
    return root


def train_transforms():
    return [tga.RandomResizedCrop(32), tga.RandAugment(), tga.CropMirrorNormalize(mirror=0.5)]


def batches(folder, device=None, seed=3, batch=5):
    ds = tga.data.image_folder(folder, shuffle=True, seed=0).batch(batch)
    return ds.apply(tga.gpu_augment(train_transforms(), device=device, seed=seed))


def test_image_folder_labels_and_classes(folder):
    ds = tga.data.image_folder(folder)
    assert ds.class_names == ["checkers", "circles", "stripes"]
    assert ds.class_indices["stripes"] == 2
    labels = [int(y) for _, y in ds]
    assert labels == sorted(labels) and len(labels) == 18
    blob, _ = next(iter(ds))
    assert tga.image_shape(blob).numpy()[2] == 3


def test_image_folder_shards_partition_the_files(folder):
    seen = []
    for i in range(3):
        seen += [x.numpy() for x, _ in tga.data.image_folder(folder, shard=(3, i))]
    assert len(seen) == 18 and len(set(seen)) == 18


def test_flat_folder_with_label_fn_and_missing_file(folder, tmp_path):
    flat = tmp_path / "flat"
    flat.mkdir()
    for i, name in enumerate(sorted(os.listdir(os.path.join(folder, "circles")))[:3]):
        (flat / f"{i}_{name}").write_bytes(open(os.path.join(folder, "circles", name), "rb").read())
    ds = tga.data.image_folder(str(flat), label_fn=lambda f: int(f.split("_")[0]))
    assert [int(y) for _, y in ds] == [0, 1, 2]
    missing = tga.data.file_list([str(flat / "nope.jpg")], [0])
    with pytest.raises(tf.errors.NotFoundError, match="nope.jpg"):
        next(iter(missing))
    with pytest.raises(ValueError, match="label_fn"):
        tga.data.image_folder(str(flat))


def test_last_partial_batch_is_kept(folder):
    shapes = [x.shape for x, _ in batches(folder)]
    assert len(shapes) == 4 and shapes[-1] == (3, 32, 32, 3)


def test_seeds_reproduce_and_batches_differ(folder):
    a = [x.numpy() for x, _ in batches(folder, seed=7)]
    b = [x.numpy() for x, _ in batches(folder, seed=7)]
    c = [x.numpy() for x, _ in batches(folder, seed=8)]
    assert all((p == q).all() for p, q in zip(a, b))
    assert any((p != q).any() for p, q in zip(a, c))


def test_dict_elements_and_decoded_input(folder):
    ds = tga.data.image_folder(folder).batch(4).map(lambda x, y: {"image": x, "label": y, "id": y * 10})
    ds = ds.apply(tga.gpu_augment([tga.ResizeCenterCrop(40, 32), tga.CropMirrorNormalize()], seed=1))
    el = next(iter(ds))
    assert el["image"].shape == (4, 32, 32, 3)
    np.testing.assert_array_equal(el["id"].numpy(), el["label"].numpy() * 10)
    decoded = tga.data.image_folder(folder).batch(4).map(
        lambda x, y: (tga.resize(tga.decode_image(x), 48), y))
    out = next(iter(decoded.apply(tga.gpu_augment([tga.RandomResizedCrop(24)], seed=2))))
    assert out[0].shape == (4, 24, 24, 3) and out[0].dtype == tf.uint8


def test_checkpointed_iterator_resumes_the_stream(folder, tmp_path):
    ds = batches(folder).repeat()
    it = iter(ds)
    next(it)
    ckpt = tf.train.Checkpoint(iterator=it)
    path = ckpt.save(str(tmp_path / "it"))
    expected = [next(it)[0].numpy() for _ in range(3)]
    it2 = iter(ds)
    tf.train.Checkpoint(iterator=it2).restore(path)
    for e in expected:
        np.testing.assert_array_equal(next(it2)[0].numpy(), e)


def test_keras_fit_consumes_the_pipeline(folder):
    ds = batches(folder).map(lambda x, y: (x, y))
    model = tf.keras.Sequential([
        tf.keras.Input((32, 32, 3)),
        tf.keras.layers.Conv2D(4, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(3),
    ])
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and np.isfinite(history.history["loss"]).all()


def test_ignore_errors_skips_unreadable_images(folder, tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    good = os.path.join(folder, "circles", sorted(os.listdir(os.path.join(folder, "circles")))[0])
    ds = tga.data.file_list([good, str(bad), good], [0, 1, 0])
    ds = ds.map(lambda x, y: (tga.decode_image(x), y)).apply(tf.data.experimental.ignore_errors())
    assert [int(y) for _, y in ds] == [0, 0]
