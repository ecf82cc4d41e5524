// backend-main.cu - the profiler interface (profiler/Backend.h) with the emu
// backend, in a program built for emulation.
#include "Backend.h"

#include <cuda_runtime.h>
#include <cstdio>

using namespace klaraptor::profiler;

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}

int main() {
  std::string err;
  std::unique_ptr<Backend> none = createBackend("cupti", err);
  std::printf("cupti: %s\n", none ? "created" : err.c_str());
  std::unique_ptr<Backend> b = createBackend("emu", err);
  std::printf("%s backend, %zu metrics\n", std::string(b->name()).c_str(),
              b->metricNames().size());
  for (const MetricInfo &m : b->metricNames())
    if (std::string(m.Key) == "global_load_sectors")
      std::printf("global_load_sectors is %s\n", m.Cupti);

  float *p = nullptr;
  cudaMalloc(&p, 1024 * sizeof(float));
  fill<<<1, 32>>>(p, 1024); // before begin(): not captured
  std::printf("begin: %d\n", b->begin(err));
  std::unique_ptr<Backend> other = createBackend("emu", err);
  std::printf("second begin: %d (%s)\n", other->begin(err), err.c_str());
  fill<<<2, 128>>>(p, 1024);
  fill<<<dim3(3, 2), 64>>>(p, 1024);
  std::vector<LaunchRecord> records;
  std::printf("end: %d\n", b->end(records, err));
  fill<<<1, 32>>>(p, 1024); // after end(): not captured
  std::printf("%zu records\n", records.size());
  for (const LaunchRecord &r : records)
    std::printf("%s grid %u %u block %u, blocks %g, device %s\n", r.Kernel.c_str(),
                r.Grid[0], r.Grid[1], r.Block[0], r.get("blocks_launched"),
                r.Device.c_str());
  std::printf("%.60s\n", records.at(0).toJson().c_str());
  return 0;
}
