#include "tune/HostData.h"

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
double nonzeroUnit(std::uint64_t bits) {
  const double magnitude = 0.25 + 0.75 * static_cast<double>(bits >> 11) * 0x1.0p-53;
  return (bits & 1) ? -magnitude : magnitude;
}

// nonzeroUnit for a format with `mantissaBits` bits after the point: magnitudes that would round
// up to 1 become the largest value below it, so that the range stays ±[0.25, 1).
float nonzeroUnitBelowOne(std::uint64_t bits, int mantissaBits) {
  const double value = nonzeroUnit(bits);
  const double largest = 1.0 - std::ldexp(1.0, -(mantissaBits + 1));
  return static_cast<float>(std::copysign(std::min(std::fabs(value), largest), value));
}

template <class T> void fillIntegers(T* data, long long count, RandomBits& bits, bool is_signed) {
  for (long long i = 0; i < count; ++i) {
    const std::uint64_t r = bits.next();
    long long value = 1 + static_cast<long long>((r >> 8) % 100);
    if (is_signed && (r & 1))
      value = -value;
    data[i] = static_cast<T>(value);
  }
}

std::uint32_t bitsOf(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float floatOf(std::uint32_t bits) {
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Lane `lane` of element `i` as a double (lanes may be unaligned in the buffer: memcpy).
double laneValue(ElementKind kind, const unsigned char* data, std::size_t elementSize, long long i,
                 std::size_t lane) {
  const unsigned char* at =
      data + static_cast<std::size_t>(i) * elementSize + lane * elementKindSize(kind);
  switch (kind) {
  case ElementKind::F64: {
    double value = 0;
    std::memcpy(&value, at, sizeof value);
    return value;
  }
  case ElementKind::F32: {
    float value = 0;
    std::memcpy(&value, at, sizeof value);
    return value;
  }
  case ElementKind::F16:
  case ElementKind::BF16: {
    std::uint16_t value = 0;
    std::memcpy(&value, at, sizeof value);
    return kind == ElementKind::F16 ? halfToFloat(value) : bfloat16ToFloat(value);
  }
  default:
    return 0;
  }
}

// Floating-point elements of `lanes` lanes: an element differs when one of its lanes does (bit for
// bit with tolerance 0, else beyond the tolerance); the largest finite difference is recorded
// either way, for the message.
void compareFloating(ElementKind kind, std::size_t elementSize, std::size_t lanes,
                     const unsigned char* reference, const unsigned char* actual, long long count,
                     double tolerance, Comparison& result) {
  const std::size_t laneSize = elementKindSize(kind);
  for (long long i = 0; i < count; ++i) {
    bool differs = false;
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      const double a = laneValue(kind, reference, elementSize, i, lane);
      const double b = laneValue(kind, actual, elementSize, i, lane);
      const bool sameNan = std::isnan(a) && std::isnan(b);
      const double difference = std::fabs(a - b);
      if (!sameNan && std::isfinite(difference))
        result.maxAbsDifference = std::max(result.maxAbsDifference, difference);
      if (tolerance > 0) {
        const double bound = tolerance * std::max({std::fabs(a), std::fabs(b), 1.0});
        differs |= !(sameNan || a == b || difference <= bound);
      } else {
        const std::size_t at = static_cast<std::size_t>(i) * elementSize + lane * laneSize;
        differs |= std::memcmp(reference + at, actual + at, laneSize) != 0;
      }
    }
    if (differs && result.mismatches++ == 0)
      result.firstMismatch = i;
  }
}

double epsilonOf(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
    return 0x1.0p-52;
  case ElementKind::F32:
    return 0x1.0p-23;
  case ElementKind::F16:
    return 0x1.0p-10;
  case ElementKind::BF16:
    return 0x1.0p-7;
  default:
    return 0;
  }
}

} // namespace

std::uint16_t floatToHalf(float value) {
  const std::uint32_t x = bitsOf(value);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t magnitude = x & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) // NaN: quiet, with the payload's top bits
    return static_cast<std::uint16_t>(sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu));
  if (magnitude >= 0x477FF000u) // 65520 and up (infinity too) round to infinity
    return static_cast<std::uint16_t>(sign | 0x7C00u);
  if (magnitude < 0x33000000u) // below 2^-25: rounds to zero
    return sign;
  std::uint32_t mantissa = magnitude & 0x7FFFFFu;
  const int exponent = static_cast<int>(magnitude >> 23);
  std::uint32_t half = 0;
  std::uint32_t shift = 13;
  if (exponent < 113) { // below 2^-14: a subnormal half, in units of 2^-24
    mantissa |= 0x800000u;
    shift = static_cast<std::uint32_t>(126 - exponent);
  } else {
    half = static_cast<std::uint32_t>(exponent - 112) << 10;
  }
  half |= mantissa >> shift;
  const std::uint32_t rest = mantissa & ((1u << shift) - 1);
  const std::uint32_t halfway = 1u << (shift - 1);
  // To nearest, ties to even; a carry out of the mantissa correctly bumps the exponent.
  if (rest > halfway || (rest == halfway && (half & 1u)))
    ++half;
  return static_cast<std::uint16_t>(sign | half);
}

float halfToFloat(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
  const std::uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0x1F)
    return floatOf(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  return floatOf(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

std::uint16_t floatToBfloat16(float value) {
  const std::uint32_t x = bitsOf(value);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) // NaN: keep it one (quiet)
    return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  // To nearest, ties to even; rounding past the largest finite value gives infinity.
  return static_cast<std::uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

float bfloat16ToFloat(std::uint16_t bits) {
  return floatOf(static_cast<std::uint32_t>(bits) << 16);
}

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

void fill_random(ElementKind kind, std::size_t elementSize, void* data, long long count,
                 RandomBits& bits) {
  const std::size_t lanes = laneCount(kind, elementSize);
  // Every lane of every element is one value of the kind.
  const long long values = count * static_cast<long long>(lanes);
  switch (lanes == 0 ? ElementKind::Other : kind) {
  case ElementKind::F32: {
    float* out = static_cast<float*>(data);
    for (long long i = 0; i < values; ++i)
      out[i] = static_cast<float>(nonzeroUnit(bits.next()));
    return;
  }
  case ElementKind::F64: {
    double* out = static_cast<double*>(data);
    for (long long i = 0; i < values; ++i)
      out[i] = nonzeroUnit(bits.next());
    return;
  }
  case ElementKind::F16: {
    std::uint16_t* out = static_cast<std::uint16_t*>(data);
    for (long long i = 0; i < values; ++i)
      out[i] = floatToHalf(nonzeroUnitBelowOne(bits.next(), 10));
    return;
  }
  case ElementKind::BF16: {
    std::uint16_t* out = static_cast<std::uint16_t*>(data);
    for (long long i = 0; i < values; ++i)
      out[i] = floatToBfloat16(nonzeroUnitBelowOne(bits.next(), 7));
    return;
  }
  case ElementKind::I8:
    return fillIntegers(static_cast<std::int8_t*>(data), values, bits, true);
  case ElementKind::U8:
    return fillIntegers(static_cast<std::uint8_t*>(data), values, bits, false);
  case ElementKind::I16:
    return fillIntegers(static_cast<std::int16_t*>(data), values, bits, true);
  case ElementKind::U16:
    return fillIntegers(static_cast<std::uint16_t*>(data), values, bits, false);
  case ElementKind::I32:
    return fillIntegers(static_cast<std::int32_t*>(data), values, bits, true);
  case ElementKind::U32:
    return fillIntegers(static_cast<std::uint32_t*>(data), values, bits, false);
  case ElementKind::I64:
    return fillIntegers(static_cast<std::int64_t*>(data), values, bits, true);
  case ElementKind::U64:
    return fillIntegers(static_cast<std::uint64_t*>(data), values, bits, false);
  case ElementKind::Other:
    break;
  }
  unsigned char* out = static_cast<unsigned char*>(data);
  const std::size_t bytes = elementSize * static_cast<std::size_t>(count);
  for (std::size_t i = 0; i < bytes; ++i)
    out[i] = static_cast<unsigned char>(bits.next() >> 56);
}

std::string Comparison::describe(long long count) const {
  std::ostringstream out;
  if (equal()) {
    out << "all " << count << " elements equal";
  } else {
    out << mismatches << " of " << count << " elements differ; first at [" << firstMismatch << "]";
  }
  if (maxAbsDifference > 0)
    out << "; max |difference| " << maxAbsDifference;
  return out.str();
}

Comparison compareElements(ElementKind kind, std::size_t elementSize, const void* reference,
                           const void* actual, long long count, double tolerance) {
  Comparison result;
  const unsigned char* a = static_cast<const unsigned char*>(reference);
  const unsigned char* b = static_cast<const unsigned char*>(actual);
  const std::size_t lanes = laneCount(kind, elementSize);
  if (lanes > 0 && isFloating(kind)) {
    compareFloating(kind, elementSize, lanes, a, b, count, tolerance, result);
    return result;
  }
  for (long long i = 0; i < count; ++i) {
    const std::size_t at = static_cast<std::size_t>(i) * elementSize;
    if (std::memcmp(a + at, b + at, elementSize) == 0)
      continue;
    if (result.mismatches++ == 0)
      result.firstMismatch = i;
  }
  return result;
}

double reductionTolerance(ElementKind kind, ReduceOp op, long long terms) {
  if ((op != ReduceOp::Sum && op != ReduceOp::Product) || !isFloating(kind))
    return 0;
  return 16 * epsilonOf(kind) * std::sqrt(static_cast<double>(std::max(1LL, terms)));
}

} // namespace overlap::tune
