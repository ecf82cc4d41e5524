//===- CuptiMetrics.cpp - the cupti backend's GPU-free parts --------------===//
///
/// \file
/// The parts of the cupti backend (CuptiSweep.h) that need no GPU and no
/// CUDA header: the table from record keys to CUPTI metrics
/// (docs/metrics.md), the scan of a launch's arguments for device
/// allocations, and the summary of repeated timings.
//===----------------------------------------------------------------------===//
#include "CuptiSweep.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace klaraptor::profiler::cupti {

const std::vector<MetricKey> &cuptiMetricKeys() {
  // docs/metrics.md's CUPTI column; keys without a CUPTI counterpart
  // (inst_barrier, inst_other, blocks_executed, sampled) are not here. The
  // keys marked CuptiOnly have no emu counterpart.
  static const std::vector<MetricKey> Keys = {
      {"inst_executed", {"smsp__inst_executed.sum", nullptr}},
      {"thread_inst_executed", {"smsp__thread_inst_executed.sum", nullptr}},
      {"inst_integer", {"smsp__inst_executed_pipe_alu.sum", nullptr}},
      {"inst_fp32", {"smsp__inst_executed_pipe_fma.sum", nullptr}},
      {"inst_fp64", {"smsp__inst_executed_pipe_fp64.sum", nullptr}},
      {"inst_special", {"smsp__inst_executed_pipe_xu.sum", nullptr}},
      {"inst_global_load", {"smsp__inst_executed_op_global_ld.sum", nullptr}},
      {"inst_global_store", {"smsp__inst_executed_op_global_st.sum", nullptr}},
      {"inst_shared_load", {"smsp__inst_executed_op_shared_ld.sum", nullptr}},
      {"inst_shared_store", {"smsp__inst_executed_op_shared_st.sum", nullptr}},
      {"inst_local_load", {"smsp__inst_executed_op_local_ld.sum", nullptr}},
      {"inst_local_store", {"smsp__inst_executed_op_local_st.sum", nullptr}},
      {"inst_branch", {"smsp__inst_executed_op_branch.sum", nullptr}},
      {"inst_atomic", {"smsp__sass_inst_executed_op_atom.sum", nullptr}},
      {"global_load_requests",
       {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", nullptr}},
      {"global_load_sectors",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", nullptr}},
      {"global_store_requests",
       {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", nullptr}},
      {"global_store_sectors",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", nullptr}},
      {"global_atomic_requests",
       {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"}},
      {"global_atomic_sectors",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"}},
      {"shared_load_requests",
       {"smsp__sass_inst_executed_op_shared_ld.sum", nullptr}},
      {"shared_store_requests",
       {"smsp__sass_inst_executed_op_shared_st.sum", nullptr}},
      {"shared_bank_conflicts",
       {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", nullptr}},
      {"branches", {"smsp__sass_inst_executed_op_branch.sum", nullptr}},
      {"divergent_branches",
       {"smsp__sass_branch_targets_threads_divergent.sum", nullptr}},
      {"warps_launched", {"smsp__warps_launched.sum", nullptr}},
      {"blocks_launched", {"sm__ctas_launched.sum", nullptr}},
      {"gpu_time_duration_ns", {"gpu__time_duration.sum", nullptr}, true},
      // The memory hierarchy and the SMs' activity, which the emulator does
      // not model (docs/metrics.md, "Keys of the cupti backend only").
      {"l1_global_load_hit_sectors",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", nullptr},
       true},
      {"l2_read_sectors", {"lts__t_sectors_srcunit_tex_op_read.sum", nullptr},
       true},
      {"l2_read_hit_sectors",
       {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", nullptr},
       true},
      {"l2_write_sectors",
       {"lts__t_sectors_srcunit_tex_op_write.sum", nullptr}, true},
      {"dram_read_bytes", {"dram__bytes_read.sum", nullptr}, true},
      {"dram_write_bytes", {"dram__bytes_write.sum", nullptr}, true},
      {"sm_cycles_active", {"sm__cycles_active.sum", nullptr}, true},
      {"sm_warps_active", {"sm__warps_active.sum", nullptr}, true},
  };
  return Keys;
}

std::vector<std::string> cuptiMetricNames() {
  std::vector<std::string> Names;
  for (const MetricKey &K : cuptiMetricKeys())
    for (const char *C : K.Cupti)
      if (C && std::find(Names.begin(), Names.end(), C) == Names.end())
        Names.push_back(C);
  return Names;
}

unsigned setMetricKeys(const std::vector<std::string> &Names,
                       const std::vector<double> &Values, LaunchRecord &R) {
  unsigned Set = 0;
  for (const MetricKey &K : cuptiMetricKeys()) {
    double Sum = 0;
    bool All = true;
    for (const char *C : K.Cupti) {
      if (!C)
        continue;
      auto It = std::find(Names.begin(), Names.end(), C);
      size_t I = size_t(It - Names.begin());
      if (It == Names.end() || I >= Values.size()) {
        All = false;
        break;
      }
      Sum += Values[I];
    }
    if (All) {
      R.set(K.Key, Sum);
      ++Set;
    }
  }
  return Set;
}

std::vector<DeviceBuffer>
findArgumentBuffers(const std::vector<uint64_t> &ParamSizes,
                    void *const *Args, const AddressQuery &Query) {
  std::vector<DeviceBuffer> Out;
  if (!Args)
    return Out;
  for (size_t P = 0; P < ParamSizes.size(); ++P) {
    const auto *Bytes = static_cast<const unsigned char *>(Args[P]);
    if (!Bytes)
      continue;
    // Parameters are laid out at offsets aligned to their own alignment, so
    // a pointer inside a by-value struct sits at a multiple of 8 within it.
    for (uint64_t Off = 0; Off + 8 <= ParamSizes[P]; Off += 8) {
      uint64_t Word;
      std::memcpy(&Word, Bytes + Off, 8);
      if (Word == 0)
        continue;
      uint64_t Base = 0, Size = 0;
      if (!Query(Word, Base, Size) || Size == 0)
        continue;
      auto It = std::find_if(Out.begin(), Out.end(), [&](const DeviceBuffer &B) {
        return B.Base == Base;
      });
      if (It == Out.end())
        Out.push_back({Base, Size});
      else
        It->Size = std::max(It->Size, Size);
    }
  }
  return Out;
}

TimeSpread summarizeTimes(std::vector<double> Samples) {
  TimeSpread S;
  if (Samples.empty())
    return S;
  std::sort(Samples.begin(), Samples.end());
  size_t N = Samples.size();
  S.Count = unsigned(N);
  S.Min = Samples.front();
  S.Max = Samples.back();
  S.Median = N % 2 ? Samples[N / 2] : (Samples[N / 2 - 1] + Samples[N / 2]) / 2;
  return S;
}

bool parseRepeats(const char *Text, unsigned &Repeats, std::string &Error) {
  if (!Text || !*Text) {
    Repeats = 5;
    return true;
  }
  char *End = nullptr;
  long V = std::strtol(Text, &End, 10);
  if (*End || V < 1 || V > 1000) {
    Error = std::string("KLARAPTOR_CUPTI_REPEATS='") + Text +
            "' is not a number of repeats from 1 to 1000";
    return false;
  }
  Repeats = unsigned(V);
  return true;
}

} // namespace klaraptor::profiler::cupti
