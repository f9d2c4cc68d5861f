// jpeg_codec.cc against the x86-64-v3 build of libjpeg-turbo (build_tools/libjpeg_turbo.py).
// The build passes TFGPUAUG_JPEG_X86_64_V3, that build's include folders, and a forced
// include that maps libjpeg's API onto its prefixed symbols; without them this is empty.
#if TFGPUAUG_JPEG_X86_64_V3
#define TFGPUAUG_JPEG_CODEC_NAME kX86_64V3JpegCodec
#include "cc/kernels/decode/jpeg_codec.cc"
#endif
