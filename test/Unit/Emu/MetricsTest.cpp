//===- MetricsTest.cpp - launch metrics against hand-derived counts -------===//
///
/// \file
/// Instruction classes, thread instructions, global requests and sectors
/// (coalescing), shared-memory bank conflicts, branches, launch geometry
/// and sampling, each on a kernel whose counts follow from its text.
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"
#include "Exec.h"

#include <algorithm>

using namespace emutest;

namespace {

uint64_t cls(const LaunchMetrics &M, InstClass C) {
  return M.WarpInstructions[unsigned(C)];
}

TEST(Metrics, InstructionClasses) {
  std::string P = ptxHeader() + R"(
.visible .entry cls(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .f32 %f<3>;
  .reg .f64 %fd<3>;
  .reg .b32 %r<3>;
  ld.param.u64 %rd1, [p];
  ld.global.f32 %f1, [%rd1];
  add.f32 %f2, %f1, %f1;
  sin.approx.f32 %f2, %f2;
  cvt.f64.f32 %fd1, %f2;
  mul.f64 %fd2, %fd1, %fd1;
  st.global.f64 [%rd1+8], %fd2;
  bar.sync 0;
  atom.global.add.u32 %r1, [%rd1+16], 1;
  shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;
  ret;
}
)";
  auto M = load(P);
  Buffer<uint64_t> Buf(4);
  uint64_t *BP = Buf.data();
  M->setRegisters("cls", 17);
  for (unsigned Threads : {64u, 40u}) {
    LaunchMetrics Mt;
    ASSERT_EQ(run(*M, "cls", {3, 1, 1}, {Threads, 1, 1}, {&BP}, &Mt).Status, LaunchStatus::Ok);
    uint64_t W = 3 * 2; // warps
    EXPECT_EQ(cls(Mt, InstClass::Integer), W);
    EXPECT_EQ(cls(Mt, InstClass::GlobalLoad), W);
    EXPECT_EQ(cls(Mt, InstClass::Fp32), W);
    EXPECT_EQ(cls(Mt, InstClass::Special), W);
    EXPECT_EQ(cls(Mt, InstClass::Fp64), 2 * W);
    EXPECT_EQ(cls(Mt, InstClass::GlobalStore), W);
    EXPECT_EQ(cls(Mt, InstClass::Barrier), W);
    EXPECT_EQ(cls(Mt, InstClass::Atomic), W);
    EXPECT_EQ(cls(Mt, InstClass::Other), W);
    EXPECT_EQ(cls(Mt, InstClass::Branch), W); // ret
    EXPECT_EQ(cls(Mt, InstClass::SharedLoad), 0u);
    EXPECT_EQ(Mt.ThreadInstructions, 11u * 3 * Threads);
    EXPECT_EQ(Mt.Branches, 0u);
    // All lanes access the same word: one sector per request.
    EXPECT_EQ(Mt.GlobalLoadRequests, W);
    EXPECT_EQ(Mt.GlobalLoadSectors, W);
    EXPECT_EQ(Mt.GlobalStoreRequests, W);
    EXPECT_EQ(Mt.GlobalStoreSectors, W);
    EXPECT_EQ(Mt.GlobalAtomicRequests, W);
    EXPECT_EQ(Mt.GlobalAtomicSectors, W);
    // Every lane's atomic is on that word.
    EXPECT_EQ(Mt.GlobalAtomicMaxAddressOps, 3u * Threads);
    EXPECT_EQ(Mt.WarpsLaunched, W);
    EXPECT_EQ(Mt.BlocksLaunched, 3u);
    EXPECT_EQ(Mt.BlocksExecuted, 3u);
    EXPECT_EQ(Mt.RegistersPerThread, 17u);
    EXPECT_FALSE(Mt.Sampled);
  }
}

/// Every thread adds 1 to a[gid % mod], and thread 0 of each block to
/// a[mod] too: the busiest address has max(blocks, ceil(threads / mod))
/// operations.
TEST(Metrics, AtomicsOnTheBusiestAddress) {
  std::string P = ptxHeader() + R"(
.visible .entry scatter(.param .u64 a, .param .u32 mod)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [a];
  ld.param.u32 %r1, [mod];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  rem.u32 %r6, %r5, %r1;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  red.global.add.u32 [%rd3], 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd4, %rd1, %rd2;
  red.global.add.u32 [%rd4], 1;
DONE:
  ret;
}
)";
  auto M = load(P);
  const uint32_t Blocks = 400, Threads = 256, Total = Blocks * Threads;
  Buffer<uint32_t> Buf(Total + 1);
  uint32_t *BP = Buf.data();
  for (unsigned HostThreads : {1u, 2u}) {
    // 64 addresses (and the busy one): exact, 1600 on each.
    uint32_t Mod = 64;
    LaunchMetrics Mt;
    ASSERT_EQ(run(*M, "scatter", {Blocks, 1, 1}, {Threads, 1, 1}, {&BP, &Mod},
                  &Mt, 0, HostThreads)
                  .Status,
              LaunchStatus::Ok);
    EXPECT_EQ(Mt.GlobalAtomicMaxAddressOps, Total / Mod);
    // 102400 addresses of one operation each, and a[mod] with 400: more
    // addresses than the table keeps, so the count may be low by at most
    // the operations / 4097 (26), and the busy address is found.
    Mod = Total;
    ASSERT_EQ(run(*M, "scatter", {Blocks, 1, 1}, {Threads, 1, 1}, {&BP, &Mod},
                  &Mt, 0, HostThreads)
                  .Status,
              LaunchStatus::Ok);
    uint64_t Ops = Total + Blocks;
    EXPECT_LE(Mt.GlobalAtomicMaxAddressOps, uint64_t(Blocks));
    EXPECT_GE(Mt.GlobalAtomicMaxAddressOps,
              Blocks - Ops / (Counters::MaxAtomicAddresses + 1))
        << HostThreads << " host threads";
  }
}

/// out[i] = in[i * stride] over 256 threads (8 warps), element type T.
std::string copyKernel(const std::string &T, unsigned Size, const std::string &Vec = "") {
  std::string Regs = Vec.empty() ? "%v1" : "{%v1, %v2, %v3, %v4}";
  return ptxHeader() + R"(
.visible .entry copy(.param .u64 in, .param .u64 out, .param .u32 stride, .param .u32 shift)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .reg .)" + T + R"( %v<5>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [stride];
  ld.param.u32 %r5, [shift];
  mov.u32 %r2, %tid.x;
  add.u32 %r2, %r2, %r5;
  mul.lo.u32 %r3, %r2, %r1;
  mul.wide.u32 %rd3, %r3, )" + std::to_string(Size) + R"(;
  add.s64 %rd4, %rd1, %rd3;
  ld.global)" + Vec + "." + T + " " + Regs + R"(, [%rd4];
  mul.wide.u32 %rd5, %r2, )" + std::to_string(Size) + R"(;
  add.s64 %rd6, %rd2, %rd5;
  st.global)" + Vec + "." + T + R"( [%rd6], )" + Regs + R"(;
  ret;
}
)";
}

struct CopyCase {
  const char *Type;
  unsigned Size;
  const char *Vec;
  unsigned Stride, Shift;
  uint64_t LoadSectorsPerRequest, StoreSectorsPerRequest;
};

TEST(Metrics, CoalescingSectorsPerRequest) {
  CopyCase Cases[] = {
      {"f32", 4, "", 1, 0, 4, 4},      // coalesced floats: 128 bytes, 4 sectors
      {"f32", 4, "", 32, 0, 32, 4},    // stride 32 floats: a sector per lane
      {"f32", 4, "", 2, 0, 8, 4},      // stride 2: 256 bytes
      {"f32", 4, "", 0, 0, 1, 4},      // all lanes one address
      {"f32", 4, "", 1, 1, 5, 5},      // shifted by one float: 5 sectors
      {"f64", 8, "", 1, 0, 8, 8},      // doubles: 256 bytes
      {"f32", 16, ".v4", 1, 0, 16, 16}, // float4: 512 bytes
      {"u8", 1, "", 1, 0, 1, 1},       // bytes: 32 bytes
  };
  for (const CopyCase &C : Cases) {
    auto M = load(copyKernel(C.Type, C.Size, C.Vec));
    Buffer<uint8_t> In(size_t(C.Size) * 257 * std::max(1u, C.Stride) + 256), Out(C.Size * 260);
    uint8_t *IP = In.data(), *OP = Out.data();
    unsigned Stride = C.Stride, Shift = C.Shift;
    LaunchMetrics Mt;
    ASSERT_EQ(run(*M, "copy", {1, 1, 1}, {256, 1, 1}, {&IP, &OP, &Stride, &Shift}, &Mt).Status,
              LaunchStatus::Ok);
    EXPECT_EQ(Mt.GlobalLoadRequests, 8u) << C.Type << C.Vec << " stride " << C.Stride;
    EXPECT_EQ(Mt.GlobalStoreRequests, 8u);
    EXPECT_EQ(Mt.GlobalLoadSectors, 8 * C.LoadSectorsPerRequest)
        << C.Type << C.Vec << " stride " << C.Stride << " shift " << C.Shift;
    EXPECT_EQ(Mt.GlobalStoreSectors, 8 * C.StoreSectorsPerRequest)
        << C.Type << C.Vec << " stride " << C.Stride << " shift " << C.Shift;
  }
}

/// Each lane loads and stores shared words at (lane * stride) % 1024, with
/// accesses of Bytes bytes.
std::string sharedKernel(unsigned Bytes) {
  std::string T = Bytes == 4 ? "u32" : Bytes == 8 ? "u64" : "u16";
  return ptxHeader() + R"(
.visible .entry sh(.param .u32 stride)
{
  .shared .align 16 .b8 buf[8192];
  .reg .b32 %r<8>;
  .reg .)" + T + R"( %v;
  ld.param.u32 %r1, [stride];
  mov.u32 %r2, %tid.x;
  mul.lo.u32 %r3, %r2, %r1;
  and.b32 %r3, %r3, 1023;
  mul.lo.u32 %r3, %r3, )" + std::to_string(Bytes) + R"(;
  mov.u32 %r4, buf;
  add.u32 %r4, %r4, %r3;
  ld.shared.)" + T + R"( %v, [%r4];
  st.shared.)" + T + R"( [%r4], %v;
  ret;
}
)";
}

TEST(Metrics, SharedMemoryBankConflicts) {
  struct {
    unsigned Bytes, Stride;
    uint64_t ConflictsPerAccess;
  } Cases[] = {
      {4, 1, 0},  {4, 2, 1},  {4, 4, 3}, {4, 32, 31}, {4, 0, 0}, {4, 33, 0}, {4, 3, 0},
      {8, 1, 0},  // 64-bit: two wavefronts are the minimum, no conflict
      {8, 2, 2},  // words 4l, 4l+1: 4 per bank against a minimum of 2
      {8, 16, 30}, // every lane in banks 0 and 1: 32 words each, minimum 2
      {2, 1, 0},  // two lanes share a word
  };
  for (auto &C : Cases) {
    auto M = load(sharedKernel(C.Bytes));
    unsigned Stride = C.Stride;
    LaunchMetrics Mt;
    ASSERT_EQ(run(*M, "sh", {1, 1, 1}, {64, 1, 1}, {&Stride}, &Mt).Status, LaunchStatus::Ok);
    EXPECT_EQ(Mt.SharedLoadRequests, 2u);
    EXPECT_EQ(Mt.SharedStoreRequests, 2u);
    EXPECT_EQ(Mt.SharedBankConflicts, 4 * C.ConflictsPerAccess)
        << C.Bytes << " bytes, stride " << C.Stride;
  }
}

TEST(Metrics, DivergentBranches) {
  // `if (tid & 1)`: every warp splits once; a uniform branch does not.
  std::string P = ptxHeader() + R"(
.visible .entry br(.param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  mov.u32 %r3, 1;
  @%p1 bra $EVEN;
  mov.u32 %r3, 2;
$EVEN:
  setp.lt.u32 %p2, %r1, 4096;
  @%p2 bra $ALL;
  mov.u32 %r3, 3;
$ALL:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(256);
  uint32_t *O = Out.data();
  LaunchMetrics Mt;
  ASSERT_EQ(run(*M, "br", {2, 1, 1}, {128, 1, 1}, {&O}, &Mt).Status, LaunchStatus::Ok);
  EXPECT_EQ(Mt.Branches, 2u * 8);
  EXPECT_EQ(Mt.DivergentBranches, 8u);
  EXPECT_EQ(Out[0], 1u);
  EXPECT_EQ(Out[1], 2u);
}

TEST(Metrics, LaunchGeometryAndMemorySizes) {
  std::string P = ptxHeader() + R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry geo()
{
  .local .align 4 .b8 stack[40];
  .shared .align 8 .b8 st[100];
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  mov.u32 %r1, st;
  mov.u32 %r2, dyn;
  st.shared.u32 [%r2], %r1;
  mov.u64 %rd1, stack;
  st.local.u32 [%rd1+36], %r1;
  ret;
}
)";
  auto M = load(P);
  const KernelInfo *K = M->findKernel("geo");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->StaticSharedBytes, 100u);
  EXPECT_EQ(K->LocalBytes, 48u); // 40 rounded to 16
  LaunchMetrics Mt;
  ASSERT_EQ(run(*M, "geo", {4, 3, 2}, {10, 7, 1}, {}, &Mt, 64).Status, LaunchStatus::Ok);
  EXPECT_EQ(Mt.BlocksLaunched, 24u);
  EXPECT_EQ(Mt.WarpsLaunched, 24u * 3);
  EXPECT_EQ(Mt.StaticSharedBytes, 100u);
  EXPECT_EQ(Mt.DynamicSharedBytes, 64u);
  EXPECT_EQ(Mt.LocalBytesPerThread, 48u);
  EXPECT_EQ(Mt.WarpInstructions[unsigned(InstClass::LocalStore)], 72u);
}

TEST(Metrics, SamplingScalesCounts) {
  auto M = load(copyKernel("f32", 4));
  Buffer<float> In(256 * 100), Out(256 * 100);
  // Every block copies the same 256 floats: sampled counts are exact.
  float *IP = In.data(), *OP = Out.data();
  unsigned Stride = 1, Shift = 0;
  LaunchMetrics Full, Sampled;
  ASSERT_EQ(run(*M, "copy", {100, 1, 1}, {256, 1, 1}, {&IP, &OP, &Stride, &Shift}, &Full)
                .Status,
            LaunchStatus::Ok);
  ASSERT_EQ(run(*M, "copy", {100, 1, 1}, {256, 1, 1}, {&IP, &OP, &Stride, &Shift}, &Sampled,
                0, 1, 10)
                .Status,
            LaunchStatus::Ok);
  EXPECT_TRUE(Sampled.Sampled);
  EXPECT_EQ(Sampled.BlocksExecuted, 10u);
  EXPECT_EQ(Sampled.BlocksLaunched, 100u);
  EXPECT_EQ(Sampled.WarpsLaunched, 800u);
  EXPECT_EQ(Sampled.ThreadInstructions, Full.ThreadInstructions);
  EXPECT_EQ(Sampled.GlobalLoadSectors, Full.GlobalLoadSectors);
  for (unsigned K = 0; K < unsigned(InstClass::Count); ++K)
    EXPECT_EQ(Sampled.WarpInstructions[K], Full.WarpInstructions[K]);
  // More samples than blocks: everything runs, nothing is scaled.
  LaunchMetrics All;
  ASSERT_EQ(run(*M, "copy", {5, 1, 1}, {256, 1, 1}, {&IP, &OP, &Stride, &Shift}, &All, 0, 1,
                50)
                .Status,
            LaunchStatus::Ok);
  EXPECT_FALSE(All.Sampled);
  EXPECT_EQ(All.BlocksExecuted, 5u);
}

} // namespace

// The sectors a traced access records (the cache model's input) are the
// ones the metrics count: the same number, distinct, ascending, tagged.
TEST(Metrics, TracedSectorsAreTheCountedOnes) {
  uint64_t Addr[32];
  uint32_t Seed = 12345;
  auto Rand = [&] { return Seed = Seed * 1103515245u + 12345u; };
  for (unsigned Bytes : {1u, 4u, 8u, 16u})
    for (int Trial = 0; Trial < 200; ++Trial) {
      uint32_t Mask = Trial % 3 ? Rand() : 0xffffffffu;
      uint64_t Base = uint64_t(Rand() % 4096) * Bytes;
      for (unsigned L = 0; L < 32; ++L)
        Addr[L] = Trial % 2 ? Base + L * Bytes
                            : Base + uint64_t(Rand() % 512) * Bytes;
      std::vector<uint64_t> Out = {7};
      unsigned N = appendSectors(Addr, Mask, Bytes, uint64_t(1) << 63, Out);
      ASSERT_EQ(N, countSectors(Addr, Mask, Bytes));
      ASSERT_EQ(Out.size(), 1 + N);
      EXPECT_EQ(Out[0], 7u);
      for (size_t I = 1; I < Out.size(); ++I) {
        EXPECT_TRUE(Out[I] >> 63);
        if (I > 1)
          EXPECT_LT(Out[I - 1], Out[I]);
      }
      for (unsigned L = 0; L < 32; ++L)
        if (Mask >> L & 1)
          EXPECT_TRUE(std::binary_search(Out.begin() + 1, Out.end(),
                                         (Addr[L] >> 5) | (uint64_t(1) << 63)));
    }
}

// countSectors and appendSectors against the definition (the distinct
// addresses / 32 of every byte the active lanes access) on the patterns its one-pass paths take
// (strides of either sign, broadcasts, 2-D tiles in and out of order, whole
// and partial warps) and on those they must leave to the general path
// (sectors that go down and up again, misaligned or wide accesses).
/// A warp's addresses for the counting tests: lanes in tiles of \p Tile,
/// \p Stride bytes apart within a tile, a row of 4096 bytes between tiles,
/// the rows in order, reversed (odd trials) or shuffled (every third); a
/// base of random alignment (of \p Bytes in three trials of four).
template <class RandFn>
void tiledAddresses(uint64_t *Addr, unsigned Bytes, int64_t Stride,
                    unsigned Tile, int Trial, RandFn &Rand) {
  uint64_t Base = (uint64_t(1) << 32) + (Rand() % 8192) * (Trial % 4 ? Bytes : 1);
  unsigned Rows = 32 / Tile;
  std::vector<unsigned> RowOf(Rows);
  for (unsigned R = 0; R < Rows; ++R)
    RowOf[R] = Trial % 2 ? Rows - 1 - R : R;
  if (Trial % 3 == 0)
    for (unsigned R = Rows; R > 1; --R)
      std::swap(RowOf[R - 1], RowOf[Rand() % R]);
  for (unsigned L = 0; L < 32; ++L)
    Addr[L] = Base + uint64_t(int64_t(L % Tile) * Stride) +
              uint64_t(RowOf[L / Tile]) * 4096;
}

/// The reference count: distinct (address >> \p Shift) over every byte of
/// the active lanes' accesses (5: sectors, 7: lines).
unsigned distinctUnits(const uint64_t *Addr, uint32_t Mask, unsigned Bytes,
                       unsigned Shift) {
  std::vector<uint64_t> S;
  for (unsigned L = 0; L < 32; ++L)
    if (Mask >> L & 1)
      for (uint64_t A = Addr[L]; A < Addr[L] + Bytes; ++A)
        S.push_back(A >> Shift);
  std::sort(S.begin(), S.end());
  return unsigned(std::unique(S.begin(), S.end()) - S.begin());
}

TEST(Metrics, SectorCountsMatchTheirDefinition) {
  auto Reference = [](const uint64_t *Addr, uint32_t Mask, unsigned Bytes) {
    return distinctUnits(Addr, Mask, Bytes, 5);
  };
  // Both paths where the CPU has AVX2 (four lanes at a time, and not).
  const bool Avx2 = HostHasAvx2;
  for (bool Use : {Avx2, false}) {
    HostHasAvx2 = Use;
    uint32_t Seed = 777;
    auto Rand = [&] { return Seed = Seed * 1103515245u + 12345u; };
    uint64_t Addr[32];
    unsigned Checked = 0;
    for (unsigned Bytes : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 12u})
      for (int64_t Stride : {0, 1, 4, 8, 12, 31, 32, 33, 768, -4, -8, -32, -768})
        for (unsigned Tile : {32u, 8u, 2u, 1u})
          for (int Trial = 0; Trial < 12; ++Trial) {
            tiledAddresses(Addr, Bytes, Stride, Tile, Trial, Rand);
            for (uint32_t Mask : {0xffffffffu, Rand(), 0x0000ffffu, 0x80000001u,
                                  0x00000100u}) {
              std::vector<uint64_t> Listed = {5};
              unsigned Appended = appendSectors(Addr, Mask, Bytes, 0, Listed);
              ASSERT_EQ(Appended, Reference(Addr, Mask, Bytes))
                  << "appendSectors: bytes " << Bytes << " stride " << Stride
                  << " tile " << Tile << " trial " << Trial;
              ASSERT_EQ(Listed.size(), 1 + Appended);
              ASSERT_TRUE(std::is_sorted(Listed.begin() + 1, Listed.end()));
              ASSERT_EQ(countSectors(Addr, Mask, Bytes),
                        Reference(Addr, Mask, Bytes))
                  << "bytes " << Bytes << " stride " << Stride << " tile "
                  << Tile << " trial " << Trial << " mask " << std::hex << Mask;
              ++Checked;
            }
          }
    EXPECT_EQ(Checked, 8u * 13 * 4 * 12 * 5);
    EXPECT_EQ(countSectors(Addr, 0, 4), 0u);
  }
  HostHasAvx2 = Avx2;
}

TEST(Metrics, LineCountsMatchTheirDefinition) {
  // global_load_lines: the distinct 128-byte lines of the active lanes'
  // bytes, whatever the order, stride, size or alignment of the accesses.
  auto Reference = [](const uint64_t *Addr, uint32_t Mask, unsigned Bytes) {
    return distinctUnits(Addr, Mask, Bytes, 7);
  };
  uint64_t Addr[32];
  // Both paths where the CPU has AVX2 (the counting sectors share), and
  // 32- and 64-byte accesses (the list path) as well.
  const bool Avx2 = HostHasAvx2;
  for (bool Use : {Avx2, false}) {
    HostHasAvx2 = Use;
    uint32_t Seed = 4242;
    auto Rand = [&] { return Seed = Seed * 1103515245u + 12345u; };
    unsigned Checked = 0;
    for (unsigned Bytes : {1u, 4u, 8u, 16u, 32u, 64u, 12u})
      for (int64_t Stride : {0, 1, 4, 8, 32, 33, 128, 768, -4, -128})
        for (unsigned Tile : {32u, 16u, 8u, 1u})
          for (int Trial = 0; Trial < 6; ++Trial) {
            tiledAddresses(Addr, Bytes, Stride, Tile, Trial, Rand);
            for (uint32_t Mask :
                 {0xffffffffu, Rand(), 0x0000ffffu, 0x80000001u}) {
              ASSERT_EQ(countLines(Addr, Mask, Bytes),
                        Reference(Addr, Mask, Bytes))
                  << "bytes " << Bytes << " stride " << Stride << " tile "
                  << Tile << " trial " << Trial << " mask " << std::hex
                  << Mask;
              ++Checked;
            }
          }
    EXPECT_EQ(Checked, 7u * 10 * 4 * 6 * 4);
    EXPECT_EQ(countLines(Addr, 0, 4), 0u);
  }
  HostHasAvx2 = Avx2;
  // A warp's coalesced floats: one line when aligned, two when not.
  for (unsigned L = 0; L < 32; ++L)
    Addr[L] = 4096 + 4 * L;
  EXPECT_EQ(countLines(Addr, 0xffffffffu, 4), 1u);
  for (unsigned L = 0; L < 32; ++L)
    Addr[L] = 4096 + 64 + 4 * L;
  EXPECT_EQ(countLines(Addr, 0xffffffffu, 4), 2u);
}
