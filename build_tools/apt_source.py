"""Debian source tarballs fetched through apt's own client and checked against known digests,
for the libraries the build compiles itself (libjpeg_turbo.py, libtiff.py)."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess


def fetch(downloads: str, source_dir_variable: str, package: str, tarballs: dict[str, str]) -> dict[str, str]:
    """The tarballs' paths (name -> sha256 in `tarballs`), from the folder the environment
    variable `source_dir_variable` names when it is set (an offline build), else from
    `downloads`, where `apt-get source --download-only package` puts what is missing (it needs
    deb-src entries; scripts/apt_setup.sh adds them). Every file is checked against its digest."""
    source_dir = os.environ.get(source_dir_variable)
    folder = source_dir or downloads
    missing = [n for n in tarballs if not os.path.exists(os.path.join(folder, n))]
    if missing and source_dir:
        raise RuntimeError(f"{os.path.join(source_dir, missing[0])} not found")
    if missing:
        if shutil.which("apt-get") is None:
            raise RuntimeError(f"apt-get not found; set {source_dir_variable}")
        os.makedirs(downloads, exist_ok=True)
        done = subprocess.run(["apt-get", "source", "--download-only", "-qq", package],
                              cwd=downloads, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"apt-get source {package} failed (are deb-src entries configured? see "
                               f"scripts/apt_setup.sh): {done.stderr.strip()}")
    paths = {}
    for name, digest in tarballs.items():
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != digest:
                raise RuntimeError(f"{path}: sha256 mismatch")
        paths[name] = path
    return paths
