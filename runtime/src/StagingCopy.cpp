#include "overlap/StagingCopy.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace overlap {

void fillSlot(void* slot, const void* user, std::size_t bytes) {
  std::memcpy(slot, user, bytes);
}

void drainSlot(void* user, const void* slot, std::size_t bytes) {
#if defined(__SSE2__)
  auto* to = static_cast<unsigned char*>(user);
  const auto* from = static_cast<const unsigned char*>(slot);
  // Non-temporal stores need 16-byte aligned targets: the bytes before the first such address go
  // through memcpy, as does the tail under one 64-byte block.
  std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(to) & 15)) & 15;
  if (head > bytes)
    head = bytes;
  std::memcpy(to, from, head);
  to += head;
  from += head;
  bytes -= head;
  for (; bytes >= 64; bytes -= 64, to += 64, from += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(to), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + 48), d);
  }
  // The stores are weakly ordered: done before the thread reports the piece drained.
  _mm_sfence();
  std::memcpy(to, from, bytes);
#else
  std::memcpy(user, slot, bytes);
#endif
}

} // namespace overlap
