"""Fuzzing in CI: the seed corpus and recorded findings replay cleanly, and short runs of
both fuzzers (atheris over the Python ops, libFuzzer + ASan/UBSan over cc/kernels: one target
over every format and one per format with its dictionary and its seeds at the limits) find
nothing. Every input must decode or raise InvalidArgumentError; under libFuzzer an allocation
over 512 MB (-malloc_limit_mb) is a finding too."""
import glob
import importlib.util
import os
import re
import resource
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "fuzz")
sys.path.insert(0, FUZZ)
import make_corpus  # noqa: E402
import targets  # noqa: E402

REGRESSIONS = sorted(f for f in glob.glob(os.path.join(FUZZ, "regressions", "*")) if not f.endswith(".md"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("corpus")
    make_corpus.write(str(folder))
    return folder


def test_seed_corpus_and_regressions_replay(corpus):
    files = sorted(glob.glob(str(corpus / "*"))) + REGRESSIONS
    assert len(files) >= 19
    for path in files:
        with open(path, "rb") as f:
            targets.run_one(f.read())  # raises on anything but InvalidArgumentError


def test_targets_reach_every_op(corpus):
    # The knobs choose among 5 ops; the seeds must cover them all, or the fuzzers miss some.
    knobs = {(open(p, "rb").read()[0] >> 2) % 5 for p in glob.glob(str(corpus / "*"))}
    assert knobs == {0, 1, 2, 3, 4}


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
def test_atheris_short_run(corpus, tmp_path):
    work = tmp_path / "corpus"
    shutil.copytree(corpus, work)
    run = subprocess.run([sys.executable, os.path.join(FUZZ, "fuzz_ops.py"), "-runs=4000", "-seed=1",
                          "-max_len=8192", rss_limit(), str(work)], capture_output=True, text=True, cwd=tmp_path,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    # libFuzzer stops at the first check after -runs is reached, so it may report a few more
    # (4002 was reported in one CI run).
    done = re.search(r"Done (\d+) runs", run.stderr)
    assert done and 4000 <= int(done.group(1)) <= 4100, run.stderr[-2000:]


def _libfuzzer_available() -> bool:
    clang = shutil.which("clang++")
    if clang is None:
        return False
    probe = subprocess.run([clang, "-print-file-name=libclang_rt.fuzzer-x86_64.a"],
                           capture_output=True, text=True).stdout.strip()
    return os.path.isabs(probe) and os.path.exists(probe)


@pytest.fixture(scope="module")
def libfuzzer_targets():
    if not _libfuzzer_available():
        pytest.skip("clang with libFuzzer runtime not installed")
    build = subprocess.run(["bash", os.path.join(FUZZ, "build_libfuzzer.sh")], capture_output=True,
                           text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-4000:]
    return os.path.join(ROOT, "build", "fuzz")


def rss_limit() -> str:
    """libFuzzer's -rss_limit_mb of 2048 MB above what the fuzzer inherits: Linux keeps a
    process's peak RSS across fork and exec, and libFuzzer reads that peak, so a fuzzer started
    from a pytest worker that once held 3 GB reported 3239 MB at its first input and stopped
    as out of memory (all ten fuzz tests of one full run)."""
    inherited_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return f"-rss_limit_mb={2048 + inherited_mb}"


LIMITS = ["-malloc_limit_mb=512", "-timeout=20"]


def test_libfuzzer_asan_short_run(corpus, tmp_path, libfuzzer_targets):
    binary = os.path.join(libfuzzer_targets, "decode_fuzzer")
    work = tmp_path / "corpus"
    shutil.copytree(corpus, work)
    if REGRESSIONS:
        replay = subprocess.run([binary] + REGRESSIONS, capture_output=True, text=True, timeout=300)
        assert replay.returncode == 0, replay.stderr[-4000:]
    run = subprocess.run([binary, "-max_total_time=15", "-seed=1", "-max_len=16384", *LIMITS, rss_limit(), str(work)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "Done" in run.stderr


def test_every_format_has_a_target_dictionary_and_limit_seeds(tmp_path):
    written = make_corpus.write_by_format(str(tmp_path))
    assert sorted(written) == sorted(os.path.splitext(f)[0] for f in os.listdir(os.path.join(FUZZ, "dict")))
    for fmt, paths in written.items():
        assert len(paths) >= 5, (fmt, paths)
    limits = {os.path.basename(p) for paths in written.values() for p in paths if "limit_" in p}
    assert {"limit_tiff_spp65535", "limit_j2k_8193_tiles", "limit_jp2_16384_components",
            "limit_gif_huge_screen", "limit_bmp_rle8_257", "limit_pnm_maxval65536"} <= limits


@pytest.mark.parametrize("fmt", sorted(make_corpus.FORMATS))
def test_libfuzzer_per_format_short_run(fmt, tmp_path, libfuzzer_targets):
    """Each format's target from its seeds (the limit seeds among them) with its dictionary."""
    work = tmp_path / fmt
    make_corpus.write_by_format(str(tmp_path))
    run = subprocess.run([os.path.join(libfuzzer_targets, f"decode_fuzzer_{fmt}"), "-max_total_time=5", "-seed=1",
                          "-max_len=16384", f"-dict={os.path.join(FUZZ, 'dict', fmt + '.dict')}", *LIMITS,
                          rss_limit(), str(work)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "Done" in run.stderr and "ParseDictionaryFile: error" not in run.stderr
