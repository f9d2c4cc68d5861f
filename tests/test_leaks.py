"""Resident memory stays flat over many batches of the train pipeline and of the augment
op (scripts/leak_check.py, quick mode: 64x64 outputs, 4 images per batch). A leak of one
64x64 RGB uint8 image per batch would add about 10 MB over the measured span; the bound
is 5 MB."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_rss_stays_flat():
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "leak_check.py"), "--quick",
                          "--batches=1000", "--max_growth_mb=5"], capture_output=True, text=True,
                         timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stdout.strip().endswith("flat")
