// Cooperative groups: a warp tile's reduction (cooperative_groups/reduce.h,
// which includes libcu++'s cuda/std headers).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void tileSums(int *out, const int *in) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Tile = cg::tiled_partition<32>(Block);
  int Sum = cg::reduce(Tile, in[Block.thread_rank()], cg::plus<int>());
  if (Tile.thread_rank() == 0)
    out[Block.thread_rank() / 32] = Sum;
}

int main() {
  int Host[128];
  for (int I = 0; I < 128; ++I)
    Host[I] = I;
  int *In, *Out;
  cudaMalloc(&In, sizeof Host);
  cudaMalloc(&Out, 4 * sizeof(int));
  cudaMemcpy(In, Host, sizeof Host, cudaMemcpyHostToDevice);
  tileSums<<<1, 128>>>(Out, In);
  int Sums[4] = {0, 0, 0, 0};
  cudaMemcpy(Sums, Out, sizeof Sums, cudaMemcpyDeviceToHost);
  bool Ok = true;
  for (int T = 0; T < 4; ++T)
    Ok = Ok && Sums[T] == 32 * 32 * T + 496;
  std::printf("tile sums %d %d %d %d: %s\n", Sums[0], Sums[1], Sums[2], Sums[3],
              Ok ? "ok" : "WRONG");
  return Ok ? 0 : 1;
}
