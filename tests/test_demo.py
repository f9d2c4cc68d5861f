"""The README's main job runs end to end and writes a PNG contact sheet of the expected size."""
import os
import subprocess
import sys

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_demo_writes_contact_sheet(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tfgpuaug.demo", f"--out={tmp_path}", "--tile=64"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    sheet = Image.open(tmp_path / "augmented.png")
    assert sheet.size == (8 * 64, 4 * 64)  # 16 originals + 16 augmented, 8 per row
    assert np.asarray(sheet).std() > 10  # not blank
