// Size classes: the groups of calls for which the dispatch (Dispatch.h) computes its choice once
// and keeps it. A class is a quarter of an octave: [2^e, 1.25·2^e), [1.25·2^e, 1.5·2^e),
// [1.5·2^e, 1.75·2^e), [1.75·2^e, 2^(e+1)), each at most 25 % wide.
//
// Why quarter octaves: the tuned winners and the model's predictions change smoothly with the
// size, and near a size where the winner changes the two candidates are within a few percent of
// each other, so one choice for a class costs at most the difference across 25 % of size there.
// Power-of-two classes would be too coarse where that matters (a crossover from Mapped to Streams
// can lie anywhere in a factor of two), exact sizes would let a program that calls with ever new
// sizes grow the memo without bound; quarter octaves keep it below 4 classes per power of two.
#pragma once

namespace overlap {

// 0 for 0; otherwise 1 + 4·floor(log2 v) + the quarter of the octave v lies in (the two bits
// after the leading one). At most 256.
inline int sizeClass(unsigned long long value) {
  if (value == 0)
    return 0;
  const int exponent = 63 - __builtin_clzll(value);
  // The two bits after the leading one; an octave of fewer values ([1, 2), [2, 4)) has fewer.
  const unsigned long long quarter =
      exponent >= 2 ? (value >> (exponent - 2)) & 3 : (value << (2 - exponent)) & 3;
  return 1 + 4 * exponent + static_cast<int>(quarter);
}

// The smallest value of class `index` (sizeClass(sizeClassFloor(i)) == i where a value of
// that class exists).
inline unsigned long long sizeClassFloor(int index) {
  if (index <= 0)
    return 0;
  const int exponent = (index - 1) / 4;
  const unsigned long long quarter = static_cast<unsigned long long>((index - 1) % 4);
  if (exponent >= 2)
    return (4 + quarter) << (exponent - 2);
  // Octaves [1, 2) and [2, 4) have no value at some quarters: round up to the next value.
  const unsigned long long scaled = (4 + quarter) << exponent; // 4 times the bound
  return (scaled + 3) / 4;
}

} // namespace overlap
