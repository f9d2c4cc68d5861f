/* How fast this machine writes a 78 MB output (a batch of 16 float32 640x640x3 images) with
 * ordinary AVX stores and with streaming (non-temporal) stores, into memory already mapped
 * (as TensorFlow's allocator reuses it) and into fresh memory. Best of 20 passes each.
 *
 *   gcc -O2 -mavx2 benchmarks/store_bandwidth.c -o /tmp/store_bandwidth
 *   /tmp/store_bandwidth & /tmp/store_bandwidth; wait   # both cores writing at once
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double Seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double BestPass(float* reused, size_t floats, int fresh, int streaming) {
  double best = 1e9;
  for (int pass = 0; pass < 20; ++pass) {
    float* p = fresh ? aligned_alloc(64, floats * sizeof(float)) : reused;
    const __m256 v = _mm256_set1_ps(1.f);
    const double start = Seconds();
    if (streaming) {
      for (size_t i = 0; i < floats; i += 8) _mm256_stream_ps(p + i, v);
      _mm_sfence();
    } else {
      for (size_t i = 0; i < floats; i += 8) _mm256_storeu_ps(p + i, v);
    }
    const double took = Seconds() - start;
    if (took < best) best = took;
    if (fresh) free(p);
  }
  return best;
}

int main(void) {
  const size_t bytes = (size_t)16 * 640 * 640 * 3 * sizeof(float);
  float* reused = aligned_alloc(64, bytes);
  memset(reused, 0, bytes);
  for (int fresh = 0; fresh < 2; ++fresh) {
    for (int streaming = 0; streaming < 2; ++streaming) {
      const double s = BestPass(reused, bytes / sizeof(float), fresh, streaming);
      printf("%s memory, %s stores: %.1f GB/s (%.2f ms per batch)\n", fresh ? "fresh" : "reused",
             streaming ? "streaming" : "ordinary", bytes / s / 1e9, s * 1e3);
    }
  }
  free(reused);
  return 0;
}
