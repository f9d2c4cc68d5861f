"""Writes the seed corpus shared by both fuzzers: small valid JPEG and PNG files of every
kind the tests generate (baseline, progressive, 4:4:4/4:2:2/4:2:0, grey, CMYK, EXIF
orientations, restart markers; PNG grey/RGB/RGBA/palette+tRNS/16-bit/Adam7; WebP lossy,
lossless, alpha, EXIF, animated; GIF interlaced, transparent, animated; BMP, PNM, TIFF and
JPEG 2000 as Pillow writes them), each behind
4 knob bytes that choose the op and its options, plus a few truncated and bit-flipped
variants, and seeds whose headers sit at the decoders' limits (limit_images). Needs Pillow.

    python fuzz/make_corpus.py OUT_DIR               # one corpus
    python fuzz/make_corpus.py --by-format OUT_DIR   # OUT_DIR/<format>/ for each per-format target
"""
from __future__ import annotations

import io
import os
import struct
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
    for subsampling in (0, 2):  # a marker after every MCU: windows cut columns (jpeg_restart.h)
        buf = io.BytesIO()
        Image.fromarray(rgb).save(buf, "JPEG", quality=80, subsampling=subsampling, restart_marker_blocks=1)
        out[f"jpeg_restart_blocks_{subsampling}.jpg"] = buf.getvalue()
    out.update(webp_images())
    out.update(other_format_images())
    out.update(limit_images())
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


def limit_images() -> dict[str, bytes]:
    """Headers at and just past the limits the decoders enforce (docs/formats.md), and at the
    sizes their libraries allocate from: samples per pixel, bits, strip and tile sizes, JPEG 2000
    components and tiles, frame counts, colour tables, maxval, screen and canvas sizes."""
    def save(img, fmt, **kw) -> bytes:
        buf = io.BytesIO()
        img.save(buf, fmt, **kw)
        return buf.getvalue()
    tiny = Image.fromarray(fixtures.photo(4, 5, 3, seed=11))
    out = {
        "limit_tiff_spp8.tif": fixtures.crafted_tiff(4, 4, 8, extra=7, data=bytes(128)),
        "limit_tiff_spp9.tif": fixtures.crafted_tiff(4, 4, 9, extra=8, data=bytes(144)),
        "limit_tiff_spp65535.tif": fixtures.crafted_tiff(65535, 900, 65535, extra=65534),
        "limit_tiff_bits16.tif": fixtures.crafted_tiff(4, 4, 1, bits=16, data=bytes(32)),
        "limit_tiff_bits17.tif": fixtures.crafted_tiff(4, 4, 1, bits=17, data=bytes(40)),
        "limit_tiff_strip_256mb.tif": fixtures.crafted_tiff(16384, 4097, 4, photometric=2, extra=1,
                                                            compression=5),
        "limit_tiff_tile_huge.tif": fixtures.crafted_tiff(64, 64, 3, photometric=2, tile=65536 - 16),
        "limit_tiff_tile_16.tif": fixtures.crafted_tiff(40, 24, 3, photometric=2, tile=16, data=bytes(768)),
        "limit_tiff_cielab.tif": fixtures.crafted_tiff(4, 4, 3, photometric=8, data=bytes(48)),
        "limit_tiff_palette_no_map.tif": fixtures.crafted_tiff(4, 4, 1, photometric=3, data=bytes(16)),
        "limit_j2k_4_components.j2k": fixtures.crafted_j2k(16, 16, 16, 4),
        "limit_j2k_5_components.j2k": fixtures.crafted_j2k(16, 16, 16, 5),
        "limit_j2k_8192_tiles.j2k": fixtures.crafted_j2k(128, 64, 1, 1),
        "limit_j2k_8193_tiles.j2k": fixtures.crafted_j2k(8193, 1, 1, 1),
        "limit_jp2_16384_components.jp2": fixtures.crafted_jp2(fixtures.crafted_j2k(255, 255, 1, 16384)),
        "limit_gif_256_colours.gif": save(Image.fromarray(fixtures.photo(16, 16, 3, seed=12)).quantize(256), "GIF"),
        "limit_gif_64_frames.gif": save(tiny.quantize(4), "GIF", save_all=True, duration=10,
                                        append_images=[tiny.rotate(90 * i).quantize(4) for i in range(63)]),
        "limit_webp_32_frames.webp": save(tiny, "WEBP", save_all=True, duration=10, lossless=True,
                                          append_images=[tiny.rotate(90 * i) for i in range(31)]),
        "limit_pnm_maxval65535.pgm": b"P5 2 2 65535\n" + bytes(8),
        "limit_pnm_maxval65536.pgm": b"P5 2 2 65536\n" + bytes(8),
        "limit_pnm_huge.ppm": b"P6 65535 65535 255\n" + bytes(64),
        "limit_png_huge.png": fixtures.with_png_size(fixtures.png_bytes(fixtures.photo(4, 4)), 65535, 65535),
        "limit_jpeg_huge.jpg": fixtures.with_jpeg_size(fixtures.jpeg_bytes(fixtures.photo(8, 8)), 65500, 65500),
    }
    gif = bytearray(out["limit_gif_256_colours.gif"])
    gif[6:10] = b"\xff\xff\xff\xff"  # a 65535 x 65535 screen around a 16 x 16 frame
    out["limit_gif_huge_screen.gif"] = bytes(gif)
    palette = b"".join(bytes([i, 255 - i, i // 2, 0]) for i in range(256))
    for colours, name in ((256, "limit_bmp_rle8_256.bmp"), (257, "limit_bmp_rle8_257.bmp")):
        stream = bytes([4, 9, 0, 0, 0, 3, 1, 2, 3, 0, 0, 0, 2, 1, 1, 4, 7, 0, 1])
        info = struct.pack("<IiiHHIIiiII", 40, 4, 3, 1, 8, 1, len(stream), 0, 0, colours, 0)
        offset = 14 + 40 + len(palette)
        out[name] = b"BM" + struct.pack("<IHHI", offset + len(stream), 0, 0, offset) + info + palette + stream
    return out


def write(directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    paths = []
    for i, (name, data) in enumerate(sorted(images().items())):
        path = os.path.join(directory, f"{os.path.splitext(name)[0]}")
        with open(path, "wb") as f:
            f.write(KNOBS[i % len(KNOBS)] + data)
        paths.append(path)
    return paths


FORMATS = {"jpeg": (b"\xff\xd8\xff",), "png": (b"\x89PNG",), "gif": (b"GIF8",), "bmp": (b"BM",),
           "pnm": (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6"), "tiff": (b"II*\0", b"MM\0*", b"II+\0", b"MM\0+"),
           "jpeg2000": (b"\0\0\0\x0cjP  ", b"\xff\x4f\xff\x51"), "webp": (b"RIFF",)}


def format_of(data: bytes) -> str | None:
    """The per-format target an encoded image belongs to (by its magic bytes)."""
    for name, magics in FORMATS.items():
        if any(data.startswith(m) for m in magics):
            return name
    return None


def write_by_format(directory: str) -> dict[str, list[str]]:
    """The same seeds, split into DIRECTORY/<format>/ for the per-format targets."""
    out: dict[str, list[str]] = {name: [] for name in FORMATS}
    for i, (name, data) in enumerate(sorted(images().items())):
        fmt = format_of(data)
        if fmt is None:
            continue
        os.makedirs(os.path.join(directory, fmt), exist_ok=True)
        path = os.path.join(directory, fmt, os.path.splitext(name)[0])
        with open(path, "wb") as f:
            f.write(KNOBS[i % len(KNOBS)] + data)
        out[fmt].append(path)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "--by-format":
        written = write_by_format(sys.argv[2])
        print("wrote", {k: len(v) for k, v in written.items()}, "to", sys.argv[2])
    else:
        print(f"wrote {len(write(sys.argv[1]))} seeds to {sys.argv[1]}")
