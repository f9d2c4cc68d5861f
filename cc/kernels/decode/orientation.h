// EXIF orientation: parsing the tag and mapping oriented pixels to stored pixels.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_ORIENTATION_H_
#define TFGPUAUG_CC_KERNELS_DECODE_ORIENTATION_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/host_device.h"
#include "cc/kernels/decode/image_decode.h"

namespace tfgpuaug {

// Orientation tag (1..8) from a TIFF/EXIF block; 1 when absent or malformed.
// `data` starts at the TIFF header ("II*\0" or "MM\0*"), optionally after "Exif\0\0".
int ParseExifOrientation(const uint8_t* data, size_t size);

// Orientations 5..8 swap height and width.
TFGPUAUG_HD bool OrientationTransposes(int orientation) { return orientation >= 5; }

// Maps oriented pixel (r, c) to the stored pixel (*sr, *sc); stored size is hs x ws.
TFGPUAUG_HD void OrientedToStored(int orientation, int r, int c, int hs, int ws, int* sr, int* sc) {
  switch (orientation) {
    case 2:
      *sr = r;
      *sc = ws - 1 - c;
      break;
    case 3:
      *sr = hs - 1 - r;
      *sc = ws - 1 - c;
      break;
    case 4:
      *sr = hs - 1 - r;
      *sc = c;
      break;
    case 5:
      *sr = c;
      *sc = r;
      break;
    case 6:
      *sr = hs - 1 - c;
      *sc = r;
      break;
    case 7:
      *sr = hs - 1 - c;
      *sc = ws - 1 - r;
      break;
    case 8:
      *sr = c;
      *sc = ws - 1 - r;
      break;
    default:
      *sr = r;
      *sc = c;
      break;
  }
}

// The stored-space rectangle covering an oriented window.
Window StoredWindow(int orientation, const Window& oriented, int hs, int ws);

// Writes the oriented window `oriented` (channels c) to `out`, reading `stored`, which
// holds the stored-space rectangle `stored_window` of an hs x ws image.
void ReorientWindow(int orientation, const uint8_t* stored, const Window& stored_window, int hs, int ws,
                    const Window& oriented, int c, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_ORIENTATION_H_
