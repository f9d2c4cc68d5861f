"""DetectionMixUp (issue 36; YOLOX / YOLOv5's MixUp): pixels against numpy from the transform's
own draws (exact), boxes, their labels and keypoints of the sample followed by its partner's
where it mixes (and only its own where not), the draws' laws (partner never itself, ratio mean
for Beta(a, a) = 0.5, mixing rate = probability), inference and refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg


def element(n=6):
    images = np.stack([fixtures.photo(40, 48, 3, seed=i) for i in range(n)])
    boxes = [np.array([[i, i, i + 10, i + 12]] * (i % 3 + 1), np.float32) for i in range(n)]  # row i: i % 3 + 1 boxes
    labels = [np.full(len(b), i, np.int32) for i, b in enumerate(boxes)]
    kps = [np.array([[i + 0.5, 2.0]], np.float32) for i in range(n)]
    ragged = lambda rows: tf.RaggedTensor.from_row_lengths(np.concatenate(rows), [len(r) for r in rows])  # noqa: E731
    return images, tg.Targets(boxes=ragged(boxes), box_fields={"labels": ragged(labels)}, keypoints=ragged(kps))


def test_pixels_and_boxes_follow_the_draws():
    images, targets = element()
    t = tga.DetectionMixUp(alpha=2.0, probability=0.6)
    for seed in range(6):
        s = tf.constant([seed, 5], tf.int64)
        d = t.draws(len(images), s)
        out, moved = t.apply(tf.constant(images), targets, seed=s)
        partner, ratio, mixes = d.partner.numpy(), d.ratio.numpy(), d.mixes.numpy()
        x = images.astype(np.float32)
        r = ratio[:, None, None, None]
        want = np.where(mixes[:, None, None, None],
                        np.clip(np.round(r * x + (1 - r) * x[partner]), 0, 255).astype(np.uint8), images)
        # float32 products: a value within rounding of .5 may round the other way (none expected)
        assert np.abs(out.numpy().astype(int) - want).max() <= 1
        assert (out.numpy() != want).mean() < 1e-3
        labels = moved.box_fields["labels"].to_list()
        for i in range(len(images)):
            own = [i] * (i % 3 + 1)
            j = partner[i]
            assert labels[i] == own + ([j] * (j % 3 + 1) if mixes[i] else []), (seed, i)
            assert moved.keypoints.to_list()[i] == ([[i + 0.5, 2.0]] + ([[j + 0.5, 2.0]] if mixes[i] else []))
            assert moved.boxes.to_list()[i][len(own):] == ([[j, j, j + 10, j + 12]] * (j % 3 + 1) if mixes[i] else [])


def test_draw_laws():
    t = tga.DetectionMixUp(alpha=32.0, probability=0.3)
    n = 400
    d = t.draws(n, tf.constant([1, 2], tf.int64))
    partner, ratio, mixes = d.partner.numpy(), d.ratio.numpy(), d.mixes.numpy()
    assert (partner != np.arange(n)).all() and sorted(partner) == list(range(n))  # a cyclic order
    assert abs(ratio.mean() - 0.5) < 5 * np.sqrt(1 / (4 * 65)) / np.sqrt(n)  # Beta(32, 32): var 1/(4*65)
    assert abs(mixes.mean() - 0.3) < 5 * np.sqrt(0.21 / n)
    one = t.draws(1, tf.constant([1, 2], tf.int64))
    assert not one.mixes.numpy().any()  # no partner for a batch of one


def test_inference_and_refusals():
    images, targets = element(3)
    t = tga.DetectionMixUp(probability=1.0)
    out, same = t.apply(tf.constant(images), targets, training=False)
    np.testing.assert_array_equal(out.numpy(), images)
    assert same is targets
    with pytest.raises(ValueError, match="masks"):
        t.apply(tf.constant(images), targets.replace(masks=tf.zeros([3, 40, 48, 1], tf.uint8)))
    with pytest.raises(ValueError, match="decoded images"):
        t.apply(tf.constant([b"x"]), None)
    with pytest.raises(ValueError, match="alpha"):
        tga.DetectionMixUp(alpha=0.0)
    with pytest.raises(ValueError, match="probability"):
        tga.DetectionMixUp(probability=2.0)


def test_in_a_gpu_augment_stage_after_mosaic():
    """Mosaic then DetectionMixUp in one stage on a detection element: each output keeps its
    mosaic's labels first; mixed samples add their partner's."""
    rng = np.random.default_rng(3)
    sizes = [(90, 120), (130, 70), (64, 64), (100, 150)]
    images = tf.ragged.stack([tf.constant(rng.integers(0, 255, (h, w, 3), dtype=np.uint8)) for h, w in sizes])
    rows = [np.array([[0, 0, w, h]], np.float32) for h, w in sizes]
    ragged = lambda r: tf.RaggedTensor.from_row_lengths(np.concatenate(r), [len(x) for x in r])  # noqa: E731
    element = {"images": images, "bounding_boxes": {"boxes": ragged(rows),
                                                    "labels": ragged([np.array([i], np.int32) for i in range(4)])}}
    ds = tf.data.Dataset.from_tensors(element)
    plain = next(iter(ds.apply(tga.gpu_augment([tga.Mosaic(64)], device="/cpu:0", seed=4))))
    mixed = next(iter(ds.apply(tga.gpu_augment([tga.Mosaic(64), tga.DetectionMixUp(probability=1.0)],
                                               device="/cpu:0", seed=4))))
    assert mixed["images"].shape == (4, 64, 64, 3)
    for i in range(4):
        own = plain["bounding_boxes"]["labels"][i].numpy().tolist()
        got = mixed["bounding_boxes"]["labels"][i].numpy().tolist()
        assert len(got) > len(own) >= 1 and got[:len(own)] == own
