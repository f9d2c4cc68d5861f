"""The README's main job runs end to end and writes a PNG preview grid of the expected size."""
import os
import subprocess
import sys

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_demo_writes_preview_grid(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tfgpuaug.demo", f"--out={tmp_path}", "--tile=64"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    sheet = np.asarray(Image.open(tmp_path / "augmented.png"))
    assert sheet.shape == (6 * 64, 6 * 64, 3)  # 6 rows: the original, then 5 augmented versions
    tiles = sheet.reshape(6, 64, 6, 64, 3).astype(np.float32)
    assert sheet.std() > 10  # not blank
    # Each augmented version differs from the others (different seeds per pipeline run).
    assert all(np.abs(tiles[:, :, k] - tiles[:, :, k + 1]).mean() > 1 for k in range(1, 5))
