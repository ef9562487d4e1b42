#include "tune/host_data.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace overlap::tune {
namespace {

std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

// A uniform double in ±[0.25, 1).
double nonzero_unit(std::uint64_t bits) {
  const double magnitude = 0.25 + 0.75 * static_cast<double>(bits >> 11) * 0x1.0p-53;
  return (bits & 1) ? -magnitude : magnitude;
}

template <class T> void fill_integers(T* data, long long count, RandomBits& bits, bool is_signed) {
  for (long long i = 0; i < count; ++i) {
    const std::uint64_t r = bits.next();
    long long value = 1 + static_cast<long long>((r >> 8) % 100);
    if (is_signed && (r & 1))
      value = -value;
    data[i] = static_cast<T>(value);
  }
}

template <class T>
void compare_floats(const T* reference, const T* actual, long long count, double tolerance,
                    Comparison& result) {
  for (long long i = 0; i < count; ++i) {
    const double a = reference[i];
    const double b = actual[i];
    const bool same_nan = std::isnan(a) && std::isnan(b);
    const double difference = std::fabs(a - b);
    if (!same_nan && std::isfinite(difference))
      result.max_abs_difference = std::max(result.max_abs_difference, difference);
    const double bound = tolerance * std::max({std::fabs(a), std::fabs(b), 1.0});
    if (same_nan || (a == b) || difference <= bound)
      continue;
    if (result.mismatches++ == 0)
      result.first_mismatch = i;
  }
}

} // namespace

RandomBits::RandomBits(std::uint64_t seed) {
  // splitmix64 spreads any seed over the four words, as xoshiro's authors recommend.
  for (std::uint64_t& word : state_) {
    seed += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    word = z ^ (z >> 31);
  }
}

std::uint64_t RandomBits::next() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

void fill_random(ElementKind kind, std::size_t element_size, void* data, long long count,
                 RandomBits& bits) {
  switch (kind) {
  case ElementKind::F32: {
    float* out = static_cast<float*>(data);
    for (long long i = 0; i < count; ++i)
      out[i] = static_cast<float>(nonzero_unit(bits.next()));
    return;
  }
  case ElementKind::F64: {
    double* out = static_cast<double*>(data);
    for (long long i = 0; i < count; ++i)
      out[i] = nonzero_unit(bits.next());
    return;
  }
  case ElementKind::I8:
    return fill_integers(static_cast<std::int8_t*>(data), count, bits, true);
  case ElementKind::U8:
    return fill_integers(static_cast<std::uint8_t*>(data), count, bits, false);
  case ElementKind::I16:
    return fill_integers(static_cast<std::int16_t*>(data), count, bits, true);
  case ElementKind::U16:
    return fill_integers(static_cast<std::uint16_t*>(data), count, bits, false);
  case ElementKind::I32:
    return fill_integers(static_cast<std::int32_t*>(data), count, bits, true);
  case ElementKind::U32:
    return fill_integers(static_cast<std::uint32_t*>(data), count, bits, false);
  case ElementKind::I64:
    return fill_integers(static_cast<std::int64_t*>(data), count, bits, true);
  case ElementKind::U64:
    return fill_integers(static_cast<std::uint64_t*>(data), count, bits, false);
  case ElementKind::Other:
    break;
  }
  unsigned char* out = static_cast<unsigned char*>(data);
  const std::size_t bytes = element_size * static_cast<std::size_t>(count);
  for (std::size_t i = 0; i < bytes; ++i)
    out[i] = static_cast<unsigned char>(bits.next() >> 56);
}

std::string Comparison::describe(long long count) const {
  std::ostringstream out;
  if (equal()) {
    out << "all " << count << " elements equal";
  } else {
    out << mismatches << " of " << count << " elements differ; first at [" << first_mismatch << "]";
  }
  if (max_abs_difference > 0)
    out << "; max |difference| " << max_abs_difference;
  return out.str();
}

Comparison compare_elements(ElementKind kind, std::size_t element_size, const void* reference,
                            const void* actual, long long count, double tolerance) {
  Comparison result;
  if (tolerance > 0 && kind == ElementKind::F32) {
    compare_floats(static_cast<const float*>(reference), static_cast<const float*>(actual), count,
                   tolerance, result);
    return result;
  }
  if (tolerance > 0 && kind == ElementKind::F64) {
    compare_floats(static_cast<const double*>(reference), static_cast<const double*>(actual), count,
                   tolerance, result);
    return result;
  }
  const unsigned char* a = static_cast<const unsigned char*>(reference);
  const unsigned char* b = static_cast<const unsigned char*>(actual);
  for (long long i = 0; i < count; ++i) {
    const std::size_t at = static_cast<std::size_t>(i) * element_size;
    if (std::memcmp(a + at, b + at, element_size) == 0)
      continue;
    if (result.mismatches++ == 0)
      result.first_mismatch = i;
  }
  if (kind == ElementKind::F32 || kind == ElementKind::F64) {
    Comparison values; // the size of the differences, for the message only
    if (kind == ElementKind::F32)
      compare_floats(static_cast<const float*>(reference), static_cast<const float*>(actual), count,
                     0, values);
    else
      compare_floats(static_cast<const double*>(reference), static_cast<const double*>(actual),
                     count, 0, values);
    result.max_abs_difference = values.max_abs_difference;
  }
  return result;
}

} // namespace overlap::tune
