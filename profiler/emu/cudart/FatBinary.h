//===- FatBinary.h - PTX and register counts out of a CUDA fat binary -----===//
///
/// \file
/// A program built by klaraptor-clang++ carries its device code as the
/// fatbin nvcc made (`nvcc -fatbin --no-compress`); at start-up the host code
/// calls __cudaRegisterFatBinary(&wrapper). This file reads that fatbin:
///
/// wrapper (fatbinary_section.h, __fatBinC_Wrapper_t), 24 bytes:
///   int32 magic 0x466243B1, int32 version 1, ptr data, ptr filename (0)
/// fatbin header, 16 bytes, at data:
///   u32 magic 0xBA55ED50, u16 version 1, u16 header size (16),
///   u64 size of the entries that follow
/// entry header (64 bytes; PTX entries 80), then the payload:
///   +0  u16 kind: 1 PTX, 2 ELF cubin       +2  u16 (0x0101)
///   +4  u32 header size (payload offset)   +8  u64 payload size (padded)
///   +16 u32 compressed size (0 if not)     +24 u16 minor, +26 u16 major
///                                           (PTX ISA / cubin version)
///   +28 u32 arch (90 = sm_90 / compute_90) +40 u64 flags: 0x1 64-bit,
///   0x10 linux, 0x8000 payload compressed   +56 u64 uncompressed size
/// nvcc 13 compresses with zstd (frame magic 28 B5 2F FD); such a payload
/// is decompressed with the system's libzstd.so.1 when it can be loaded.
///
/// Register counts come from the sm_XX cubin: its `.nv.info` section holds
/// records {u8 format, u8 attribute, u16 size-or-value, payload}; format 4
/// (EIFMT_SVAL) attribute 0x2F (EIATTR_REGCOUNT) has {u32 symbol index,
/// u32 registers} and attribute 0x11 (EIATTR_FRAME_SIZE) {u32 symbol, u32
/// bytes}, symbols being .symtab indices (docs/emulator.md has the evidence).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_CUDART_FATBINARY_H
#define KLARAPTOR_PROFILER_EMU_CUDART_FATBINARY_H

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace klaraptor::emurt {

constexpr uint32_t FatbinWrapperMagic = 0x466243B1;
constexpr uint32_t FatbinMagic = 0xBA55ED50;

struct FatbinEntry {
  enum KindTy : uint16_t { Ptx = 1, Elf = 2 };
  uint16_t Kind = 0;
  uint32_t Arch = 0; ///< 90 for sm_90 / compute_90
  uint16_t Major = 0, Minor = 0;
  uint64_t Flags = 0;
  bool Compressed = false;
  const uint8_t *Payload = nullptr;
  uint64_t PayloadSize = 0;      ///< bytes stored (compressed size if so)
  uint64_t UncompressedSize = 0; ///< 0 when not recorded
};

/// The fatbin a __fatBinC_Wrapper_t points at.
bool fatbinFromWrapper(const void *Wrapper, const uint8_t *&Fatbin,
                       std::string &Error);

/// The entries of the fatbin container at \p Data (its size is in its
/// header; with \p Available, the bytes that may be read, the header's
/// sizes are checked against it).
bool parseFatbin(const uint8_t *Data, std::vector<FatbinEntry> &Entries,
                 std::string &Error, uint64_t Available = UINT64_MAX);

/// The payload of \p E, decompressed if needed.
bool entryPayload(const FatbinEntry &E, std::string &Out, std::string &Error);

/// What ptxas recorded about one function in a cubin.
struct CubinFunction {
  uint32_t Registers = 0;
  uint32_t FrameSize = 0;
  bool HasRegisters = false;
};

/// Reads the per-function attributes of the cubin \p Elf.
bool readCubin(const uint8_t *Elf, size_t Size,
               std::map<std::string, CubinFunction> &Functions,
               std::string &Error);

/// Adds to \p Names the device names of the kernels and variables in entry
/// \p E (the names a host registers them under): a PTX entry's `.entry`
/// names and module-scope `.global` and `.const` variables, a cubin's
/// function and object symbols.
bool entrySymbolNames(const FatbinEntry &E, std::set<std::string> &Names,
                      std::string &Error);

/// The code the emulator runs for a device of compute capability
/// \p DeviceArch (e.g. 90), chosen from a fatbin's entries.
struct KernelImage {
  std::string Ptx;
  uint32_t PtxArch = 0;
  /// From the cubin of the highest sm_XX <= DeviceArch with the same major
  /// version (what the GPU would load); empty when there is none.
  std::map<std::string, CubinFunction> Functions;
  uint32_t CubinArch = 0;
};

/// Why selectImage failed, for the CUDA error code.
enum class ImageError { None, NoImage, Compressed, Invalid };

/// Picks the PTX of the highest compute_XX <= \p DeviceArch and the
/// matching cubin's register counts.
ImageError selectImage(const std::vector<FatbinEntry> &Entries,
                       uint32_t DeviceArch, KernelImage &Image,
                       std::string &Error);

} // namespace klaraptor::emurt

#endif // KLARAPTOR_PROFILER_EMU_CUDART_FATBINARY_H
