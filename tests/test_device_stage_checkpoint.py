"""Issue 35: the GPU-target stage's iterators checkpoint exactly. Without a GPU, the split
mechanism itself (host iterator created by the stage, device part reading it through a
GeneratorDataset, no buffer on the device side) runs with its device part forced onto the CPU
(`_split_device="/cpu:0"`): a checkpoint taken mid-epoch 2 resumes bit for bit across the next
epoch boundary, also in a fresh process, also with `.repeat()` after the stage, also with
`on_error="skip"` dropping images; the stream equals the one-map CPU path's; and `model.fit`
consumes it.

Planted and caught (each fails the mid-epoch test): the device part with TensorFlow's injected
prefetch and autotuning left on; the iterator saving the device iterator's own state instead of
the host iterator's."""
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import samples

pytestmark = pytest.mark.gpu_path  # the split pipeline: not pinned to the CPU by conftest.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BATCHES_PER_EPOCH = 3  # 12 images, batch 4


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("split_checkpoint"))
    samples.make_sample_images(root, per_class=4, seed=11)
    return root


def make_dataset(folder: str, seed: int, split: bool = True, on_error: str = "raise", extra=None):
    ds = tga.data.image_folder(folder, shuffle=False)
    if extra is not None:
        ds = ds.concatenate(tf.data.Dataset.from_tensor_slices((extra, tf.constant([7], tf.int64))))
    ds = ds.batch(4)
    return ds.apply(tga.gpu_augment(
        [tga.RandomResizedCrop(16), tga.RandAugment(), tga.CropMirrorNormalize(mirror=0.5)],
        seed=seed, on_error=on_error, _split_device="/cpu:0" if split else None))


def batches(it, n):
    return [tuple(t.numpy() for t in next(it)) for _ in range(n)]


def assert_same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)


def test_split_stage_is_a_device_stage_dataset_and_equals_the_cpu_path(folder):
    split, plain = make_dataset(folder, 3), make_dataset(folder, 3, split=False)
    assert isinstance(split, tga.pipeline.DeviceStageDataset)
    assert_same(batches(iter(split), BATCHES_PER_EPOCH), batches(iter(plain), BATCHES_PER_EPOCH))


def test_checkpoint_mid_epoch_two_resumes_across_the_boundary(folder, tmp_path):
    ds = make_dataset(folder, 7)
    assert isinstance(ds.repeat(3), tga.pipeline.DeviceStageDataset)
    it = iter(ds.repeat(3))
    first_epoch = batches(it, BATCHES_PER_EPOCH)
    next(it)  # one batch into epoch 2
    path = tf.train.Checkpoint(iterator=it).save(str(tmp_path / "it"))
    expected = batches(it, 2 * BATCHES_PER_EPOCH - 1)  # the rest of epoch 2 and all of epoch 3
    resumed = iter(ds.repeat(3))
    tf.train.Checkpoint(iterator=resumed).restore(path)
    assert_same(batches(resumed, 2 * BATCHES_PER_EPOCH - 1), expected)
    with pytest.raises(StopIteration):
        next(resumed)
    # epoch 3 is not a replay of epoch 1
    assert all((a[0] != b[0]).any() for a, b in zip(first_epoch, expected[BATCHES_PER_EPOCH - 1:]))
    # and the stream is the CPU path's, where that one checkpoints the same way
    cpu = iter(make_dataset(folder, 7, split=False).repeat(3))
    cpu_batches = batches(cpu, 3 * BATCHES_PER_EPOCH)
    assert_same(first_epoch, cpu_batches[:BATCHES_PER_EPOCH])
    assert_same(expected, cpu_batches[BATCHES_PER_EPOCH + 1:])


def test_checkpoint_with_skipped_images(folder, tmp_path):
    """on_error="skip" in the host part: the bad file and its label leave their batch, and the
    resumed stream has the same (smaller) batch."""
    ds = make_dataset(folder, 5, on_error="skip", extra=tf.constant([b"not an image"])).repeat(2)
    it = iter(ds)
    seen = batches(it, BATCHES_PER_EPOCH + 1)
    assert 7 not in np.concatenate([b[1] for b in seen])
    path = tf.train.Checkpoint(iterator=it).save(str(tmp_path / "it"))
    rest = [tuple(t.numpy() for t in b) for b in it]
    resumed = iter(ds)
    tf.train.Checkpoint(iterator=resumed).restore(path)
    assert_same([tuple(t.numpy() for t in b) for b in resumed], rest)
    sizes = [len(b[1]) for b in seen + rest]
    assert sizes == [4] * (2 * BATCHES_PER_EPOCH) and 7 not in np.concatenate([b[1] for b in rest])


def test_checkpoint_resumes_in_a_fresh_process(folder, tmp_path):
    from test_epochs import _RESUME  # the same save / load script, over this file's make_dataset
    code = _RESUME.format(module="test_device_stage_checkpoint", tests=os.path.join(ROOT, "tests"), folder=folder,
                          prefix=str(tmp_path / "ckpt" / "it"), folder_ckpt=str(tmp_path / "ckpt"))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    run = lambda mode: subprocess.run([sys.executable, "-c", code, mode], cwd=ROOT, env=env,  # noqa: E731
                                      check=True, capture_output=True, text=True).stdout.split()
    saved, resumed = run("save"), run("load")
    assert len(saved) == 2 * BATCHES_PER_EPOCH and saved == resumed
    assert len(set(saved)) == len(saved)


def test_transformations_after_the_stage_refuse_checkpoints_saying_what_to_do(folder, tmp_path):
    it = iter(make_dataset(folder, 1).take(2))
    next(it)
    with pytest.raises(tf.errors.UnimplementedError):
        tf.train.Checkpoint(iterator=it).save(str(tmp_path / "it"))
    wrapped = iter(tga.pipeline.DeviceStageDataset(tf.data.Dataset.range(3)))
    assert int(next(wrapped)) == 0
    with pytest.raises(tf.errors.UnimplementedError, match=r"cannot be checkpointed.*skip"):
        tf.train.Checkpoint(iterator=wrapped).save(str(tmp_path / "wrapped"))


def test_model_fit_consumes_the_split_stage(folder):
    ds = make_dataset(folder, 2)
    model = tf.keras.Sequential([tf.keras.layers.Input((16, 16, 3)), tf.keras.layers.GlobalAveragePooling2D(),
                                 tf.keras.layers.Dense(3)])
    model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and np.isfinite(history.history["loss"]).all()


def test_keras_backup_and_restore_resumes_training_on_the_split_stage(folder, tmp_path):
    """Keras 3's BackupAndRestore (which saves the model and the epoch, not the data iterator)
    works unchanged: a run interrupted after epoch 2 of 4 resumes at epoch 3 and finishes, with
    a fresh stage iterator per epoch as model.fit makes them."""
    class Interrupt(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise RuntimeError("interrupted")

    def model():
        m = tf.keras.Sequential([tf.keras.layers.Input((16, 16, 3)), tf.keras.layers.GlobalAveragePooling2D(),
                                 tf.keras.layers.Dense(3)])
        m.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        return m

    backup = str(tmp_path / "backup")
    ds = make_dataset(folder, 4)
    with pytest.raises(RuntimeError, match="interrupted"):
        model().fit(ds, epochs=4, verbose=0,
                    callbacks=[tf.keras.callbacks.BackupAndRestore(backup), Interrupt()])
    epochs = []
    record = tf.keras.callbacks.LambdaCallback(on_epoch_begin=lambda epoch, logs: epochs.append(epoch))
    history = model().fit(ds, epochs=4, verbose=0, callbacks=[tf.keras.callbacks.BackupAndRestore(backup), record])
    assert epochs == [2, 3] and len(history.history["loss"]) == 2
