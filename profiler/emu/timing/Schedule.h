//===- Schedule.h - the assembler's order within a basic block -*- C++ -*-===//
///
/// \file
/// The emulator runs PTX, the GPU runs the SASS that ptxas makes of it, and
/// ptxas schedules the instructions of each basic block: it issues loads as
/// early as their operands and the memory order allow, so that their
/// latencies overlap, where the PTX (clang's, unrolled) often alternates a
/// load and its use. The timing engine issues in order; with
/// `assembler_order = 1` (TimingParams::AssemblerOrder) it replays each
/// traced pass through a basic block in the order a list scheduler gives
/// (docs/timing.md, "The assembler's order"; not the default).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_TIMING_SCHEDULE_H
#define KLARAPTOR_PROFILER_EMU_TIMING_SCHEDULE_H

#include "Program.h"
#include "TimingModel.h"

#include <cstdint>
#include <vector>

namespace klaraptor::timing {

/// For every instruction of \p P (indices as \p Code's, which describes
/// them: registers read and written, region), its position in the schedule
/// of its region (a basic block: StaticInst::Region). The schedule is a
/// list schedule of the region's dependences: registers (read after write,
/// write after read, write after write, predicates included), memory (a
/// load or store never passes a store or an atomic, nor a store a load; loads pass
/// loads) and fences (barriers, membar/fence, calls, branches, exits: nothing
/// crosses them). Among the instructions whose predecessors are scheduled it
/// takes the one with the longest latency-weighted path to the region's end
/// (global and local loads and atomics count as long-latency, shared loads
/// as medium, everything else as short), ties in program order.
std::vector<uint32_t> assemblerOrder(const emu::KernelProgram &P,
                                     const std::vector<StaticInst> &Code);

/// Reorders \p Insts (one warp's trace) in place: each pass through a
/// region (a run of instances in that region with increasing program
/// counters) is sorted by \p Rank (assemblerOrder). A pass that skipped
/// instructions keeps the relative order of the schedule.
void replayInAssemblerOrder(std::vector<DynInst> &Insts,
                            const std::vector<StaticInst> &Code,
                            const std::vector<uint32_t> &Rank);

} // namespace klaraptor::timing

#endif // KLARAPTOR_PROFILER_EMU_TIMING_SCHEDULE_H
