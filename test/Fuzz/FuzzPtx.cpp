//===- FuzzPtx.cpp - libFuzzer target: the PTX front end and interpreter ---===//
///
/// \file
/// Any bytes as a PTX module: lexed, parsed and loaded; every kernel that
/// loads is then run on one block of 64 threads with its parameters pointing
/// at a small zeroed buffer that is also the only global memory the launch
/// may touch (LaunchOptions::GlobalRanges), and at most 20000 warp
/// instructions per block. Must never crash, hang or fail a sanitizer: a bad
/// module is an error, a bad kernel a failed launch.
//===----------------------------------------------------------------------===//
#include "Emulator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace klaraptor::emu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  std::unique_ptr<Module> M = Module::load(
      std::string_view(reinterpret_cast<const char *>(Data), Size), Error);
  if (!M)
    return 0;
  // Every parameter points at its slot of a zeroed buffer; pointer
  // parameters then hold the address of another zeroed buffer.
  alignas(16) static uint8_t Memory[4096];
  std::memset(Memory, 0, sizeof(Memory));
  const std::vector<std::pair<uint64_t, uint64_t>> Ranges = {
      {uint64_t(reinterpret_cast<uintptr_t>(Memory)),
       uint64_t(reinterpret_cast<uintptr_t>(Memory)) + sizeof(Memory)}};
  for (const KernelInfo *K : M->kernels()) {
    if (K->Params.size() > 64)
      continue;
    std::vector<std::vector<uint64_t>> Slots;
    std::vector<void *> Args;
    for (const ParamInfo &P : K->Params) {
      Slots.emplace_back(std::max<size_t>(1, (size_t(P.Size) + 7) / 8), 0);
      Slots.back()[0] = uint64_t(reinterpret_cast<uintptr_t>(Memory));
      Args.push_back(Slots.back().data());
    }
    LaunchOptions O;
    O.Grid = {1, 1, 1};
    O.Block = {64, 1, 1};
    O.Args = Args.data();
    O.GlobalRanges = &Ranges;
    O.MaxWarpInstructionsPerBlock = 20000;
    O.MaxThreadsPerBlock = 1024;
    O.MaxSharedBytesPerBlock = 48 * 1024;
    LaunchMetrics Metrics;
    O.Metrics = &Metrics;
    M->launch(K->Name, O);
  }
  return 0;
}
