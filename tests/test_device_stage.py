"""The GPU-placed stage, proven structurally on a CPU-only machine (soft placement would hide a
stage that runs on the CPU): built in graph mode with device="/gpu:0", the last dataset op and
the device stage's map op are placed on the GPU and have GPU kernels, every op of the device
function has a registered GPU kernel for its types, and the CPU-only ops (header parse, fused
JPEG decode) sit in the host map only. The split host/device halves compute what the one-map CPU
path computes. Under MirroredStrategy over two logical CPUs, `distribute` builds one pipeline per
replica on that replica's device and `fit` consumes it.

Mutant checked against: the previous pipeline.py (map + prefetch under tf.device after
copy_to_device): its ParallelMapDatasetV2 has no GPU kernel, so the placement test fails."""
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.framework import kernels

import tfgpuaug as tga
from tfgpuaug import samples

pytestmark = pytest.mark.gpu_path  # placement and GPU-path tests: not pinned to the CPU (conftest.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA_BUILT = __import__("tfgpuaug._build_info", fromlist=["CUDA_BUILT"]).CUDA_BUILT
needs_cuda_build = pytest.mark.skipif(not CUDA_BUILT, reason="op library built without CUDA kernels")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("device_stage"))
    samples.make_sample_images(root, per_class=4, seed=5)
    return root


def train_transforms():
    return [tga.RandomResizedCrop(24), tga.RandAugment(num_ops=2, magnitude=9),
            tga.RandomFlip(), tga.CropMirrorNormalize(mirror=0.5)]


def _type_attrs(node):
    """{attr name: [DataType, ...]} of a NodeDef's type and type-list attrs."""
    out = {}
    for name, value in node.attr.items():
        if value.HasField("type"):
            out[name] = [value.type]
        elif value.HasField("list") and value.list.type:
            out[name] = list(value.list.type)
    return out


def has_gpu_kernel(node) -> bool:
    types = _type_attrs(node)
    for k in kernels.get_registered_kernels_for_op(node.op).kernel:
        if k.device_type not in ("GPU", "DEFAULT"):  # DEFAULT: any device (int32 in host memory)
            continue
        if all(t in c.allowed_values.list.type for c in k.constraint if c.name in types
               for t in types[c.name]):
            return True
    return False


def function_nodes(library, name, seen=None):
    """Every NodeDef of function `name` and of the functions its nodes call."""
    seen = set() if seen is None else seen
    if name in seen:
        return []
    seen.add(name)
    fdef = next(f for f in library.function if f.signature.name == name)
    nodes = list(fdef.node_def)
    for node in fdef.node_def:
        for value in node.attr.values():
            if value.HasField("func"):
                nodes += function_nodes(library, value.func.name, seen)
        if any(f.signature.name == node.op for f in library.function):
            nodes += function_nodes(library, node.op, seen)
    return nodes


def dataset_chain(variant):
    """Dataset ops from the last back to the source along the first input."""
    ops, op = [], variant.op
    while op is not None:
        ops.append(op)
        producers = [t.op for t in op.inputs if t.dtype == tf.variant]
        op = producers[0] if producers else None
    return ops


def build_graph(folder, transforms, device="/gpu:0"):
    graph = tf.Graph()
    with graph.as_default():
        ds = tga.data.image_folder(folder).batch(4)
        ds = ds.apply(tga.gpu_augment(transforms, device=device, seed=1))
        chain = dataset_chain(ds._variant_tensor)
    return graph, chain


@needs_cuda_build
@pytest.mark.parametrize("transforms", [
    train_transforms(),
    [tga.ResizeCenterCrop(32, 24), tga.CropMirrorNormalize()],
    [tga.RandomResizedCrop(24), tga.TrivialAugment(), tga.CropMirrorNormalize(layout="NCHW")],
    [tga.RandomResizedCrop(24), tga.AutoAugment(interpolation="nearest")],
    [tga.RandomResizedCrop(24), tga.JpegQuality(), tga.RandAugment(), tga.CropMirrorNormalize()],
    [tga.RandomResizedCrop(24), tga.RandomPerspective(probability=1.0), tga.RandomAffine(10, scale=(0.9, 1.1)),
     tga.ColorJitter(0.4, 0.4, 0.4, 0.1),
     tga.CropMirrorNormalize()],
    [tga.RandomResizedCrop(24), tga.RandomGamma(), tga.ChannelShuffle(), tga.RGBShift(), tga.ToGray(),
     tga.GaussianBlur(), tga.GaussNoise(), tga.ISONoise(), tga.CLAHE(), tga.Sharpen(), tga.Emboss(), tga.Blur(),
     tga.MedianBlur(), tga.MotionBlur(),
     tga.PCALighting(), tga.AdditiveNoise(), tga.AdditiveNoise("gaussian", "per_pixel"),
     tga.AdditiveNoise("laplace", "shared"), tga.AdditiveNoise("beta", "per_pixel"),
     tga.AdditiveNoise("uniform", "per_pixel", approximation=0.5), tga.PlanckianJitter(), tga.UnsharpMask(),
     tga.HEStain(probability=1.0), tga.HEStain("macenko", probability=1.0),
     tga.HEStain("vahadane", probability=1.0),
     tga.Illumination(), tga.Illumination("corner"), tga.Illumination("gaussian"),
     tga.PlasmaBrightnessContrast(), tga.PlasmaShadow(), tga.ChromaticAberration(), tga.AdvancedBlur(),
     tga.Defocus(), tga.RingingOvershoot(), tga.GlassBlur(probability=1.0), tga.ZoomBlur(probability=1.0),
     tga.Superpixels(probability=1.0, p_replace=(0.5, 0.5), n_segments=(4, 8), max_size=4),
     tga.HistogramMatching(np.zeros([2, 5, 6, 3], np.uint8) + 77),
     tga.FDA(np.zeros([2, 5, 6, 3], np.uint8) + 50, probability=1.0),
     tga.PixelDistributionAdaptation(np.arange(90, dtype=np.uint8).reshape(1, 5, 6, 3), probability=1.0),
     tga.RandomShadow(probability=1.0), tga.RandomRain(probability=1.0), tga.RandomSnow(probability=1.0),
     tga.RandomGravel(probability=1.0), tga.RandomFog(probability=1.0), tga.RandomSunFlare(probability=1.0),
     tga.RandomSunFlare(method="physics_based", probability=1.0),
     tga.Spatter(mode="mud", probability=1.0), tga.Spatter(probability=1.0), tga.CropMirrorNormalize()],
    [tga.RandomResizedCrop(24), tga.RandomZoomOut(probability=1.0), tga.RandomPhotometricDistort(),
     tga.Downscale(), tga.AugMix(), tga.HueSaturationValue(), tga.RandomToneCurve(),
     tga.RandomShortestSize((16, 20)), tga.RandomRotate90(), tga.Transpose(), tga.D4(), tga.PixelDropout(),
     tga.ChannelDropout(), tga.ToSepia(), tga.SaltAndPepper(),
     tga.CropMirrorNormalize()],
    [tga.RandomResizedCrop(24), tga.ElasticTransform(probability=1.0), tga.GridDistortion(probability=1.0),
     tga.OpticalDistortion(probability=1.0), tga.PiecewiseAffine(nb_rows=(3, 4), probability=1.0),
     tga.ThinPlateSpline(probability=1.0), tga.SafeRotate(), tga.RandomGridShuffle(probability=1.0),
     tga.GridElasticDeform((3, 2), 2),
     tga.CropMirrorNormalize()],
    [tga.RandomResizedCrop(24), tga.Pad(2, padding_mode="reflect"),
     tga.RandomCrop(20, padding=3, padding_mode="symmetric", pad_if_needed=True),
     tga.PadIfNeeded(24, 26, position="random", border_mode="wrap"), tga.RandomCrop(16, padding=2, fill=5),
     tga.RandomResize(14, 20), tga.SmallestMaxSize((16, 18)), tga.LongestMaxSize(20),
     tga.CropAndPad(percent=(-0.1, 0.1), border_mode="reflect_101"), tga.CropAndPad(px=3, fill=9.0),
     tga.RandomCropFromBorders(20, 0.2, 0.1, 0.1, 0.2), tga.RandomCropNearBBox(18),
     tga.CropMirrorNormalize()],
    [tga.ResizeCenterCrop(32, 24), tga.ToGray(), tga.Morphological(probability=1.0),
     tga.Morphological(3, "erosion"), tga.MultiplicativeNoise(elementwise=True), tga.MultiplicativeNoise(),
     tga.ShotNoise(), tga.XYMasking((1, 2), 1, (2, 5), 3, probability=1.0),
     tga.XYMasking(1, 1, 4, 4, fill="random_uniform", probability=1.0),
     tga.TenCrop(16)],
], ids=["randaugment", "eval", "trivialaugment-nchw", "autoaugment", "jpeg-quality-on-the-host",
        "perspective-colorjitter", "photometric", "zoom-out-distort-downscale-augmix", "distortions", "padding",
        "ten-crop"])
def test_device_stage_is_placed_on_the_gpu(folder, transforms):
    graph, chain = build_graph(folder, transforms)
    types = [op.type for op in chain]
    # The last op is the device map: no prefetch on the device (it would hold batches a
    # checkpoint of the host iterator does not cover); the host part prefetches instead.
    last, device_map = chain[0], chain[1]
    assert last.type == "ExperimentalMapDataset" and "GPU:0" in last.device.upper()
    assert device_map.type == "GeneratorDataset" and "GPU:0" in device_map.device.upper()
    device_map = last
    for op in (last, chain[1]):  # the dataset ops themselves have GPU kernels
        assert any(k.device_type == "GPU"
                   for k in kernels.get_registered_kernels_for_op(op.type).kernel), op.type
    # host part: a parallel map on the CPU, then copy_to_device's generator in between
    copy = types.index("GeneratorDataset")
    host_map = chain[types.index("ParallelMapDatasetV2", copy)]
    assert copy == 1 and "GPU" not in host_map.device.upper() and "PrefetchDataset" in types[copy:]
    library = graph.as_graph_def().library
    device_ops = function_nodes(library, device_map.get_attr("f").name)
    host_ops = function_nodes(library, host_map.get_attr("f").name)
    missing = sorted({n.op for n in device_ops if not has_gpu_kernel(n)})
    assert not missing, f"ops without a GPU kernel in the device stage: {missing}"
    host_only = {"TfGpuAug>ImageShape", "TfGpuAug>DecodeCropResize", "TfGpuAug>DecodeRandomCropResize",
                 "TfGpuAug>JpegQuality"}
    assert host_only & {n.op for n in host_ops}
    assert not host_only & {n.op for n in device_ops}
    assert {n.op for n in device_ops} & {"TfGpuAug>CropMirrorNormalize", "TfGpuAug>Augment"}


def test_cpu_device_or_no_gpu_takes_the_one_map_cpu_path(folder):
    _, chain = build_graph(folder, train_transforms(), device="/cpu:0")
    types = [op.type for op in chain if op.type != "OptionsDataset"]
    assert types[0] == "PrefetchDataset" and "ExperimentalMapDataset" not in types
    assert "GeneratorDataset" not in types  # no copy_to_device: checkpointable
    assert tga.pipeline.resolve_device("/gpu:1") == "/gpu:1"
    assert tga.pipeline.resolve_device("/cpu:0") is None
    if not tf.config.list_physical_devices("GPU"):
        assert tga.pipeline.resolve_device(None) is None


def test_split_halves_compute_the_cpu_path(folder):
    ds = tga.data.image_folder(folder).batch(4)
    whole = [x.numpy() for x, _ in ds.apply(tga.gpu_augment(train_transforms(), seed=3))]
    split = ds.apply(tga.host_stage(train_transforms(), seed=3))
    split = [x.numpy() for x, _ in split.apply(tga.device_stage(train_transforms()))]
    assert len(whole) == 3
    for a, b in zip(whole, split):
        np.testing.assert_array_equal(a, b)
    # crop + normalize: fused in the one map (float from the resampler), split on the GPU path
    # (uint8 crop, normalized on the device): the rounding to uint8 is the only difference.
    pair = lambda: [tga.RandomResizedCrop(24), tga.CropMirrorNormalize(mirror=0.5)]
    fused = [x.numpy() for x, _ in ds.apply(tga.gpu_augment(pair(), seed=4))]
    halves = ds.apply(tga.host_stage(pair(), seed=4)).apply(tga.device_stage(pair()))
    for a, (b, _) in zip(fused, halves):
        diff = np.abs(a - b.numpy())
        assert diff.max() <= 0.5 / min(tga.IMAGENET_STD) + 1e-5 and diff.mean() < 0.005


_MIRRORED = """
import sys
import numpy as np
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import tfgpuaug as tga
from tfgpuaug import pipeline
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
seen = []
def make(context):
    seen.append((context.input_pipeline_id, pipeline._current_device_scope()))
    ds = tga.data.image_folder(sys.argv[1], shard=tga.data.shard_for(context))
    return ds.repeat().batch(context.get_per_replica_batch_size(4)).map(lambda x, y: (x, y))
dist = tga.distribute(strategy, make, [tga.RandomResizedCrop(16), tga.CropMirrorNormalize()], seed=0)
first = next(iter(dist))
shapes = [tuple(v.shape) for v in strategy.experimental_local_results(first[0])]
devices = [v.device for v in strategy.experimental_local_results(first[0])]
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((16, 16, 3)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(3)])
    model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
history = model.fit(dist, epochs=1, steps_per_epoch=3, verbose=0)
print("SEEN", sorted(seen))
print("SHAPES", shapes)
print("DEVICES", devices)
print("LOSS", np.isfinite(history.history["loss"]).all())
"""


def test_distribute_builds_one_stage_per_replica_device_and_fit_runs(folder):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, "-c", _MIRRORED, folder], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines() if " " in line)
    seen = eval(lines["SEEN"])
    assert [i for i, _ in seen] == [0, 1]
    assert seen[0][1].upper().endswith("CPU:0") and seen[1][1].upper().endswith("CPU:1")
    assert eval(lines["SHAPES"]) == [(2, 16, 16, 3), (2, 16, 16, 3)]
    devices = eval(lines["DEVICES"])
    assert devices[0].upper().endswith("CPU:0") and devices[1].upper().endswith("CPU:1")
    assert lines["LOSS"] == "True"


# Inputs each GPU kernel takes in host memory: per-sample scalars it validates or plans with
# on the host (then uploads through pinned staging held until the copy has run, issue #18);
# everything else, pixels and per-sample flags, stays in device memory.
GPU_HOST_MEMORY = {
    "TfGpuAug>Flip": set(),
    "TfGpuAug>WarpAffine": {"size"},
    "TfGpuAug>CropMirrorNormalize": {"crop_offsets"},
    "TfGpuAug>CropResize": {"shapes", "boxes", "size", "mirror"},
    "TfGpuAug>Augment": {"op_ids"},
    "TfGpuAug>DecodeImage": {"contents", "crop_window"},
    "TfGpuAug>DecodeImageBatch": {"contents", "crop_windows", "shapes", "errors"},
    "TfGpuAug>Remap": set(),
    "TfGpuAug>RemapAffine": {"size"},
    "TfGpuAug>RemapRadial": set(),
    "TfGpuAug>SeparableResample": set(),
    "TfGpuAug>ElasticMaps": {"size"},
    "TfGpuAug>CellMaps": set(),
    "TfGpuAug>TileShuffle": set(),
    "TfGpuAug>UnsharpMask": set(),
    "TfGpuAug>Filter2D": set(),
    "TfGpuAug>LevelTables": set(),
    "TfGpuAug>HlsLightness": set(),
    "TfGpuAug>SpanRaster": {"size"},
    "TfGpuAug>LineRaster": {"size"},
    "TfGpuAug>ChannelHistograms": set(),
    "TfGpuAug>GlassSwaps": set(),
    "TfGpuAug>ZoomBlur": set(),
    "TfGpuAug>Superpixels": set(),
    "TfGpuAug>StainNmf": set(),
    "TfGpuAug>SeparableBlur": set(),
    "TfGpuAug>FlareBlend": set(),
    "TfGpuAug>HeStain": set(),
    "TfGpuAug>TissuePlane": set(),
    "TfGpuAug>SunFlare": set(),
    "TfGpuAug>SpatterMud": set(),
    "TfGpuAug>SpatterRain": set(),
    "TfGpuAug>PlasmaPattern": {"size"},
    "TfGpuAug>PatternBlend": set(),
}


# Registrations whose type keeps everything in host memory: int32 on a GPU device, as
# TensorFlow's own int32 kernels (Flip's int32 runs the CPU kernel there; it had no GPU kernel
# at all before, issue #32).
GPU_HOST_MEMORY_BY_TYPE = {
    ("TfGpuAug>Flip", tf.int32.as_datatype_enum): {"images", "horizontal", "vertical", "flipped"},
}


def _type_of(kernel_def):
    types = [c.allowed_values.list.type for c in kernel_def.constraint if c.name == "T"]
    return types[0][0] if types and len(types[0]) == 1 else None


@needs_cuda_build
@pytest.mark.parametrize("op", sorted(GPU_HOST_MEMORY))
def test_each_op_has_one_cpu_and_gpu_kernel_with_its_host_memory_args(op):
    """Every op the GPU stage runs is registered on both devices (one OpKernel class templated on
    the device since #18), and its GPU registrations keep exactly the expected inputs in host
    memory. Mutant checked against: dropping HostMemory("op_ids") from the Augment registration."""
    registered = kernels.get_registered_kernels_for_op(op).kernel
    assert any(k.device_type == "CPU" for k in registered), op
    gpu = [k for k in registered if k.device_type == "GPU"]
    assert gpu, f"{op} has no GPU kernel"
    for k in gpu:
        want = GPU_HOST_MEMORY_BY_TYPE.get((op, _type_of(k)), GPU_HOST_MEMORY[op])
        assert set(k.host_memory_arg) == want, (op, _type_of(k), list(k.host_memory_arg))
    if op == "TfGpuAug>Flip":  # every type the op accepts has a GPU kernel
        assert {_type_of(k) for k in gpu} == {t.as_datatype_enum for t in
                                              (tf.uint8, tf.float32, tf.float16, tf.bfloat16, tf.int32)}


@needs_cuda_build
def test_detection_device_stage_keeps_its_data_reports_on_the_host(folder):
    """Boxes with max_boxes on a GPU target: the device function holds no CPU-only op (the
    data-report op of max_boxes truncation and all-dropped warnings has a CPU kernel only, so
    it must run in the host part, where the boxes are still on the CPU)."""
    graph = tf.Graph()
    with graph.as_default():
        images = tf.io.encode_jpeg(tf.zeros([16, 16, 3], tf.uint8))
        element = {"images": tf.stack([images, images]),
                   "bounding_boxes": {"boxes": tf.ragged.constant([[[1., 1., 5., 5.]], [[2., 2., 8., 8.]]],
                                                                  ragged_rank=1),
                                      "labels": tf.ragged.constant([[1], [2]])}}
        ds = tf.data.Dataset.from_tensors(element).repeat()
        ds = ds.apply(tga.gpu_augment([tga.RandomResizedCrop(12), tga.CropMirrorNormalize()], device="/gpu:0",
                                      seed=1, max_boxes=4))
        chain = dataset_chain(ds._variant_tensor)
    types = [op.type for op in chain]
    device_map = chain[0]  # the last op: no prefetch on the device
    assert device_map.type == "ExperimentalMapDataset" and "GPU:0" in device_map.device.upper()
    library = graph.as_graph_def().library
    device_ops = function_nodes(library, device_map.get_attr("f").name)
    missing = sorted({n.op for n in device_ops if not has_gpu_kernel(n)})
    assert not missing, f"ops without a GPU kernel in the device stage: {missing}"
    host_map = chain[types.index("ParallelMapDatasetV2", types.index("GeneratorDataset"))]
    host_ops = {n.op for n in function_nodes(library, host_map.get_attr("f").name)}
    assert "TfGpuAug>RecordSkipped" in host_ops  # the truncation report runs, on the host


@needs_cuda_build
def test_segmentation_transforms_with_annotations_run_in_the_host_part():
    """CopyPaste, MaskDropout and RandomShortestSize with instance masks and boxes on a GPU
    target: by gpu_augment's design, transforms up to the last one that moves annotations run in
    the host part (the annotations leave it final), so their ops (bincounts, segment extents)
    are there and the device function holds no CPU-only op."""
    graph = tf.Graph()
    with graph.as_default():
        element = {"images": tf.zeros([2, 16, 16, 3], tf.uint8),
                   "segmentation_masks": tf.zeros([2, 16, 16, 1], tf.uint8),
                   "bounding_boxes": {"boxes": tf.ragged.constant([[[1., 1., 5., 5.]], [[2., 2., 8., 8.]]],
                                                                  ragged_rank=1),
                                      "labels": tf.ragged.constant([[1], [2]])}}
        ds = tf.data.Dataset.from_tensors(element).repeat()
        ds = ds.apply(tga.gpu_augment([tga.CopyPaste(), tga.MaskDropout(),
                                       tga.ConstrainedCoarseDropout(mask_indices=[1], fill_mask=0),
                                       tga.ConstrainedCoarseDropout(bbox_labels=[2], min_box_visibility=0.5),
                                       tga.RandomShortestSize((8, 12))],
                                      device="/gpu:0", seed=1, max_boxes=4))
        chain = dataset_chain(ds._variant_tensor)
    types = [op.type for op in chain]
    device_map = chain[0]
    assert device_map.type == "ExperimentalMapDataset" and "GPU:0" in device_map.device.upper()
    library = graph.as_graph_def().library
    host_map = chain[types.index("ParallelMapDatasetV2", types.index("GeneratorDataset"))]
    host_ops = {n.op for n in function_nodes(library, host_map.get_attr("f").name)}
    assert host_ops >= {"UnsortedSegmentMin", "DenseBincount", "TfGpuAug>CropResize"}
    device_ops = function_nodes(library, device_map.get_attr("f").name)
    missing = sorted({n.op for n in device_ops if not has_gpu_kernel(n)})
    assert not missing, f"ops without a GPU kernel in the device stage: {missing}"


@needs_cuda_build
def test_checkpointable_iterator_pipeline_is_placed_on_the_gpu(folder):
    """What an eager iter() of the stage runs (its host iterator read by a GeneratorDataset, then
    the device map), traced in a function for /gpu:0: the same placement as the pipeline above,
    the same map function, no prefetch on the device."""
    found = {}

    @tf.function
    def build():
        ds = tga.data.image_folder(folder).batch(4)
        ds = ds.apply(tga.gpu_augment(train_transforms(), device="/gpu:0", seed=1))
        device = ds._device_pipeline(iter(ds._host))
        found["chain"] = dataset_chain(device._variant_tensor)
        return tf.constant(0)

    build.get_concrete_function()
    chain = [op for op in found["chain"] if op.type != "OptionsDataset"]
    assert [op.type for op in chain] == ["ExperimentalMapDataset", "GeneratorDataset"]
    assert all("GPU:0" in op.device.upper() for op in chain)
    options = [op for op in found["chain"] if op.type == "OptionsDataset"]
    assert options  # the no-prefetch, no-autotune options of the device part
