// Integers stored in file headers, read byte by byte (no alignment or host-order assumptions).
#ifndef TFGPUAUG_CC_KERNELS_COMMON_BYTE_ORDER_H_
#define TFGPUAUG_CC_KERNELS_COMMON_BYTE_ORDER_H_

#include <cstdint>

namespace tfgpuaug {

inline uint16_t LoadBe16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
inline uint16_t LoadLe16(const uint8_t* p) { return static_cast<uint16_t>(p[1] << 8 | p[0]); }
inline uint32_t LoadBe32(const uint8_t* p) { return uint32_t{LoadBe16(p)} << 16 | LoadBe16(p + 2); }
inline uint32_t LoadLe32(const uint8_t* p) { return uint32_t{LoadLe16(p + 2)} << 16 | LoadLe16(p); }

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_BYTE_ORDER_H_
