"""WebDataset tar shards (issue #21): samples against Python's tarfile read of the same shards
(ustar, GNU and PAX archives, long names, directories), shard splitting and shuffling,
checkpoints, TensorFlow filesystems, cut and corrupt shards, and the train pipeline reading
shards against the same images read as files."""
import io
import os
import tarfile

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga


def write_shard(path: str, samples: list, fmt=tarfile.USTAR_FORMAT, extra_dir=False) -> None:
    with tarfile.open(path, "w", format=fmt) as tar:
        if extra_dir:
            info = tarfile.TarInfo("parts")
            info.type = tarfile.DIRTYPE
            tar.addfile(info)
        for key, members in samples:
            for ext, data in members.items():
                info = tarfile.TarInfo(f"{key}.{ext}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


def tarfile_samples(path: str, fields: dict) -> list:
    """The reference: Python's tarfile, grouped by key as WebDataset does."""
    out, current = [], None
    with tarfile.open(path) as tar:
        for m in tar.getmembers():
            if not m.isfile():
                continue
            base = m.name.rsplit("/", 1)
            dot = base[-1].find(".")
            key = m.name[:len(m.name) - len(base[-1]) + dot] if dot >= 0 else m.name
            ext = base[-1][dot + 1:] if dot >= 0 else ""
            if current is None or current["__key__"] != key:
                current = {"__key__": key, "__members__": {}}
                out.append(current)
            current["__members__"][ext.lower()] = tar.extractfile(m).read()
    result = []
    for s in out:
        row = {"__key__": s["__key__"].encode()}
        for name, exts in fields.items():
            row[name] = next((s["__members__"][e] for e in exts.split(";") if e in s["__members__"]), b"")
        result.append(row)
    return result


def as_rows(ds) -> list:
    return [{k: v.numpy() for k, v in x.items() if k != "__url__"} for x in ds]


JPEGS = [fixtures.jpeg_bytes(fixtures.photo(40 + 3 * i, 50 - 2 * i, seed=i)) for i in range(12)]


def sample(i: int) -> tuple:
    members = {"jpg": JPEGS[i], "cls": str(i % 5).encode(), "json": b'{"i": %d}' % i}
    if i % 4 == 3:
        members["seg.png"] = fixtures.png_bytes(fixtures.photo(8, 9, seed=i))  # a multi-dot extension
    return f"{i:06d}", members


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    root = tmp_path_factory.mktemp("wds")
    paths = []
    formats = [tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT]
    for s in range(3):
        path = str(root / f"train-{s:04d}.tar")
        write_shard(path, [sample(4 * s + i) for i in range(4)], fmt=formats[s], extra_dir=s == 1)
        paths.append(path)
    return paths


FIELDS = {"image": "jpg", "label": "cls", "meta": "json", "mask": "seg.png"}


def test_samples_equal_tarfile(shards):
    got = as_rows(tga.data.webdataset(shards, FIELDS, missing_ok=True, cycle_length=1))
    expected = [row for path in shards for row in tarfile_samples(path, FIELDS)]
    assert len(got) == 12 and got == expected


def test_long_names_and_prefixes(tmp_path):
    deep = "d" * 80 + "/" + "e" * 90 + "/" + "f" * 120  # needs the ustar prefix, a GNU or a PAX record
    for fmt in (tarfile.GNU_FORMAT, tarfile.PAX_FORMAT):
        path = str(tmp_path / f"long{fmt}.tar")
        write_shard(path, [(deep + "/0", {"jpg": b"a", "cls": b"1"}), ("x/1", {"jpg": b"b", "cls": b"2"})], fmt=fmt)
        got = as_rows(tga.data.webdataset(path, {"image": "jpg", "label": "cls"}))
        assert got == tarfile_samples(path, {"image": "jpg", "label": "cls"})
        assert got[0]["__key__"] == (deep + "/0").encode()


def test_alternatives_take_the_first_present(tmp_path):
    path = str(tmp_path / "alt.tar")
    write_shard(path, [("a", {"png": b"P", "jpg": b"J"}), ("b", {"PNG": b"Q"}), ("c", {"webp": b"W"})])
    got = as_rows(tga.data.webdataset(path, {"image": "jpg;png;webp"}))
    assert [r["image"] for r in got] == [b"J", b"Q", b"W"]


def test_missing_member_names_the_sample_and_costs_only_it(tmp_path):
    path = str(tmp_path / "missing.tar")
    write_shard(path, [("a", {"jpg": b"1", "cls": b"0"}), ("b", {"jpg": b"2"}), ("c", {"jpg": b"3", "cls": b"1"})])
    ds = tga.data.webdataset(path, {"image": "jpg", "label": "cls"})
    words = r"missing.tar: sample 'b' has no member with extension 'cls' \(members: b.jpg\)"
    with pytest.raises(tf.errors.InvalidArgumentError, match=words):
        as_rows(ds)
    kept = as_rows(ds.apply(tf.data.experimental.ignore_errors()))
    assert [r["__key__"] for r in kept] == [b"a", b"c"]
    empty = as_rows(tga.data.webdataset(path, {"image": "jpg", "label": "cls"}, missing_ok=True))
    assert [r["label"] for r in empty] == [b"0", b"", b"1"]


def test_cut_and_corrupt_shards_name_shard_member_and_offset(shards, tmp_path):
    data = open(shards[0], "rb").read()
    cut = str(tmp_path / "cut.tar")
    open(cut, "wb").write(data[:512 * 3 + 700])  # inside the first jpg's data
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cut.tar: truncated member '000000.jpg' \(at byte \d+\)"):
        as_rows(tga.data.webdataset(cut, FIELDS, missing_ok=True))
    corrupt = bytearray(data)
    second_header = 512 + ((len(JPEGS[0]) + 511) // 512) * 512
    corrupt[second_header + 10] ^= 0x40  # a name byte: the checksum no longer holds
    bad = str(tmp_path / "corrupt.tar")
    open(bad, "wb").write(bytes(corrupt))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"corrupt.tar: corrupt member header \(checksum"):
        as_rows(tga.data.webdataset(bad, FIELDS, missing_ok=True))
    # ignore_errors: the broken shard ends where it broke, the next shard is read whole.
    ds = tga.data.webdataset([cut, shards[1]], FIELDS, missing_ok=True, cycle_length=1)
    rows = as_rows(ds.apply(tf.data.experimental.ignore_errors()))
    assert [r["__key__"] for r in rows] == [f"{i:06d}".encode() for i in range(4, 8)]


def test_shard_split_partitions_and_shuffle_reorders(shards):
    keys = lambda ds: [r["__key__"] for r in as_rows(ds)]  # noqa: E731
    parts = [keys(tga.data.webdataset(shards, FIELDS, missing_ok=True, shard=(3, i))) for i in range(3)]
    assert sorted(sum(parts, [])) == [f"{i:06d}".encode() for i in range(12)]
    assert all(len(p) == 4 for p in parts)
    ds = tga.data.webdataset(shards, FIELDS, missing_ok=True, shuffle=True, seed=3, cycle_length=1)
    epochs = [keys(ds) for _ in range(4)]
    assert all(sorted(e) == sorted(epochs[0]) for e in epochs)
    orders = {tuple(e[::4]) for e in epochs}  # the first key of each shard
    assert len(orders) > 1, "the shard order never changed in 4 epochs"
    with pytest.raises(ValueError, match="3 items cannot be split among 4"):
        tga.data.webdataset(shards, FIELDS, shard=(4, 0))


def test_brace_notation_and_globs(shards):
    root = os.path.dirname(shards[0])
    assert tga.data.expand_braces(os.path.join(root, "train-{0000..0002}.tar")) == shards
    assert tga.data.expand_braces("a-{1..3}-{x,y}") == ["a-1-x", "a-1-y", "a-2-x", "a-2-y", "a-3-x", "a-3-y"]
    by_glob = as_rows(tga.data.webdataset(os.path.join(root, "train-*.tar"), FIELDS, missing_ok=True, cycle_length=1))
    by_braces = as_rows(tga.data.webdataset(os.path.join(root, "train-{0000..0002}.tar"), FIELDS, missing_ok=True,
                                            cycle_length=1))
    assert by_glob == by_braces and len(by_glob) == 12
    with pytest.raises(ValueError, match="no tar shards"):
        tga.data.webdataset(os.path.join(root, "nothing-*.tar"))


def test_checkpoint_resumes_mid_shard(shards, tmp_path):
    """Every field after the restore equals the uninterrupted run (checked against saving the
    offset after the read-ahead member: the next sample then lost its first member)."""
    ds = tga.data.webdataset(shards, FIELDS, missing_ok=True, cycle_length=2)
    full = as_rows(ds)
    it = iter(ds)
    row = lambda x: {k: v.numpy() for k, v in x.items() if k != "__url__"}  # noqa: E731
    head = [row(next(it)) for _ in range(5)]
    saved = tf.train.Checkpoint(iterator=it).save(str(tmp_path / "ckpt"))
    rest = [row(x) for x in it]
    assert head + rest == full
    it2 = iter(ds)
    tf.train.Checkpoint(iterator=it2).restore(saved)
    assert [row(x) for x in it2] == rest


def test_reads_through_tensorflow_filesystems(shards):
    target = "ram://wds/shard-0.tar"
    tf.io.gfile.makedirs("ram://wds")
    with tf.io.gfile.GFile(target, "wb") as f:
        f.write(open(shards[2], "rb").read())
    got = as_rows(tga.data.webdataset(target, FIELDS, missing_ok=True))
    assert got == tarfile_samples(shards[2], FIELDS)


def test_bad_arguments_fail_before_reading(shards):
    with pytest.raises(ValueError, match="non-empty string"):
        tga.data.webdataset(shards, {"image": ""})
    with pytest.raises(ValueError, match="reserved"):
        tga.data.webdataset(shards, {"__key__": "jpg"})
    with pytest.raises(ValueError, match="shard index"):
        tga.data.webdataset(shards, FIELDS, shard=(2, 2))


def test_train_pipeline_from_shards_equals_files(shards, tmp_path):
    """The same images through gpu_augment, from shards and from files: equal batches."""
    names = []
    for i, data in enumerate(JPEGS):
        names.append(str(tmp_path / f"{i:06d}.jpg"))
        open(names[-1], "wb").write(data)
    transforms = [tga.RandomResizedCrop(32), tga.RandomFlip(), tga.CropMirrorNormalize(dtype=tf.float32)]
    from_files = tga.data.file_list(names, [i % 5 for i in range(12)]).batch(4).apply(
        tga.gpu_augment(transforms, seed=9, device="/cpu:0"))
    wds = tga.data.webdataset(shards, {"image": "jpg", "label": "cls"}, cycle_length=1)
    wds = wds.map(lambda s: (s["image"], tf.strings.to_number(s["label"], tf.int64)))
    from_shards = wds.batch(4).apply(tga.gpu_augment(transforms, seed=9, device="/cpu:0"))
    for (a, la), (b, lb) in zip(from_files, from_shards):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        np.testing.assert_array_equal(la.numpy(), lb.numpy())


def test_num_samples_gives_keras_a_cardinality_and_is_checked(shards):
    """Tar shards have no index: the dataset's cardinality was unknown, so Keras could not size an
    epoch (issue #34). With num_samples it is known, and a wrong count raises when reached."""
    assert tga.data.webdataset(shards).cardinality().numpy() == tf.data.UNKNOWN_CARDINALITY
    ds = tga.data.webdataset(shards, num_samples=12)
    assert ds.cardinality().numpy() == 12 and len(list(ds)) == 12
    assert ds.batch(5).cardinality().numpy() == 3
    with pytest.raises(tf.errors.FailedPreconditionError, match="expected to contain 10 elements"):
        list(tga.data.webdataset(shards, num_samples=10))
    with pytest.raises(ValueError, match="num_samples"):
        tga.data.webdataset(shards, num_samples=12, shard=(2, 0))
