"""Writes the seed corpus shared by both fuzzers: small valid JPEG and PNG files of every
kind the tests generate (baseline, progressive, 4:4:4/4:2:2/4:2:0, grey, CMYK, EXIF
orientations, restart markers; PNG grey/RGB/RGBA/palette+tRNS/16-bit/Adam7; WebP lossy,
lossless, alpha, EXIF, animated; GIF interlaced, transparent, animated; BMP, PNM, TIFF and
JPEG 2000 as Pillow writes them), each behind
4 knob bytes that choose the op and its options, plus a few truncated and bit-flipped
variants. Needs Pillow.

    python fuzz/make_corpus.py OUT_DIR
"""
from __future__ import annotations

import io
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import fixtures  # noqa: E402

KNOBS = (b"\x00\x00\x00\x00", b"\x05\x31\x47\x10", b"\x46\x13\x02\x20", b"\x81\x22\x95\x9f",
         b"\xc3\x7f\xff\x5a", b"\x09\x01\x80\x00", b"\x12\x21\x33\x74", b"\x13\x40\x07\x0c")


def images() -> dict[str, bytes]:
    rgb = fixtures.photo(37, 45, 3, seed=1)
    out = {
        "jpeg_420.jpg": fixtures.jpeg_bytes(rgb, subsampling=2),
        "jpeg_422.jpg": fixtures.jpeg_bytes(rgb, subsampling=1),
        "jpeg_444.jpg": fixtures.jpeg_bytes(rgb, subsampling=0),
        "jpeg_progressive.jpg": fixtures.jpeg_bytes(rgb, progressive=True),
        "jpeg_gray.jpg": fixtures.jpeg_bytes(rgb, mode="L"),
        "jpeg_cmyk.jpg": fixtures.jpeg_bytes(rgb, mode="CMYK"),
        "jpeg_exif6.jpg": fixtures.jpeg_bytes(rgb, exif=fixtures.exif_with_orientation(6)),
        "jpeg_exif3.jpg": fixtures.jpeg_bytes(rgb, exif=fixtures.exif_with_orientation(3)),
        "png_rgb.png": fixtures.pil_png_bytes(Image.fromarray(rgb)),
        "png_rgba.png": fixtures.pil_png_bytes(Image.fromarray(fixtures.photo(20, 17, 4, seed=2))),
        "png_gray.png": fixtures.pil_png_bytes(Image.fromarray(rgb[..., 0])),
        "png_palette_trns.png": fixtures.pil_png_bytes(
            Image.fromarray(rgb).quantize(16), transparency=3),
        "png_16bit.png": fixtures.png_bytes(fixtures.photo(13, 11, 3, seed=3).astype(np.uint16) * 257,
                                            bit_depth=16),
        "png_interlaced.png": fixtures.png_bytes(fixtures.photo(19, 23, 3, seed=4), interlace=True),
    }
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", quality=80, restart_marker_rows=1)
    out["jpeg_restart.jpg"] = buf.getvalue()
    out.update(webp_images())
    out.update(other_format_images())
    paletted = Image.fromarray(rgb).quantize(32)
    for name, kw in {"gif_interlaced.gif": dict(interlace=True), "gif_transparent.gif": dict(transparency=2),
                     "gif_animated.gif": dict(save_all=True, append_images=[paletted.rotate(90)], duration=30)}.items():
        buf = io.BytesIO()
        paletted.save(buf, "GIF", **kw)
        out[name] = buf.getvalue()
    rng = np.random.default_rng(0)
    for name in ("jpeg_420.jpg", "png_rgb.png", "webp_lossy.webp", "webp_lossless.webp", "gif_interlaced.gif",
                 "bmp_rgb.bmp", "tiff_lzw.tif", "jp2_rgb.jp2"):
        data = out[name]
        out[f"truncated_{name}"] = data[: len(data) * 2 // 3]
        flipped = bytearray(data)
        for i in rng.integers(2, len(data), 4):
            flipped[i] ^= 1 << int(rng.integers(0, 8))
        out[f"flipped_{name}"] = bytes(flipped)
    return out


def webp_images() -> dict[str, bytes]:
    """Lossy, lossless, lossy with alpha, EXIF-rotated and animated WebP (libwebp via Pillow)."""
    def save(img, **kw) -> bytes:
        buf = io.BytesIO()
        img.save(buf, "WEBP", **kw)
        return buf.getvalue()
    rgb = Image.fromarray(fixtures.photo(29, 35, 3, seed=5))
    rgba = Image.fromarray(fixtures.photo(21, 19, 4, seed=6))
    frames = [Image.fromarray(fixtures.photo(16, 20, 3, seed=s)) for s in (7, 8)]
    return {"webp_lossy.webp": save(rgb, quality=70), "webp_lossless.webp": save(rgb, lossless=True),
            "webp_alpha.webp": save(rgba, quality=80),
            "webp_exif6.webp": save(rgb, quality=70, exif=fixtures.exif_with_orientation(6)),
            "webp_animated.webp": save(frames[0], save_all=True, append_images=frames[1:], duration=50)}


def other_format_images() -> dict[str, bytes]:
    """BMP (24-bit, palette, gray), PNM (P4, P5, P6, plain P3), TIFF (raw, LZW, deflate, G4,
    palette, 16-bit gray, JPEG) and JPEG 2000 (JP2, tiled J2K), as Pillow writes them."""
    def save(img, fmt, **kw) -> bytes:
        buf = io.BytesIO()
        img.save(buf, fmt, **kw)
        return buf.getvalue()
    rgb = Image.fromarray(fixtures.photo(19, 23, 3, seed=9))
    gray = Image.fromarray(fixtures.photo(17, 13, 1, seed=10)[..., 0])
    return {
        "bmp_rgb.bmp": save(rgb, "BMP"), "bmp_palette.bmp": save(rgb.quantize(16), "BMP"),
        "bmp_gray.bmp": save(gray, "BMP"),
        "pnm_p4.pbm": save(gray.convert("1"), "PPM"), "pnm_p5.pgm": save(gray, "PPM"),
        "pnm_p6.ppm": save(rgb, "PPM"), "pnm_plain.ppm": b"P3\n# c\n2 2\n1000\n0 1 2 3 4 5\n6 7 8 999 998 997\n",
        "tiff_raw.tif": save(rgb, "TIFF"), "tiff_lzw.tif": save(rgb, "TIFF", compression="tiff_lzw"),
        "tiff_deflate.tif": save(rgb, "TIFF", compression="tiff_adobe_deflate"),
        "tiff_g4.tif": save(gray.convert("1"), "TIFF", compression="group4"),
        "tiff_palette.tif": save(rgb.quantize(8), "TIFF"),
        "tiff_gray16.tif": save(Image.fromarray(np.asarray(gray).astype(np.uint16) * 257), "TIFF"),
        "tiff_jpeg.tif": save(rgb, "TIFF", compression="jpeg"),
        "jp2_rgb.jp2": save(rgb, "JPEG2000"), "j2k_tiled.j2k": save(rgb, "JPEG2000", no_jp2=True, tile_size=(8, 8)),
    }


def write(directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    paths = []
    for i, (name, data) in enumerate(sorted(images().items())):
        path = os.path.join(directory, f"{os.path.splitext(name)[0]}")
        with open(path, "wb") as f:
            f.write(KNOBS[i % len(KNOBS)] + data)
        paths.append(path)
    return paths


if __name__ == "__main__":
    print(f"wrote {len(write(sys.argv[1]))} seeds to {sys.argv[1]}")
