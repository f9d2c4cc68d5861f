"""OpenCV's 8-bit HLS (cv2.COLOR_RGB2HLS / COLOR_HLS2RGB on uint8) restated in numpy float32,
the tests' reference for the HlsLightness kernel op where OpenCV is not installed (and checked
against OpenCV where it is)."""
import numpy as np

F = np.float32


def rgb_to_hls8(rgb):
    """(hue 0..180, lightness, saturation) float32 whole numbers for uint8 RGB `[..., 3]`."""
    r, g, b = np.moveaxis(rgb.astype(F) * F(1.0 / 255.0), -1, 0)
    vmax, vmin = np.maximum(np.maximum(r, g), b), np.minimum(np.minimum(r, g), b)
    diff = vmax - vmin
    lightness = (vmax + vmin) * F(0.5)
    chromatic = diff > F(1.1920929e-07)
    with np.errstate(divide="ignore", invalid="ignore"):
        saturation = np.where(lightness < F(0.5), diff / (vmax + vmin), diff / (F(2.0) - vmax - vmin))
        per = F(60.0) / diff
    hue = np.where(vmax == r, (g - b) * per, np.where(vmax == g, (b - r) * per + F(120.0), (r - g) * per + F(240.0)))
    hue = np.where(hue < 0, hue + F(360.0), hue)
    hue, saturation = np.where(chromatic, hue, F(0)), np.where(chromatic, saturation, F(0))
    return np.rint(hue * F(0.5)), np.rint(lightness * F(255.0)), np.rint(saturation * F(255.0))


def hls8_to_rgb(hue, lightness, saturation):
    """uint8 RGB `[..., 3]` from 8-bit HLS."""
    lum, sat = lightness.astype(F) * F(1.0 / 255.0), saturation.astype(F) * F(1.0 / 255.0)
    p2 = np.where(lum <= F(0.5), lum * (F(1.0) + sat), lum + sat - lum * sat)
    p1 = F(2.0) * lum - p2
    h = hue.astype(F) * F(6.0 / 180.0)
    h = np.where(h < 0, h + F(6.0), np.where(h >= F(6.0), h - F(6.0), h))
    sector = np.floor(h)
    h = h - sector
    rising, falling = p1 + (p2 - p1) * h, p1 + (p2 - p1) * (F(1.0) - h)
    sector = sector.astype(int)
    r = np.choose(sector, [p2, falling, p1, p1, rising, p2])
    g = np.choose(sector, [rising, p2, p2, falling, p1, p1])
    b = np.choose(sector, [p1, p1, rising, p2, p2, falling])
    rgb = np.where((sat == 0)[..., None], np.stack([lum] * 3, -1), np.stack([r, g, b], -1))
    return np.clip(np.rint(rgb * F(255.0)), 0, 255).astype(np.uint8)
