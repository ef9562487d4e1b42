// HotSpot: one explicit time step of the thermal model of a chip. Every cell's new temperature
// is its old one plus step/Cap times the heat from its power density, its four neighbours
// (conductances Rx_1, Ry_1) and the ambient air (Rz_1). Neighbours outside the chip are the cell
// itself (clamped indices). The kernel works on the rows [row_begin, row_end) of the chip, so a
// caller can split the chip between devices or streams; it reads one row above and below.
//
// Modeled on: Rodinia 3.1, cuda/hotspot/hotspot.cu (calculate_temp: the same update with
// step_div_Cap and the 1/R conductances, clamped neighbour indices, MIN/MAX/IN_RANGE macros).
// Rodinia fuses several time steps in a shared-memory pyramid; this is the one-step form. Written
// anew for this corpus.
//
// Exercises: the file's own `#define min(a, b)` and `#define max(a, b)` (lower-case, shadowing
// CUDA's min/max for the rest of the file and of anything that includes it); range mode with a
// one-row halo on both sides (clipped at the chip's edges); 2-D blocks; float scalars.
#include <overlap/annotate.h>

#define BLOCK_SIZE 16

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

OVERLAP_KERNEL(partition(grid_rows) range(row_begin, row_end)
               extent(power, temp_src, temp_dst: grid_rows * grid_cols)
               copyin(power[lo * grid_cols : hi * grid_cols],
                      temp_src[(lo - 1) * grid_cols : (hi + 1) * grid_cols])
               copyout(temp_dst[lo * grid_cols : hi * grid_cols])
               launch(grid: (ceil_div(grid_cols, BLOCK_SIZE), ceil_div(len, BLOCK_SIZE)),
                      block: (BLOCK_SIZE, BLOCK_SIZE))
               tune(grid_rows = 4096, grid_cols = 4096))
__global__ void calculate_temp_step(const float *__restrict__ power,
                                    const float *__restrict__ temp_src,
                                    float *__restrict__ temp_dst, int grid_cols, int grid_rows,
                                    int row_begin, int row_end, float step_div_Cap, float Rx_1,
                                    float Ry_1, float Rz_1, float amb_temp) {
  const int col = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  const int row = row_begin + blockIdx.y * BLOCK_SIZE + threadIdx.y;
  if (col >= grid_cols || row >= row_end)
    return;

  const int N = max(row - 1, 0);
  const int S = min(row + 1, grid_rows - 1);
  const int W = max(col - 1, 0);
  const int E = min(col + 1, grid_cols - 1);

  const long long index = (long long)row * grid_cols + col;
  const float t = temp_src[index];
  const float delta =
      step_div_Cap *
      (power[index] +
       (temp_src[(long long)S * grid_cols + col] + temp_src[(long long)N * grid_cols + col] -
        2.0f * t) * Ry_1 +
       (temp_src[(long long)row * grid_cols + E] + temp_src[(long long)row * grid_cols + W] -
        2.0f * t) * Rx_1 +
       (amb_temp - t) * Rz_1);
  temp_dst[index] = t + delta;
}
