"""Test images made here: deterministic photos-like arrays, encoded by PIL or by a small
PNG writer for the variants PIL cannot write (16-bit colour, Adam7 interlacing)."""
from __future__ import annotations

import io
import os
import struct
import zlib

import numpy as np
from PIL import Image

SHARED_SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "imagenet-sample")


def photo(height: int, width: int, channels: int = 3, seed: int = 0) -> np.ndarray:
    """Smooth gradients, edges and mild noise: compresses like a photo, uint8 HWC."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    planes = []
    for c in range(channels):
        fy, fx = rng.uniform(0.01, 0.2, 2)
        base = 128 + 90 * np.sin(y * fy + c) * np.cos(x * fx - c)
        base += np.where((x + 2 * y + 7 * c) % 37 < 12, 30.0, -30.0)
        base += rng.normal(0, 6, (height, width))
        planes.append(base)
    return np.clip(np.stack(planes, -1), 0, 255).astype(np.uint8)


def jpeg_bytes(array: np.ndarray, quality: int = 90, subsampling: int = 2,
               progressive: bool = False, mode: str | None = None, exif: bytes | None = None) -> bytes:
    img = Image.fromarray(array.squeeze(-1) if array.shape[-1] == 1 else array)
    if mode is not None:
        img = img.convert(mode)
    kw = dict(quality=quality, progressive=progressive)
    if img.mode not in ("L", "CMYK"):
        kw["subsampling"] = subsampling
    if exif is not None:
        kw["exif"] = exif
    buf = io.BytesIO()
    img.save(buf, "JPEG", **kw)
    return buf.getvalue()


def exif_with_orientation(orientation: int) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def pil_png_bytes(img: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", **kw)
    return buf.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


_ADAM7 = [(0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2), (1, 0, 2, 1)]


def png_bytes(array: np.ndarray, bit_depth: int = 8, interlace: bool = False) -> bytes:
    """PNG of a [H, W, C] array (uint8, or uint16 for bit_depth 16), C in 1..4."""
    h, w, c = array.shape
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    dtype = ">u2" if bit_depth == 16 else np.uint8

    def rows(sub: np.ndarray) -> bytes:
        raw = sub.astype(dtype).reshape(sub.shape[0], -1).tobytes() if sub.size else b""
        stride = sub.shape[1] * c * (2 if bit_depth == 16 else 1)
        return b"".join(b"\x00" + raw[i * stride:(i + 1) * stride] for i in range(sub.shape[0]))

    if interlace:
        data = b"".join(rows(array[y0::dy, x0::dx]) for y0, x0, dy, dx in _ADAM7
                        if array[y0::dy, x0::dx].size)
    else:
        data = rows(array)
    ihdr = struct.pack(">IIBBBBB", w, h, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(data))
            + _chunk(b"IEND", b""))


def with_png_size(png: bytes, height: int, width: int) -> bytes:
    """The same PNG with its IHDR claiming another size (CRC recomputed)."""
    ihdr = bytearray(png[16:29])
    struct.pack_into(">II", ihdr, 0, width, height)
    return png[:8] + _chunk(b"IHDR", bytes(ihdr)) + png[33:]


def with_jpeg_size(jpeg: bytes, height: int, width: int) -> bytes:
    """The same JPEG with its SOF marker claiming another size."""
    data = bytearray(jpeg)
    i = 2
    while i < len(data) - 9:
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            struct.pack_into(">HH", data, i + 5, height, width)
            return bytes(data)
        i += 2 + length
    raise ValueError("no SOF marker")


def shared_sample_files(limit: int | None = None) -> list[str]:
    if not os.path.isdir(SHARED_SAMPLE):
        return []
    files = sorted(os.path.join(SHARED_SAMPLE, f) for f in os.listdir(SHARED_SAMPLE))
    return files[:limit] if limit else files


PIL_MODES = {1: "L", 3: "RGB", 4: "RGBA"}


def pil_decode(data: bytes, channels: int) -> np.ndarray:
    """PIL's decode of `data` converted to `channels` (1, 3, 4), as [H, W, channels] uint8."""
    out = np.asarray(Image.open(io.BytesIO(data)).convert(PIL_MODES[channels]))
    return out[..., None] if out.ndim == 2 else out


# Files with chosen header fields, written byte by byte (the header-limit tests and the fuzzers'
# seeds at the limits).
def crafted_tiff(width: int, height: int, spp: int, bits: int = 8, extra: int = 0, rows_per_strip: int = 0,
                 photometric: int = 1, compression: int = 1, data: bytes = bytes(16), tile: int = 0) -> bytes:
    """A little-endian TIFF whose one strip (or `tile` x `tile` tile) holds `data`, with the
    given header fields."""
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, bits), (259, 3, 1, compression),
               (262, 3, 1, photometric), (277, 3, 1, spp)]
    if tile:
        entries += [(322, 4, 1, tile), (323, 4, 1, tile), (324, 4, 1, 0), (325, 4, 1, len(data))]
    else:
        entries += [(273, 4, 1, 0), (278, 4, 1, rows_per_strip or height), (279, 4, 1, len(data))]
    if extra:
        entries.append((338, 3, extra, 0))
    entries.sort()
    ifd_size = 2 + 12 * len(entries) + 4
    extra_at = 8 + ifd_size
    data_at = extra_at + 2 * extra
    out = bytearray(b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(entries)))
    for tag, kind, count, value in entries:
        value = data_at if tag in (273, 324) else extra_at if tag == 338 else value
        if kind == 3 and count == 1:
            out += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            out += struct.pack("<HHII", tag, kind, count, value)
    out += b"\0\0\0\0" + struct.pack("<H", 2) * extra + data
    return bytes(out)


def crafted_j2k(width: int, height: int, tile: int, components: int) -> bytes:
    """A raw JPEG 2000 codestream: SIZ, COD and QCD, then one empty tile part."""
    siz = struct.pack(">HIIIIIIIIH", 0, width, height, 0, 0, tile, tile, 0, 0, components)
    siz += bytes([7, 1, 1]) * components
    out = b"\xff\x4f\xff\x51" + struct.pack(">H", len(siz) + 2) + siz
    cod = bytes([0, 0, 0, 1, 0, 5, 4, 4, 0, 1])
    out += b"\xff\x52" + struct.pack(">H", len(cod) + 2) + cod
    qcd = bytes([0x40]) * 17
    out += b"\xff\x5c" + struct.pack(">H", len(qcd) + 2) + qcd
    return out + b"\xff\x90" + struct.pack(">HHIBB", 10, 0, 14, 0, 1) + b"\xff\x93\xff\xd9"


def crafted_jp2(codestream: bytes) -> bytes:
    """The codestream in a JP2 file (signature, ftyp, then the jp2c box)."""
    sig = b"\x00\x00\x00\x0cjP  \r\n\x87\n"
    ftyp = struct.pack(">I", 20) + b"ftypjp2 " + struct.pack(">I", 0) + b"jp2 "
    return sig + ftyp + struct.pack(">I", 8 + len(codestream)) + b"jp2c" + codestream


def hash_uniform(seed, index):
    """The kernel's HashUniform: a counter-based uniform in (0, 1), uint32 arithmetic."""
    with np.errstate(over="ignore"):
        x = (np.uint32(seed) * np.uint32(0x9E3779B9)) ^ (index.astype(np.uint32) + np.uint32(0x7F4A7C15))
        x ^= x >> np.uint32(16)
        x *= np.uint32(0x85EBCA6B)
        x ^= x >> np.uint32(13)
        x *= np.uint32(0xC2B2AE35)
        x ^= x >> np.uint32(16)
    return ((x >> np.uint32(8)).astype(np.float32) + np.float32(0.5)) * np.float32(1 / 16777216)


def poisson_counts(u, lam):
    """Poisson counts by inversion of the uniforms `u`, float32, in the kernel's order (its
    PoissonFromUniform); `lam` one mean or one per uniform."""
    lam = np.broadcast_to(np.asarray(lam, np.float32), u.shape)
    p = np.exp(-lam.astype(np.float64)).astype(np.float32)
    cdf, k = p.copy(), np.zeros(u.shape, np.int32)
    for step in range(1, 65):
        more = u > cdf
        if not more.any():
            break
        k += more
        p = np.where(more, p * (lam / np.float32(step)), p)
        cdf = np.where(more, cdf + p, cdf)
    return k


def trunc_div(a, b):
    """C's integer division, towards zero (OpenCV's drawing arithmetic, restated in tests)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def clip_line(w, h, p1, p2):
    """OpenCV's clipLine (integer arithmetic, divisions towards zero)."""
    (x1, y1), (x2, y2) = p1, p2
    right, bottom = w - 1, h - 1

    def code(x, y):
        return (x < 0) + (x > right) * 2 + (y < 0) * 4 + (y > bottom) * 8

    c1, c2 = code(x1, y1), code(x2, y2)
    if (c1 & c2) == 0 and (c1 | c2) != 0:
        if c1 & 12:
            a = 0 if c1 < 8 else bottom
            x1 += trunc_div((a - y1) * (x2 - x1), y2 - y1)
            y1, c1 = a, (x1 < 0) + (x1 > right) * 2
        if c2 & 12:
            a = 0 if c2 < 8 else bottom
            x2 += trunc_div((a - y2) * (x2 - x1), y2 - y1)
            y2, c2 = a, (x2 < 0) + (x2 > right) * 2
        if (c1 & c2) == 0 and (c1 | c2) != 0:
            if c1:
                a = 0 if c1 == 1 else right
                y1 += trunc_div((a - x1) * (y2 - y1), x2 - x1)
                x1, c1 = a, 0
            if c2:
                a = 0 if c2 == 1 else right
                y2 += trunc_div((a - x2) * (y2 - y1), x2 - x1)
                x2, c2 = a, 0
    return (c1 | c2) == 0, (x1, y1), (x2, y2)


def convex_poly_rows(v, h, w, shift=0):
    """cv2.fillConvexPoly's scanline rows (LINE_8) restated, after its edges are drawn: two walkers
    down the sides from the top vertex, x in 16.16 fixed point, each row (y, x1, x2) filled between
    the rounded walkers; `shift` fractional bits in the vertices (0: whole pixels; 16: OpenCV's)."""
    one, half = 1 << 16, (1 << shift) >> 1
    n = len(v)
    xs, ys = [p[0] << (16 - shift) for p in v], [(p[1] + half) >> shift for p in v]
    top = min(range(n), key=lambda i: (v[i][1], i))
    if (max(xs) + one // 2) >> 16 < 0 or max(ys) < 0 or (min(xs) + one // 2) >> 16 >= w or min(ys) >= h:
        return
    ymin, ymax = ys[top], min(max(ys), h - 1)
    walkers = [dict(idx=top, di=1, x=-one, dx=0, ye=ymin), dict(idx=top, di=n - 1, x=-one, dx=0, ye=ymin)]
    edges, y = n, ymin
    while True:
        for e in walkers:
            if y < e["ye"]:
                continue
            idx0, idx = e["idx"], (e["idx"] + e["di"]) % n
            while True:
                edges -= 1
                if edges < 0:
                    break
                if ys[idx] > y:
                    e.update(ye=ys[idx], x=xs[idx0], idx=idx,
                             dx=trunc_div((xs[idx] - xs[idx0]) * 2 + (ys[idx] - y), 2 * (ys[idx] - y)))
                    break
                idx0, idx = idx, (idx + e["di"]) % n
        if edges < 0:
            break
        if y >= 0:
            lo, hi = sorted((walkers[0]["x"], walkers[1]["x"]))
            x1, x2 = (lo + one // 2) >> 16, (hi + one // 2) >> 16
            if x2 >= 0 and x1 < w:
                yield y, max(x1, 0), min(x2, w - 1)
        for e in walkers:
            e["x"] += e["dx"]
        y += 1
        if y > ymax:
            break
