"""build_tools/object_cache.py: the key names what a compile reads (the source, the headers it
reaches through quoted and angled includes, forced includes, flags, the build tools) and not
where the checkout lies; objects round-trip; the least recently used go past the limit; off
when unset."""
import importlib.util
import os
import shutil
import subprocess

import pytest

# By path: the suite imports the installed package, and build_tools is not on sys.path.
_spec = importlib.util.spec_from_file_location(
    "object_cache", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build_tools",
                                 "object_cache.py"))
object_cache = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(object_cache)


def _checkout(root, header="int h();\n", source='#include "cc/kernels/a.h"\nint f() { return 1; }\n'):
    (root / "cc" / "kernels").mkdir(parents=True)
    (root / "build_tools").mkdir()
    (root / "cc" / "kernels" / "a.h").write_text('#include "b.h"\n' + header)  # b.h: beside it
    (root / "cc" / "kernels" / "b.h").write_text("#include <emu.h>\nint b();\n")
    (root / "cc" / "emu").mkdir()
    (root / "cc" / "emu" / "emu.h").write_text("int e();\n")  # through -I cc/emu
    (root / "cc" / "kernels" / "unused.h").write_text("int u();\n")
    (root / "cc" / "kernels" / "a.cc").write_text(source)
    (root / "build_tools" / "tool.py").write_text("FLAGS = 1\n")
    (root / "pch.h").write_text("#include <vector>\n")
    return root


def _key(monkeypatch, root, extra=()):
    """The key of compiling root's a.cc as native_build words it, with root as the checkout."""
    monkeypatch.setattr(object_cache, "ROOT", str(root))
    object_cache._environment_digest.cache_clear()
    object_cache._scan.cache_clear()
    src = str(root / "cc" / "kernels" / "a.cc")
    obj = str(root / "build" / "obj" / "a.cc.o")
    cmd = ["g++", "-c", src, "-o", obj, "-O3", f"-ffile-prefix-map={root}/=", f"-I{root}", f"-I{root}/cc/emu",
           "-include", str(root / "pch.h"), *extra]
    return object_cache.key(cmd, src, obj)


def test_key_ignores_the_checkouts_path_and_follows_what_the_compile_reads(tmp_path, monkeypatch):
    a = _key(monkeypatch, _checkout(tmp_path / "one"))
    assert a == _key(monkeypatch, _checkout(tmp_path / "elsewhere" / "two"))
    assert a != _key(monkeypatch, _checkout(tmp_path / "header", header="int h(int);\n"))
    assert a != _key(monkeypatch, _checkout(tmp_path / "source", source='#include "cc/kernels/a.h"\nint f();\n'))
    for name, path in [("nested", "cc/kernels/b.h"), ("angled", "cc/emu/emu.h"), ("unused", "cc/kernels/unused.h")]:
        changed = _checkout(tmp_path / name)
        (changed / path).write_text("int changed();\n")
        assert (a == _key(monkeypatch, changed)) == (name == "unused"), name
    assert a != _key(monkeypatch, tmp_path / "one", extra=["-DX=1"])
    forced = _checkout(tmp_path / "forced")
    (forced / "pch.h").write_text("#include <map>\n")
    assert a != _key(monkeypatch, forced)
    named = [_checkout(tmp_path / name, source=f'#line 1 "{tmp_path / name}/cc/kernels/a.cu.cc"\nint f();\n')
             for name in ("emu1", "emu2")]  # an emulated CUDA source names its original
    assert _key(monkeypatch, named[0]) == _key(monkeypatch, named[1])
    tool = _checkout(tmp_path / "tool")
    (tool / "build_tools" / "tool.py").write_text("FLAGS = 2\n")
    assert a != _key(monkeypatch, tool)


def test_store_fetch_and_prune(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv(object_cache.ENV_VAR, str(cache))
    obj = tmp_path / "a.o"
    keys = [f"{i:02x}" + "0" * 62 for i in range(3)]
    for i, k in enumerate(keys):
        obj.write_bytes(bytes([i]) * (600 << 10))  # 0.6 MB each
        object_cache.store(k, str(obj))
        os.utime(object_cache._entry(str(cache), k), (1000 + i, 1000 + i))
    out = tmp_path / "out.o"
    assert object_cache.fetch(keys[0], str(out)) and out.read_bytes() == bytes([0]) * (600 << 10)
    assert not object_cache.fetch("ff" * 32, str(out))
    monkeypatch.setenv("TFGPUAUG_OBJECT_CACHE_MAX_MB", "1")
    object_cache.prune()  # keys[0] was just used: keys[1], the oldest, goes first, then keys[2]
    left = sorted(p.name[:2] for p in cache.glob("*/*.o"))
    assert left == ["00"], left


def test_off_when_unset(tmp_path, monkeypatch):
    monkeypatch.delenv(object_cache.ENV_VAR, raising=False)
    obj = tmp_path / "a.o"
    obj.write_bytes(b"x")
    object_cache.store("00" * 32, str(obj))
    assert not object_cache.fetch("00" * 32, str(obj))
    assert object_cache.cache_dir() is None


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_objects_compiled_in_two_checkouts_are_identical(tmp_path):
    """-ffile-prefix-map takes the checkout out of the object, debug info and __FILE__ included,
    so an object from the cache is the one this checkout would compile."""
    objects = []
    for name in ("one", "two"):
        root = _checkout(tmp_path / name, source='const char* f() { return __FILE__; }\n')
        obj = root / "a.o"
        subprocess.run(["g++", "-c", str(root / "cc" / "kernels" / "a.cc"), "-o", str(obj), "-g", "-O1",
                        f"-ffile-prefix-map={root}{os.sep}="], check=True)
        objects.append(obj.read_bytes())
    assert objects[0] == objects[1]
    assert b"cc/kernels/a.cc" in objects[0] and str(tmp_path).encode() not in objects[0]
