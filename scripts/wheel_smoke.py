"""What a user does first with an installed wheel, run from outside the source tree by
scripts/check_wheel.sh: decode (against TensorFlow's own decoder), the train pipeline through
gpu_augment, on_error="skip", and a SavedModel round trip reloaded in a fresh process."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import tensorflow as tf

import tfgpuaug as tga

assert "site-packages" in tga.__file__, f"tfgpuaug imported from {tga.__file__}, not the installed wheel"
rng = np.random.default_rng(0)
pixels = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
jpeg = tf.io.encode_jpeg(pixels, quality=95)
ours = tga.decode_image(jpeg).numpy()
theirs = tf.io.decode_jpeg(jpeg, dct_method="INTEGER_ACCURATE").numpy()
assert np.abs(ours.astype(int) - theirs.astype(int)).max() <= 1, "decode differs from tf.io.decode_jpeg"

batch = tf.stack([jpeg] * 8)
ds = tf.data.Dataset.from_tensors((batch, tf.range(8))).repeat(2)
train = [tga.RandomResizedCrop(32), tga.CropMirrorNormalize(tga.IMAGENET_MEAN, tga.IMAGENET_STD, mirror=0.5)]
for x, y in ds.apply(tga.gpu_augment(train, seed=1)):
    assert x.shape == (8, 32, 32, 3) and x.dtype == tf.float32
bad = tf.tensor_scatter_nd_update(batch, [[3]], [b"not an image"])
x, y = next(iter(tf.data.Dataset.from_tensors((bad, tf.range(8))).apply(tga.gpu_augment(train, seed=1,
                                                                                         on_error="skip"))))
assert y.numpy().tolist() == [0, 1, 2, 4, 5, 6, 7]


class Preprocess(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def __call__(self, contents):
        return tga.resize_center_crop(contents, 40, 32)


path = os.path.join(tempfile.mkdtemp(), "preprocess")
tf.saved_model.save(Preprocess(), path)
expected = Preprocess()(batch).numpy()
np.save(path + ".npy", expected)
reload = f"""
import numpy as np, tensorflow as tf, tfgpuaug
jpeg = tf.io.encode_jpeg(np.random.default_rng(0).integers(0, 256, (48, 64, 3), dtype=np.uint8), quality=95)
got = tf.saved_model.load({path!r})(tf.stack([jpeg] * 8)).numpy()
np.testing.assert_array_equal(got, np.load({path + '.npy'!r}))
"""
subprocess.run([sys.executable, "-c", reload], check=True)
print(f"wheel OK: tfgpuaug {tga.__version__} on TensorFlow {tf.__version__} ({tga._loader._library_path()})")
