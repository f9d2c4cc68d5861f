"""A content-addressed cache of compiled objects, shared by every checkout on one machine.

Off unless TFGPUAUG_OBJECT_CACHE names a directory (.ci/run sets it, so that CI's clean clones
compile only what changed since the last run, as Bazel's own cache does for scripts/bazel_build.sh).

An object is looked up by a hash of everything its compile reads: the compiler's identity
(its --version), the command with the checkout's root and the object's path taken out, the
source and every file of the checkout it includes, directly or through other headers (quoted
and angled includes resolved against the source's folder and the command's include folders;
every match is hashed, not only the first), the build tools' own code (which pins the
versions of what they fetch under build/), the versions of the Python distributions whose
headers compiles read (TensorFlow, pybind11, numpy, nvidia-*) and of the system's packages.
The virtual environment and build/cuda12 are left to those versions rather than scanned.
Objects are compiled with -ffile-prefix-map, so they name no checkout and any checkout may
reuse them.
"""
from __future__ import annotations

import functools
import glob
import hashlib
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV_VAR = "TFGPUAUG_OBJECT_CACHE"
# Least recently used entries go once the cache grows past this (TFGPUAUG_OBJECT_CACHE_MAX_MB).
DEFAULT_MAX_MB = 3000


def cache_dir() -> str | None:
    path = os.environ.get(ENV_VAR, "").strip()
    return os.path.abspath(os.path.expanduser(path)) if path else None


@functools.lru_cache(maxsize=None)
def _compiler_identity(compiler: str) -> str:
    out = subprocess.run([compiler, "--version"], capture_output=True, text=True)
    return out.stdout + out.stderr


@functools.lru_cache(maxsize=1)
def _environment_digest() -> str:
    """What every compile may read besides the checkout's sources."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    # The distributions whose headers a compile reads (TensorFlow's, pybind11's, nvJPEG's), not
    # every installed one: a test-only package must not empty the cache.
    names = (d.metadata["Name"] or "" for d in importlib.metadata.distributions())
    dists = sorted(f"{n}=={importlib.metadata.version(n)}" for n in set(names) if _reads_headers_of(n))
    h.update("\n".join(dists).encode())
    if shutil.which("dpkg-query"):
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\n"], capture_output=True, text=True)
        h.update(out.stdout.encode())
    for path in sorted(glob.glob(os.path.join(ROOT, "build_tools", "*.py"))):
        if os.path.basename(path) == "object_cache.py":  # finds objects, makes none
            continue
        h.update(path[len(ROOT):].encode())
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)


@functools.lru_cache(maxsize=None)
def _scan(path: str) -> tuple[bytes, tuple[tuple[bool, str], ...]]:
    """A file's digest and its includes as (quoted, name). The checkout's path is taken out of the
    text first: an emulated CUDA source names its original by a #line, which -ffile-prefix-map
    takes out of the object too."""
    with open(path, "rb") as f:
        text = f.read().replace(ROOT.encode() + b"/", b"@ROOT@/")
    return hashlib.sha256(text).digest(), tuple((q == b'"', n.decode()) for q, n in _INCLUDE.findall(text))


def _in_checkout(path: str) -> bool:
    skipped = (os.path.join(ROOT, ".venv") + os.sep, os.path.join(ROOT, "build", "cuda12") + os.sep)
    return path.startswith(ROOT + os.sep) and not path.startswith(skipped)


def _include_dirs(cmd: list[str]) -> list[str]:
    dirs = [ROOT]
    for i, arg in enumerate(cmd):
        for flag in ("-I", "-idirafter", "-isystem"):
            if arg == flag and i + 1 < len(cmd):
                dirs.append(cmd[i + 1])
            elif arg.startswith(flag) and len(arg) > len(flag):
                dirs.append(arg[len(flag):])
    return [os.path.abspath(d) for d in dirs]


def _closure(files: list[str], dirs: list[str]) -> dict[str, bytes]:
    """Digests of files and of every file of the checkout they include, transitively."""
    seen: dict[str, bytes] = {}
    stack = [os.path.abspath(f) for f in files]
    while stack:
        path = stack.pop()
        if path in seen:
            continue
        digest, includes = _scan(path)
        seen[path] = digest
        for quoted, name in includes:
            for d in ([os.path.dirname(path)] if quoted else []) + dirs:
                candidate = os.path.normpath(os.path.join(d, name))
                if _in_checkout(candidate) and candidate not in seen and os.path.isfile(candidate):
                    stack.append(candidate)
    return seen


def _reads_headers_of(distribution: str) -> bool:
    name = distribution.lower().replace("_", "-")
    return name.startswith(("tensorflow", "tf-nightly", "nvidia-")) or name in ("pybind11", "numpy")


def _normalised(cmd: list[str], obj: str) -> list[str]:
    return ["@OBJ@" if arg == obj else arg.replace(ROOT, "@ROOT@") for arg in cmd]


def key(cmd: list[str], src: str, obj: str) -> str:
    """The cache key of compiling src into obj with cmd."""
    h = hashlib.sha256()
    h.update(_environment_digest().encode())
    h.update(_compiler_identity(cmd[0]).encode())
    h.update("\0".join(_normalised(cmd, obj)).encode())
    h.update(_scan(src)[0])  # the source itself wherever it lies (an emulated copy under build/)
    forced = [cmd[i + 1] for i, arg in enumerate(cmd[:-1]) if arg == "-include"]
    for path, digest in sorted(_closure([src] + forced, _include_dirs(cmd)).items()):
        h.update(path.replace(ROOT, "@ROOT@").encode() + b"\0" + digest)
    return h.hexdigest()


def _entry(directory: str, k: str) -> str:
    return os.path.join(directory, k[:2], k + ".o")


def fetch(k: str, obj: str) -> bool:
    """Copies the cached object for key k to obj; False when there is none."""
    directory = cache_dir()
    if directory is None:
        return False
    entry = _entry(directory, k)
    tmp = f"{obj}.{os.getpid()}.fetch"
    try:
        shutil.copyfile(entry, tmp)
        os.utime(entry)  # recently used
    except OSError:
        return False
    os.replace(tmp, obj)
    return True


def store(k: str, obj: str) -> None:
    directory = cache_dir()
    if directory is None:
        return
    entry = _entry(directory, k)
    os.makedirs(os.path.dirname(entry), exist_ok=True)
    tmp = f"{entry}.{os.getpid()}.tmp"
    shutil.copyfile(obj, tmp)
    os.replace(tmp, entry)  # whole objects only, for concurrent builds


def prune() -> None:
    """Removes least recently used objects until the cache is under its size limit."""
    directory = cache_dir()
    if directory is None or not os.path.isdir(directory):
        return
    limit = int(os.environ.get("TFGPUAUG_OBJECT_CACHE_MAX_MB", DEFAULT_MAX_MB)) << 20
    entries = []
    for path in glob.glob(os.path.join(directory, "*", "*.o")):
        try:
            st = os.stat(path)
        except OSError:
            continue
        entries.append((st.st_mtime, st.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        try:
            os.remove(path)
        except OSError:
            pass
        total -= size
