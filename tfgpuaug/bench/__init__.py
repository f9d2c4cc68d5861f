"""The benchmark harness: `python -m tfgpuaug.bench --data DIR` runs tfgpuaug and the
anchors (tf.data + tf.image, TF Model Garden and Keras RandAugment, DALI's CPU pipeline
when installed) side by side on the same images, plus per-op microbenchmarks in bytes/s."""
