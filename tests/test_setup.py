"""The README's set-up on a machine without the system packages (issue #33): bootstrap stops at
once, before any download or compile, naming each missing header and the one command that
installs them; as root it runs that command itself (what CI's fresh machine exercises)."""
import os
import shutil
import subprocess
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _as_a_user(cmd):
    """The command as an ordinary user when this runs as root and setpriv exists (a user cannot
    apt-get, so bootstrap must stop and say what to run)."""
    if os.geteuid() == 0 and shutil.which("setpriv"):
        return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    return cmd


def test_bootstrap_stops_at_once_naming_what_is_missing(tmp_path):
    env = dict(os.environ, TFGPUAUG_SYSROOT=str(tmp_path), TFGPUAUG_JPEG_V3="1")
    venv_before = os.path.exists(os.path.join(ROOT, ".venv"))
    start = time.monotonic()
    run = subprocess.run(_as_a_user(["bash", os.path.join(ROOT, "scripts", "bootstrap.sh")]), env=env,
                         capture_output=True, text=True, timeout=60)
    took = time.monotonic() - start
    assert run.returncode == 1, run.stdout + run.stderr
    for header in ("jpeglib.h", "png.h", "webp/demux.h", "gif_lib.h", "tiffio.h", "openjpeg.h"):
        assert header in run.stderr, run.stderr
    assert "sudo bash scripts/apt_setup.sh" in run.stderr
    assert "error:" not in run.stderr and run.stdout == ""  # no compiler ran
    assert took < 10, took
    assert os.path.exists(os.path.join(ROOT, ".venv")) == venv_before  # nothing was created


def test_check_system_finds_nothing_missing_on_a_set_up_machine():
    """The build machine itself (set up by scripts/apt_setup.sh): nothing reported, so bootstrap
    goes on; a header reported here would stop every set-up."""
    if not os.path.exists("/usr/include/gif_lib.h"):
        pytest.skip("this machine was not set up with scripts/apt_setup.sh")
    run = subprocess.run(["bash", os.path.join(ROOT, "scripts", "check_system.sh")], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == "", run.stdout


# Sonames the wheel may bundle -> their licence file in third_party/licenses; glibc, the GCC
# runtime and TensorFlow are never bundled (auditwheel's policy and --exclude).
LICENCE_OF = {
    "libjpeg": "libjpeg-turbo", "libpng16": "libpng", "libwebp": "libwebp", "libwebpdemux": "libwebp",
    "libgif": "giflib", "libtiff": "libtiff", "libopenjp2": "openjpeg", "libz": "zlib", "libzstd": "zstd",
    "liblzma": "xz-liblzma", "libLerc": "lerc", "libjbig": "jbigkit", "libdeflate": "libdeflate",
}
NEVER_BUNDLED = ("libc", "libm", "libstdc++", "libgcc_s", "libpthread", "libdl", "librt", "ld-linux",
                 "linux-vdso", "libtensorflow")


def test_every_library_the_op_library_links_has_its_licence_listed():
    """A new dependency (a codec, or a library one of them pulls in) without its licence file
    fails here before a wheel ships it without one."""
    import glob
    libs = glob.glob(os.path.join(ROOT, "tfgpuaug", "_tfgpuaug_ops*.so"))
    if not libs or not shutil.which("ldd"):
        pytest.skip("op library not built in the checkout")
    out = subprocess.run(["ldd", libs[0]], capture_output=True, text=True, check=True).stdout
    sonames = [line.split()[0] for line in out.splitlines() if line.strip()]
    for soname in sonames:
        stem = soname.split(".so")[0]
        if stem.startswith(NEVER_BUNDLED) or stem.startswith("/"):
            continue
        assert stem in LICENCE_OF, f"{soname}: no licence listed in third_party/licenses (add it, and to LICENCE_OF)"
        assert os.path.exists(os.path.join(ROOT, "third_party", "licenses", LICENCE_OF[stem] + ".txt"))
    assert os.path.exists(os.path.join(ROOT, "LICENSE"))
    from tfgpuaug import _build_info
    if getattr(_build_info, "TIFF_STATIC", False):  # libtiff inside, built without JBIG-KIT (GPL-2+)
        assert not any(s.startswith(("libjbig", "libtiff")) for s in sonames), sonames
        nm = subprocess.run(["nm", "-D", "--defined-only", libs[0]], capture_output=True, text=True).stdout
        assert " TIFFOpen" not in nm and " TIFFClientOpen" not in nm  # kept inside (--exclude-libs)
        undefined = subprocess.run(["nm", "-D", "--undefined-only", libs[0]], capture_output=True, text=True).stdout
        assert "jbg_" not in undefined
