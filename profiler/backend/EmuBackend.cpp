//===- EmuBackend.cpp - the profiler backend on top of the PTX emulator ---===//
///
/// \file
/// The metric table of the emu backend and the conversion of the emulator's
/// LaunchMetrics into a LaunchRecord. The CUPTI names are the base metric
/// names of CUDA 13's libnvperf_host.so (the Range Profiler's metric
/// provider) with the `.sum` roll-up, and Nsight Compute's `launch__*`
/// metrics for launch attributes.
//===----------------------------------------------------------------------===//
#include "EmuBackend.h"

#include "emu/Emulator.h"

#include <dlfcn.h>

namespace klaraptor::profiler {

const std::vector<MetricInfo> &emuMetrics() {
  static const std::vector<MetricInfo> Metrics = {
      {"inst_executed", "warp-level instructions executed (all classes)",
       "smsp__inst_executed.sum"},
      {"thread_inst_executed",
       "thread-level instructions executed (active lanes summed)",
       "smsp__thread_inst_executed.sum"},
      {"inst_integer",
       "warp instructions: integer, logic, conversion, move, "
       "compare",
       "smsp__inst_executed_pipe_alu.sum (closest: ALU pipe)"},
      {"inst_fp32", "warp instructions: single and half precision arithmetic",
       "smsp__inst_executed_pipe_fma.sum (closest: FMA pipe)"},
      {"inst_fp64", "warp instructions: double precision arithmetic",
       "smsp__inst_executed_pipe_fp64.sum"},
      {"inst_special",
       "warp instructions: sqrt rcp rsqrt ex2 lg2 sin cos tanh (MUFU)",
       "smsp__inst_executed_pipe_xu.sum"},
      {"inst_global_load", "warp instructions: global (and const) loads",
       "smsp__inst_executed_op_global_ld.sum"},
      {"inst_global_store", "warp instructions: global stores",
       "smsp__inst_executed_op_global_st.sum"},
      {"inst_shared_load", "warp instructions: shared-memory loads",
       "smsp__inst_executed_op_shared_ld.sum"},
      {"inst_shared_store", "warp instructions: shared-memory stores",
       "smsp__inst_executed_op_shared_st.sum"},
      {"inst_local_load", "warp instructions: local-memory loads",
       "smsp__inst_executed_op_local_ld.sum"},
      {"inst_local_store", "warp instructions: local-memory stores",
       "smsp__inst_executed_op_local_st.sum"},
      {"inst_branch", "warp instructions: bra, call, ret, exit",
       "smsp__inst_executed_op_branch.sum"},
      {"inst_barrier", "warp instructions: bar, barrier, membar, fence", ""},
      {"inst_atomic", "warp instructions: atom and red, global and shared",
       "smsp__sass_inst_executed_op_atom.sum"},
      {"inst_other", "warp instructions: shfl, vote, activemask, others", ""},
      {"global_load_requests", "global load requests (one per warp-level load)",
       "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
      {"global_load_sectors",
       "distinct 32-byte sectors the active lanes of each load touched",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
      {"global_load_lines",
       "distinct 128-byte lines the active lanes of each load touched",
       ""},
      {"global_store_requests", "global store requests",
       "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"},
      {"global_store_sectors", "32-byte sectors of global stores",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"},
      {"global_atomic_requests", "global atom and red requests",
       "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum + "
       "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"},
      {"global_atomic_sectors", "32-byte sectors of global atom and red",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum + "
       "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"},
      {"global_atomic_max_address_ops",
       "global atom and red operations (active lanes) on the address that "
       "has the most",
       ""},
      {"shared_load_requests", "shared-memory load requests",
       "smsp__sass_inst_executed_op_shared_ld.sum"},
      {"shared_store_requests", "shared-memory store requests",
       "smsp__sass_inst_executed_op_shared_st.sum"},
      {"shared_bank_conflicts",
       "extra shared-memory wavefronts caused by bank conflicts",
       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"},
      {"branches", "warp-level branch instructions executed",
       "smsp__sass_inst_executed_op_branch.sum"},
      {"divergent_branches",
       "branches whose active lanes did not all go the same way",
       "smsp__sass_branch_targets_threads_divergent.sum"},
      {"warps_launched", "warps launched", "smsp__warps_launched.sum"},
      {"blocks_launched", "thread blocks launched", "sm__ctas_launched.sum"},
      {"blocks_executed",
       "thread blocks the emulator executed (fewer when sampling)", ""},
      {"sampled", "1 when counts were scaled from a sample of blocks", ""},
      {"registers_per_thread", "registers per thread, from ptxas (the cubin)",
       "launch__registers_per_thread"},
      {"static_shared_bytes", "static shared memory per block",
       "launch__shared_mem_per_block_static"},
      {"dynamic_shared_bytes_per_block", "dynamic shared memory per block",
       "launch__shared_mem_per_block_dynamic"},
      {"local_bytes_per_thread", "local memory per thread", ""},
      {"active_blocks_per_sm",
       "resident blocks per SM by the occupancy calculation",
       "min(launch__occupancy_limit_blocks, "
       "launch__occupancy_limit_registers, "
       "launch__occupancy_limit_shared_mem, launch__occupancy_limit_warps)"},
      {"host_seconds", "host wall time the emulation of the launch took", ""},
  };
  return Metrics;
}

void setEmuMetrics(LaunchRecord &R, const emu::LaunchMetrics &M) {
  using emu::InstClass;
  auto W = [&](InstClass C) { return double(M.WarpInstructions[unsigned(C)]); };
  double Total = 0;
  for (unsigned C = 0; C < unsigned(InstClass::Count); ++C)
    Total += double(M.WarpInstructions[C]);
  R.set("inst_executed", Total);
  R.set("thread_inst_executed", double(M.ThreadInstructions));
  R.set("inst_integer", W(InstClass::Integer));
  R.set("inst_fp32", W(InstClass::Fp32));
  R.set("inst_fp64", W(InstClass::Fp64));
  R.set("inst_special", W(InstClass::Special));
  R.set("inst_global_load", W(InstClass::GlobalLoad));
  R.set("inst_global_store", W(InstClass::GlobalStore));
  R.set("inst_shared_load", W(InstClass::SharedLoad));
  R.set("inst_shared_store", W(InstClass::SharedStore));
  R.set("inst_local_load", W(InstClass::LocalLoad));
  R.set("inst_local_store", W(InstClass::LocalStore));
  R.set("inst_branch", W(InstClass::Branch));
  R.set("inst_barrier", W(InstClass::Barrier));
  R.set("inst_atomic", W(InstClass::Atomic));
  R.set("inst_other", W(InstClass::Other));
  R.set("global_load_requests", double(M.GlobalLoadRequests));
  R.set("global_load_sectors", double(M.GlobalLoadSectors));
  R.set("global_load_lines", double(M.GlobalLoadLines));
  R.set("global_store_requests", double(M.GlobalStoreRequests));
  R.set("global_store_sectors", double(M.GlobalStoreSectors));
  R.set("global_atomic_requests", double(M.GlobalAtomicRequests));
  R.set("global_atomic_sectors", double(M.GlobalAtomicSectors));
  R.set("global_atomic_max_address_ops", double(M.GlobalAtomicMaxAddressOps));
  R.set("shared_load_requests", double(M.SharedLoadRequests));
  R.set("shared_store_requests", double(M.SharedStoreRequests));
  R.set("shared_bank_conflicts", double(M.SharedBankConflicts));
  R.set("branches", double(M.Branches));
  R.set("divergent_branches", double(M.DivergentBranches));
  R.set("warps_launched", double(M.WarpsLaunched));
  R.set("blocks_launched", double(M.BlocksLaunched));
  R.set("blocks_executed", double(M.BlocksExecuted));
  R.set("sampled", M.Sampled ? 1 : 0);
  R.set("registers_per_thread", double(M.RegistersPerThread));
  R.set("static_shared_bytes", double(M.StaticSharedBytes));
  R.set("dynamic_shared_bytes_per_block", double(M.DynamicSharedBytes));
  R.set("local_bytes_per_thread", double(M.LocalBytesPerThread));
}

EmuBackend::~EmuBackend() {
  if (Active && SetObserver)
    SetObserver(nullptr, nullptr);
}

void EmuBackend::observe(void *Ctx, const void *Record) {
  auto *B = static_cast<EmuBackend *>(Ctx);
  const auto *R = static_cast<const LaunchRecord *>(Record);
  std::lock_guard<std::mutex> G(B->M);
  B->Captured.push_back(*R);
}

bool EmuBackend::begin(std::string &Error) {
  if (!SetObserver)
    SetObserver = reinterpret_cast<SetObserverFn>(
        ::dlsym(RTLD_DEFAULT, "klaraptor_emu_set_launch_observer"));
  if (!SetObserver) {
    Error = "the emu profiler backend needs the emulated CUDA runtime "
            "(libklaraptor_emu_cudart.so) in the process; build the program "
            "with 'klaraptor-clang++ --klaraptor-emulate'";
    return false;
  }
  {
    std::lock_guard<std::mutex> G(M);
    Captured.clear();
  }
  if (SetObserver(&EmuBackend::observe, this) != 0) {
    Error = "another emu profiler backend is already capturing launches";
    return false;
  }
  Active = true;
  return true;
}

bool EmuBackend::end(std::vector<LaunchRecord> &Records, std::string &Error) {
  if (!Active) {
    Error = "emu profiler backend: end() without begin()";
    return false;
  }
  SetObserver(nullptr, nullptr);
  Active = false;
  std::lock_guard<std::mutex> G(M);
  for (LaunchRecord &R : Captured)
    Records.push_back(std::move(R));
  Captured.clear();
  return true;
}

} // namespace klaraptor::profiler
