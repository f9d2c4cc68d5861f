"""A real tf.data service on 127.0.0.1: a dispatcher and two workers started with
`python -m tfgpuaug.service`, serving a tfgpuaug pipeline to this process; in
distributed_epoch mode every element arrives exactly once."""
import os
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import samples

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args):
    proc = subprocess.Popen([sys.executable, "-m", "tfgpuaug.service", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()  # printed once the server is up
    assert line, f"service {args} exited early"
    proc.first_line = line
    return proc


@pytest.fixture(scope="module")
def service():
    port = free_port()
    procs = [start(["dispatcher", f"--port={port}"])]
    for _ in range(2):
        wport = free_port()
        procs.append(start(["worker", f"--dispatcher=127.0.0.1:{port}", f"--port={wport}",
                            f"--worker_address=127.0.0.1:{wport}"]))
        # the address clients use, as given (it printed localhost for 127.0.0.1), and a word on binding
        line = procs[-1].first_line
        assert line.startswith(f"worker 127.0.0.1:{wport} ") and "every interface" in line, line
    time.sleep(1.0)  # let both workers register with the dispatcher
    yield f"grpc://127.0.0.1:{port}"
    for p in procs:
        p.kill()
        p.wait(timeout=30)


def test_distributed_epoch_delivers_every_element_once(service, tmp_path):
    samples.make_sample_images(str(tmp_path), per_class=8, seed=2)
    ds = tga.data.image_folder(str(tmp_path))
    files = [os.path.join(str(tmp_path), c, f) for c in ds.class_names
             for f in sorted(os.listdir(os.path.join(str(tmp_path), c)))]
    ids = list(range(len(files)))
    pipeline = tga.data.file_list(files, ids).batch(4).apply(tga.gpu_augment(
        [tga.RandomResizedCrop(24), tga.RandAugment(), tga.CropMirrorNormalize(mirror=0.5)], seed=1))
    distributed = pipeline.apply(tf.data.experimental.service.distribute(
        processing_mode="distributed_epoch", service=service, job_name="tfgpuaug_test"))
    seen = []
    for images, labels in distributed:
        assert images.shape[1:] == (24, 24, 3) and images.dtype == tf.float32
        seen += labels.numpy().tolist()
    assert sorted(seen) == ids  # exactly once


def test_host_stage_on_two_workers_device_stage_here_equals_one_host(service, tmp_path):
    """The host half (decode + crop) on the service's workers, the device half here: each batch
    equals the single-host pipeline's. parallel_epochs makes each worker serve a whole epoch, so
    every batch arrives twice; with one worker it would arrive once (the control)."""
    samples.make_sample_images(str(tmp_path), per_class=3, seed=6)
    transforms = lambda: [tga.RandomResizedCrop(20), tga.RandAugment(), tga.CropMirrorNormalize(mirror=0.5)]
    source = lambda: tga.data.image_folder(str(tmp_path)).batch(3)
    expected = {tuple(y.numpy()): x.numpy() for x, y in source().apply(tga.gpu_augment(transforms(), seed=9))}
    host = source().apply(tga.host_stage(transforms(), seed=9))
    served = host.apply(tf.data.experimental.service.distribute(
        processing_mode="parallel_epochs", service=service, job_name="tfgpuaug_split"))
    got = [(tuple(y.numpy()), x.numpy()) for x, y in served.apply(tga.device_stage(transforms()))]
    assert len(expected) == 3 and len(got) == 2 * len(expected)  # two workers served
    for labels, images in got:
        np.testing.assert_array_equal(images, expected[labels])


def test_input_context_sharding():
    ctx = tf.distribute.InputContext(num_input_pipelines=3, input_pipeline_id=1, num_replicas_in_sync=3)
    assert tga.data.shard_for(ctx) == (3, 1)
    assert tga.data.shard_for(tf.distribute.InputContext()) is None
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    blob = tf.io.encode_png(tf.zeros([8, 8, 3], tf.uint8))

    def make(context):
        ds = tf.data.Dataset.from_tensors(blob).repeat(6).batch(context.get_per_replica_batch_size(6))
        return ds.apply(tga.gpu_augment([tga.Resize(4)], seed=0))

    batches = list(strategy.distribute_datasets_from_function(make))
    assert batches[0].shape == (6, 4, 4, 3)


def test_tfrecord_reader(tmp_path):
    blobs = [tf.io.encode_jpeg(tf.fill([10 + i, 12, 3], tf.constant(i * 20, tf.uint8))).numpy() for i in range(4)]
    path = str(tmp_path / "train-00000-of-00001")
    with tf.io.TFRecordWriter(path) as w:
        for i, b in enumerate(blobs):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b])),
                "image/class/label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i + 1])),
            }))
            w.write(ex.SerializeToString())
    ds = tga.data.tfrecord(str(tmp_path / "train-*"), label_offset=-1)
    got = [(x.numpy(), int(y)) for x, y in ds]
    assert [y for _, y in got] == [0, 1, 2, 3]
    assert [x for x, _ in got] == blobs
    heights = [int(tga.image_shape(x)[0]) for x, _ in got]
    assert heights == [10, 11, 12, 13]


def test_pipeline_under_tf_function_and_deterministic_options(tmp_path):
    samples.make_sample_images(str(tmp_path), per_class=2, seed=4)

    def pipeline():
        ds = tga.data.image_folder(str(tmp_path)).batch(3).apply(
            tga.gpu_augment([tga.RandomResizedCrop(16), tga.CropMirrorNormalize()], seed=5))
        options = tf.data.Options()
        options.deterministic = True
        return ds.with_options(options)

    @tf.function
    def total(dataset):
        s = tf.constant(0.0)
        for x, _ in dataset:
            s += tf.reduce_sum(x)
        return s

    # Two pipelines with the same seed agree; a second epoch of one of them draws afresh.
    a, b = pipeline(), pipeline()
    first = float(total(a))
    assert first == float(total(b))
    assert first != float(total(a))


def test_workers_skip_bad_files_and_keep_labels_aligned(service, tmp_path):
    """on_error="skip" on the workers: the bad files' samples leave their batches there, every
    good one arrives once with its own label (distributed_epoch), none of the bad ones does."""
    samples.make_sample_images(str(tmp_path), per_class=6, seed=4)
    ds = tga.data.image_folder(str(tmp_path))
    files = [os.path.join(str(tmp_path), c, f) for c in ds.class_names
             for f in sorted(os.listdir(os.path.join(str(tmp_path), c)))]
    bad = [str(tmp_path / "truncated.jpg"), str(tmp_path / "garbage.jpg")]
    with open(files[0], "rb") as f:
        (tmp_path / "truncated.jpg").write_bytes(f.read()[:300])
    (tmp_path / "garbage.jpg").write_bytes(b"not an image")
    paths = files[:5] + bad[:1] + files[5:] + bad[1:]
    ids = list(range(len(paths)))
    pipeline = tga.data.file_list(paths, ids).batch(4).apply(tga.gpu_augment(
        [tga.ResizeCenterCrop(24, 24), tga.CropMirrorNormalize()], seed=1, on_error="skip"))
    distributed = pipeline.apply(tf.data.experimental.service.distribute(
        processing_mode="distributed_epoch", service=service, job_name="tfgpuaug_skip"))
    seen = []
    for images, labels in distributed:
        assert images.shape[0] == labels.shape[0]
        seen += labels.numpy().tolist()
    assert sorted(seen) == [i for i, p in enumerate(paths) if p not in bad]


def test_webdataset_shards_on_workers_every_sample_once(service, tmp_path):
    """The tar reader's dataset op serializes to the workers, which read the shards there."""
    import io
    import tarfile
    for s in range(4):
        with tarfile.open(str(tmp_path / f"part-{s}.tar"), "w") as tar:
            for i in range(5):
                sample_id = 5 * s + i
                for ext, payload in (("jpg", _jpeg(sample_id)), ("cls", str(sample_id).encode())):
                    info = tarfile.TarInfo(f"{sample_id:04d}.{ext}")
                    info.size = len(payload)
                    tar.addfile(info, io.BytesIO(payload))
    ds = tga.data.webdataset(str(tmp_path / "part-{0..3}.tar"), {"image": "jpg", "label": "cls"})
    ds = ds.map(lambda x: (x["image"], tf.strings.to_number(x["label"], tf.int64))).batch(4)
    ds = ds.apply(tga.gpu_augment([tga.RandomResizedCrop(16), tga.CropMirrorNormalize()], seed=2))
    distributed = ds.apply(tf.data.experimental.service.distribute(
        processing_mode="distributed_epoch", service=service, job_name="tfgpuaug_wds"))
    seen = [int(v) for _, labels in distributed for v in labels.numpy()]
    assert sorted(seen) == list(range(20))


def _jpeg(seed: int) -> bytes:
    import fixtures
    return fixtures.jpeg_bytes(fixtures.photo(20, 24, seed=seed))
