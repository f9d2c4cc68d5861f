"""Corrupt JPEGs for the GPU self-check: does a GPU decode report a bad image wherever it is
decoded (nvJPEG, or the CPU decoder after nvJPEG refused it), as the CPU decoder does?

Each corruption is made from a baseline JPEG in this script (numpy and the standard library
only). The self-check decodes each with the CPU decoder and with `decode_gpu(errors=True)`
and prints, per file, what each side said and which route the GPU decode took; a file the
CPU decoder refuses and the GPU decode returns without an error is a failed check: a corrupt
image would then reach training as garbage pixels with on_error="skip" none the wiser.
"""
from __future__ import annotations


def _segments(blob: bytes) -> tuple[dict[int, int], int, int]:
    """Offsets of the first segment of each marker before the scan, the scan's first byte
    (after the SOS header) and the EOI marker's offset."""
    where, i = {}, 2
    while i + 4 <= len(blob) and blob[i] == 0xFF:
        marker, length = blob[i + 1], int.from_bytes(blob[i + 2:i + 4], "big")
        where.setdefault(marker, i)
        if marker == 0xDA:
            return where, i + 2 + length, blob.rindex(b"\xff\xd9")
        i += 2 + length
    raise ValueError("no scan found: give a baseline JPEG")


def corruptions(blob: bytes) -> list[tuple[str, bytes]]:
    """(name, bytes) pairs: each keeps the SOI and EOI markers (so the GPU decode offers it to
    nvJPEG) and breaks the image in one way a damaged file does."""
    where, scan, eoi = _segments(blob)
    data = bytearray(blob)
    out = []
    mid = (scan + eoi) // 2

    flipped = bytearray(data)
    for j in range(mid, min(mid + 48, eoi)):
        if flipped[j] != 0xFF and flipped[j - 1] != 0xFF:
            flipped[j] = (flipped[j] ^ 0x5A) if (flipped[j] ^ 0x5A) != 0xFF else flipped[j]
    out.append(("scan bytes flipped", bytes(flipped)))
    out.append(("scan cut to a third, EOI kept", bytes(data[:scan + (eoi - scan) // 3] + data[eoi:])))
    out.append(("second half of the scan zeroed", bytes(data[:mid] + bytes(eoi - mid) + data[eoi:])))
    out.append(("stray marker in the scan", bytes(data[:mid] + b"\xff\xc8" + data[mid:])))
    out.append(("restart marker without DRI", bytes(data[:mid] + b"\xff\xd3" + data[mid:])))
    if 0xC4 in where:  # the first Huffman table's 16 code counts, all 255
        dht = where[0xC4] + 5
        out.append(("Huffman table counts overflow", bytes(data[:dht] + b"\xff" * 16 + data[dht + 16:])))
    sof = next((where[m] for m in (0xC0, 0xC1) if m in where), None)
    if sof is not None:  # the frame twice as tall as its scan covers
        height = int.from_bytes(data[sof + 5:sof + 7], "big")
        tall = bytearray(data)
        tall[sof + 5:sof + 7] = (height * 2).to_bytes(2, "big")
        out.append(("frame height doubled", bytes(tall)))
    return out


def probe(k, blob: bytes) -> list[tuple[str, str, str, str]]:
    """(name, CPU decoder's error or 'decoded', GPU route, GPU error or 'decoded') per corruption."""
    rows = []
    for name, bad in corruptions(blob):
        try:
            k.decode(bad, 3)
            cpu = "decoded"
        except Exception as e:  # noqa: BLE001 - the message is the point
            cpu = str(e).splitlines()[0][:70] or type(e).__name__
        try:
            _, (route,), (error,) = k.decode_gpu([bad], 3, errors=True)
            gpu = error.splitlines()[0][:70] if error else "decoded"
        except Exception as e:  # noqa: BLE001 - a header the planner refuses raises here
            route, gpu = "planner", str(e).splitlines()[0][:70]
        rows.append((name, cpu, route, gpu))
    return rows
