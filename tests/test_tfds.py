"""tga.data.tfds (issue #21): a TFDS dataset built here (JPEG- and PNG-encoded image features,
one nested) read with decoding skipped: the bytes are the ones TFDS stored, they decode to the
arrays written (PNG) or to TFDS's own decode (JPEG), and they go through gpu_augment."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga

tfds = pytest.importorskip("tensorflow_datasets")

IMAGES = [fixtures.photo(20 + 2 * i, 30 - i, seed=i) for i in range(6)]


class TinyImages(tfds.core.GeneratorBasedBuilder):
    VERSION = tfds.core.Version("1.0.0")

    def _info(self):
        return tfds.core.DatasetInfo(builder=self, features=tfds.features.FeaturesDict({
            "image": tfds.features.Image(shape=(None, None, 3), encoding_format="png"),
            "label": tfds.features.ClassLabel(num_classes=3),
            "extra": {"thumb": tfds.features.Image(shape=(None, None, 3), encoding_format="jpeg")},
        }), supervised_keys=("image", "label"))

    def _split_generators(self, dl_manager):
        return {"train": self._generate_examples()}

    def _generate_examples(self):
        for i, img in enumerate(IMAGES):
            yield i, {"image": img, "label": i % 3, "extra": {"thumb": img[:8, :8]}}


@pytest.fixture(scope="module")
def builder(tmp_path_factory):
    b = TinyImages(data_dir=str(tmp_path_factory.mktemp("tfds")))
    b.download_and_prepare()
    return b


def test_images_stay_encoded_and_decode_to_what_was_written(builder):
    assert tga.data.tfds.__module__ == "tfgpuaug.data.tfds"
    from tfgpuaug.data.tfds import image_keys
    assert sorted(image_keys(builder.info.features)) == ["extra/thumb", "image"]
    plain = list(builder.as_dataset(split="train"))
    assert len(list(tga.data.tfds(builder, "train"))) == len(IMAGES)
    for x in tga.data.tfds(builder, "train"):
        assert x["image"].dtype == tf.string and x["extra"]["thumb"].dtype == tf.string
        pixels = tga.decode_image(x["image"]).numpy()
        assert any(np.array_equal(pixels, img) for img in IMAGES)
    decoded = {x["image"].numpy().tobytes(): x["extra"]["thumb"].numpy() for x in plain}
    for x in tga.data.tfds(builder, "train"):  # JPEG: TFDS's decode (tf.io, INTEGER_FAST) of the same bytes
        pixels = tga.decode_image(x["image"]).numpy()
        thumb = tga.decode_image(x["extra"]["thumb"], dct_method="INTEGER_FAST").numpy()
        np.testing.assert_array_equal(thumb, decoded[pixels.tobytes()])


def test_supervised_pairs_through_gpu_augment(builder):
    ds = tga.data.tfds(builder, "train", as_supervised=True).batch(3)
    ds = ds.apply(tga.gpu_augment([tga.Resize((16, 16)), tga.CropMirrorNormalize()], seed=1, device="/cpu:0"))
    batches = list(ds)
    assert [b[0].shape for b in batches] == [(3, 16, 16, 3)] * 2
    assert sorted(int(v) for b in batches for v in b[1].numpy()) == sorted(i % 3 for i in range(6))


def test_split_slices_and_errors(builder):
    assert len(list(tga.data.tfds(builder, "train[:50%]"))) == 3
    with pytest.raises(Exception, match="(?i)split"):
        list(tga.data.tfds(builder, "test"))
