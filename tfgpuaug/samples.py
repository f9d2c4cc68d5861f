"""Sample images the project makes itself (for the demo and quick benchmarks): an image
folder with class sub-folders, JPEG (baseline and progressive-free) and PNG files."""
from __future__ import annotations

import os

import numpy as np
import tensorflow as tf

CLASSES = ("circles", "stripes", "checkers")


def _pattern(kind: str, height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    hue = rng.uniform(0, 2 * np.pi)
    colour = 127 + 100 * np.cos(hue + np.array([0, 2.1, 4.2], np.float32))
    if kind == "circles":
        cy, cx = rng.uniform(0.3, 0.7, 2) * (height, width)
        mask = np.sin(np.hypot(y - cy, x - cx) / rng.uniform(4, 12)) > 0
    elif kind == "stripes":
        angle = rng.uniform(0, np.pi)
        mask = np.sin((x * np.cos(angle) + y * np.sin(angle)) / rng.uniform(3, 10)) > 0
    else:
        size = rng.integers(8, 32)
        mask = ((y // size + x // size) % 2) == 0
    img = np.where(mask[..., None], colour, 255 - colour)
    img = img + rng.normal(0, 8, img.shape) + 40 * (y / height)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def make_sample_images(directory: str, per_class: int = 8, seed: int = 0) -> list[str]:
    """Writes `per_class` images of each class to directory/<class>/; returns the paths."""
    rng = np.random.default_rng(seed)
    paths = []
    for label, kind in enumerate(CLASSES):
        os.makedirs(os.path.join(directory, kind), exist_ok=True)
        for i in range(per_class):
            h, w = (int(v) for v in rng.integers(160, 480, 2))
            img = _pattern(kind, h, w, rng)
            png = i % 4 == 3
            data = tf.io.encode_png(img) if png else tf.io.encode_jpeg(img, quality=90)
            path = os.path.join(directory, kind, f"{kind}_{i:03d}.{'png' if png else 'jpg'}")
            tf.io.write_file(path, data)
            paths.append(path)
    return paths
