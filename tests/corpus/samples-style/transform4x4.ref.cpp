// CPU reference of transform4x4.cu (forwardTransform4x4): the integer transform of every whole
// 4x4 block; partial blocks keep the output's previous contents (the array is copy). Integer
// arithmetic without overflow (|coefficient| <= 36 * 32768): bit for bit.
#include "CorpusCase.h"

#include <cstddef>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

void core4(int& y0, int& y1, int& y2, int& y3, int x0, int x1, int x2, int x3) {
  const int s03 = x0 + x3, d03 = x0 - x3, s12 = x1 + x2, d12 = x1 - x2;
  y0 = s03 + s12;
  y1 = 2 * d03 + d12;
  y2 = s03 - s12;
  y3 = d03 - 2 * d12;
}

// Entry point: forwardTransform4x4(int* coeffs, const short* residual, int width, int height).
void reference(CallArgs args) {
  int* coeffs = arg<int*>(args, 0);
  const short* residual = arg<const short*>(args, 1);
  const int width = arg<int>(args, 2), height = arg<int>(args, 3);
  for (int br = 0; br < height / 4; ++br)
    for (int bc = 0; bc < width / 4; ++bc) {
      const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(4 * br) * width + 4 * bc;
      int t[4][4];
      for (int r = 0; r < 4; ++r) {
        const short* in = residual + base + static_cast<std::ptrdiff_t>(r) * width;
        core4(t[r][0], t[r][1], t[r][2], t[r][3], in[0], in[1], in[2], in[3]);
      }
      for (int c = 0; c < 4; ++c) {
        int y[4];
        core4(y[0], y[1], y[2], y[3], t[0][c], t[1][c], t[2][c], t[3][c]);
        for (int r = 0; r < 4; ++r)
          coeffs[base + static_cast<std::ptrdiff_t>(r) * width + c] = y[r];
      }
    }
}

} // namespace

// height 1 and 3: no whole 4-row group (every launch has 0 blocks in y); 1009 = 252 groups and a
// partial one; width 1001 leaves a partial block column.
OVERLAP_CORPUS_CASE(forwardTransform4x4, "forwardTransform4x4",
                    {{{"height", 1}, {"width", 64}},
                     {{"height", 3}, {"width", 64}},
                     {{"height", 1009}, {"width", 1001}},
                     {{"height", 4099}, {"width", 640}},
                     {{"height", 8}, {"width", 3}}},
                    {{"height", 4096}, {"width", 4096}}, // 32 MiB in, 64 MiB in and out
                    0.0, reference, nullptr);
