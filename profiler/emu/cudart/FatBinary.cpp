//===- FatBinary.cpp - PTX and register counts out of a CUDA fat binary ---===//
///
/// \file
/// Readers for the layouts documented in FatBinary.h. Every read is bounds
/// checked: a malformed fatbin is an error, never a crash.
//===----------------------------------------------------------------------===//
#include "FatBinary.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>

namespace klaraptor::emurt {

namespace {

template <typename T> T readAt(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof V);
  return V;
}

constexpr uint64_t FlagCompressed = 0x8000;
constexpr uint32_t ZstdMagic = 0xFD2FB528;

std::string hex(uint64_t V) {
  char Buf[24];
  snprintf(Buf, sizeof Buf, "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

/// libzstd's one-shot decoder, loaded on first use.
struct Zstd {
  size_t (*Decompress)(void *, size_t, const void *, size_t) = nullptr;
  unsigned (*IsError)(size_t) = nullptr;
  const char *(*ErrorName)(size_t) = nullptr;

  static const Zstd &get() {
    static const Zstd Z = [] {
      Zstd Z;
      void *H = ::dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
      if (!H)
        return Z;
      Z.Decompress = reinterpret_cast<decltype(Z.Decompress)>(
          ::dlsym(H, "ZSTD_decompress"));
      Z.IsError =
          reinterpret_cast<decltype(Z.IsError)>(::dlsym(H, "ZSTD_isError"));
      Z.ErrorName = reinterpret_cast<decltype(Z.ErrorName)>(
          ::dlsym(H, "ZSTD_getErrorName"));
      if (!Z.Decompress || !Z.IsError)
        Z.Decompress = nullptr;
      return Z;
    }();
    return Z;
  }
};

const char *kindName(uint16_t K) {
  return K == FatbinEntry::Ptx ? "PTX" : K == FatbinEntry::Elf ? "ELF" : "?";
}

} // namespace

bool fatbinFromWrapper(const void *Wrapper, const uint8_t *&Fatbin,
                       std::string &Error) {
  if (!Wrapper) {
    Error = "null fatbin wrapper";
    return false;
  }
  const auto *W = static_cast<const uint8_t *>(Wrapper);
  uint32_t Magic = readAt<uint32_t>(W);
  if (Magic != FatbinWrapperMagic) {
    Error = "fatbin wrapper magic is " + hex(Magic) + ", expected " +
            hex(FatbinWrapperMagic);
    return false;
  }
  Fatbin = readAt<const uint8_t *>(W + 8);
  if (!Fatbin) {
    Error = "fatbin wrapper has no data";
    return false;
  }
  return true;
}

bool parseFatbin(const uint8_t *Data, std::vector<FatbinEntry> &Entries,
                 std::string &Error, uint64_t Available) {
  if (Available < 16) {
    Error = "fatbin of " + std::to_string(Available) +
            " bytes is shorter than its header";
    return false;
  }
  uint32_t Magic = readAt<uint32_t>(Data);
  if (Magic != FatbinMagic) {
    Error = "fatbin magic is " + hex(Magic) + ", expected " + hex(FatbinMagic);
    return false;
  }
  uint16_t HeaderSize = readAt<uint16_t>(Data + 6);
  uint64_t Size = readAt<uint64_t>(Data + 8);
  if (HeaderSize < 16 || Size > (uint64_t(1) << 34) ||
      HeaderSize > Available || Size > Available - HeaderSize) {
    Error = "fatbin header is malformed (header size " +
            std::to_string(HeaderSize) + ", size " + std::to_string(Size) + ")";
    return false;
  }
  const uint8_t *P = Data + HeaderSize, *End = P + Size;
  while (P < End) {
    if (End - P < 64) {
      Error =
          "fatbin entry header truncated at offset " + std::to_string(P - Data);
      return false;
    }
    FatbinEntry E;
    E.Kind = readAt<uint16_t>(P);
    uint32_t EntryHeader = readAt<uint32_t>(P + 4);
    uint64_t Padded = readAt<uint64_t>(P + 8);
    uint32_t CompressedSize = readAt<uint32_t>(P + 16);
    E.Minor = readAt<uint16_t>(P + 24);
    E.Major = readAt<uint16_t>(P + 26);
    E.Arch = readAt<uint32_t>(P + 28);
    E.Flags = readAt<uint64_t>(P + 40);
    E.UncompressedSize = readAt<uint64_t>(P + 56);
    if (EntryHeader < 64 || uint64_t(End - P) < EntryHeader ||
        uint64_t(End - P) - EntryHeader < Padded) {
      Error = "fatbin entry at offset " + std::to_string(P - Data) +
              " runs past the end of the fatbin";
      return false;
    }
    E.Payload = P + EntryHeader;
    E.Compressed = (E.Flags & FlagCompressed) != 0;
    E.PayloadSize = E.Compressed && CompressedSize && CompressedSize <= Padded
                        ? CompressedSize
                        : Padded;
    Entries.push_back(E);
    P += EntryHeader + Padded;
  }
  return true;
}

bool entryPayload(const FatbinEntry &E, std::string &Out, std::string &Error) {
  if (!E.Compressed) {
    Out.assign(reinterpret_cast<const char *>(E.Payload), E.PayloadSize);
    return true;
  }
  std::string What = std::string(kindName(E.Kind)) + " entry for arch " +
                     std::to_string(E.Arch);
  if (E.PayloadSize < 4 || readAt<uint32_t>(E.Payload) != ZstdMagic) {
    Error = "the fatbin's " + What +
            " is compressed in a format the emulator does not know; build "
            "the program with 'nvcc --no-compress' (klaraptor-clang++ does)";
    return false;
  }
  const Zstd &Z = Zstd::get();
  if (!Z.Decompress) {
    Error = "the fatbin's " + What +
            " is zstd-compressed and libzstd.so.1 cannot be loaded; build "
            "the program with 'nvcc --no-compress' (klaraptor-clang++ does)";
    return false;
  }
  if (!E.UncompressedSize || E.UncompressedSize > (uint64_t(1) << 32)) {
    Error = "the fatbin's " + What + " does not record its uncompressed size";
    return false;
  }
  Out.resize(E.UncompressedSize);
  size_t N = Z.Decompress(Out.data(), Out.size(), E.Payload, E.PayloadSize);
  if (Z.IsError(N) || N != E.UncompressedSize) {
    Error = "cannot decompress the fatbin's " + What + ": " +
            (Z.IsError(N) && Z.ErrorName ? Z.ErrorName(N)
                                         : "size differs from the header");
    return false;
  }
  return true;
}

namespace {

/// The sections of a 64-bit little-endian ELF file, bounds checked.
struct ElfFile {
  struct Section {
    uint32_t Name = 0, Type = 0, Link = 0;
    uint64_t Offset = 0, Size = 0;
  };
  const uint8_t *Data = nullptr;
  size_t Size = 0;
  std::vector<Section> Sections;
  const Section *ShStr = nullptr, *SymTab = nullptr, *SymStr = nullptr;

  bool load(const uint8_t *Elf, size_t ElfSize, std::string &Error) {
    Data = Elf;
    Size = ElfSize;
    auto Fail = [&](const std::string &M) {
      Error = "cubin: " + M;
      return false;
    };
    if (Size < 64 || std::memcmp(Elf,
                                 "\x7f"
                                 "ELF",
                                 4) != 0)
      return Fail("not an ELF file");
    if (Elf[4] != 2 || Elf[5] != 1)
      return Fail("not a 64-bit little-endian ELF file");
    uint64_t ShOff = readAt<uint64_t>(Elf + 0x28);
    uint16_t ShEntSize = readAt<uint16_t>(Elf + 0x3A);
    uint16_t ShNum = readAt<uint16_t>(Elf + 0x3C);
    uint16_t ShStrNdx = readAt<uint16_t>(Elf + 0x3E);
    if (ShEntSize < 64 || ShOff > Size ||
        uint64_t(ShNum) * ShEntSize > Size - ShOff || ShStrNdx >= ShNum)
      return Fail("section headers out of bounds");
    Sections.resize(ShNum);
    for (unsigned I = 0; I < ShNum; ++I) {
      const uint8_t *H = Elf + ShOff + uint64_t(I) * ShEntSize;
      Section &S = Sections[I];
      S.Name = readAt<uint32_t>(H);
      S.Type = readAt<uint32_t>(H + 4);
      S.Offset = readAt<uint64_t>(H + 0x18);
      S.Size = readAt<uint64_t>(H + 0x20);
      S.Link = readAt<uint32_t>(H + 0x28);
      if (S.Type != 8 /*SHT_NOBITS*/ &&
          (S.Offset > Size || S.Size > Size - S.Offset))
        return Fail("section " + std::to_string(I) + " out of bounds");
    }
    ShStr = &Sections[ShStrNdx];
    // The symbol table and its names.
    for (const Section &S : Sections)
      if (S.Type == 2 /*SHT_SYMTAB*/)
        SymTab = &S;
    if (!SymTab || SymTab->Link >= ShNum)
      return Fail("no symbol table");
    SymStr = &Sections[SymTab->Link];
    return true;
  }

  std::string stringAt(const Section &Table, uint64_t Off) const {
    if (Off >= Table.Size)
      return {};
    const char *B = reinterpret_cast<const char *>(Data + Table.Offset + Off);
    return std::string(B, strnlen(B, Table.Size - Off));
  }
  std::string sectionName(const Section &S) const {
    return stringAt(*ShStr, S.Name);
  }
  uint64_t numSymbols() const { return SymTab->Size / 24; }
  /// The Elf64_Sym at \p Index.
  const uint8_t *symbol(uint64_t Index) const {
    return Data + SymTab->Offset + Index * 24;
  }
  std::string symbolName(uint64_t Index) const {
    if (Index >= numSymbols())
      return {};
    return stringAt(*SymStr, readAt<uint32_t>(symbol(Index)));
  }
};

} // namespace

bool readCubin(const uint8_t *Elf, size_t Size,
               std::map<std::string, CubinFunction> &Functions,
               std::string &Error) {
  ElfFile F;
  if (!F.load(Elf, Size, Error))
    return false;
  for (const ElfFile::Section &S : F.Sections) {
    std::string Name = F.sectionName(S);
    if (Name != ".nv.info" && Name.rfind(".nv.info.", 0) != 0)
      continue;
    const uint8_t *P = Elf + S.Offset, *End = P + S.Size;
    while (End - P >= 4) {
      uint8_t Format = P[0], Attribute = P[1];
      uint16_t SizeOrValue = readAt<uint16_t>(P + 2);
      P += 4;
      if (Format != 4 /*EIFMT_SVAL*/)
        continue;
      if (End - P < SizeOrValue) {
        Error = "cubin: attribute runs past the end of " + Name;
        return false;
      }
      if ((Attribute == 0x2F /*EIATTR_REGCOUNT*/ ||
           Attribute == 0x11 /*EIATTR_FRAME_SIZE*/) &&
          SizeOrValue == 8) {
        std::string Fn = F.symbolName(readAt<uint32_t>(P));
        uint32_t Value = readAt<uint32_t>(P + 4);
        if (!Fn.empty()) {
          CubinFunction &C = Functions[Fn];
          if (Attribute == 0x2F) {
            C.Registers = Value;
            C.HasRegisters = true;
          } else {
            C.FrameSize = Value;
          }
        }
      }
      P += SizeOrValue;
    }
  }
  return true;
}

bool entrySymbolNames(const FatbinEntry &E, std::set<std::string> &Names,
                      std::string &Error) {
  std::string Payload;
  if (!entryPayload(E, Payload, Error))
    return false;
  if (E.Kind == FatbinEntry::Elf) {
    ElfFile F;
    if (!F.load(reinterpret_cast<const uint8_t *>(Payload.data()),
                Payload.size(), Error))
      return false;
    for (uint64_t I = 1; I < F.numSymbols(); ++I) {
      uint8_t Type = F.symbol(I)[4] & 0xf;
      if (Type != 1 /*STT_OBJECT*/ && Type != 2 /*STT_FUNC*/)
        continue;
      std::string Name = F.symbolName(I);
      if (!Name.empty())
        Names.insert(std::move(Name));
    }
    return true;
  }
  if (E.Kind != FatbinEntry::Ptx) {
    Error = "fatbin entry of unknown kind " + std::to_string(E.Kind);
    return false;
  }
  // Line by line, in text that ends at its first NUL (the payload is
  // padded): `[.visible|.weak] .entry NAME(` and module-scope
  // `[.visible|.extern|...] .global|.const [.align N] .TYPE NAME[...];`.
  Payload.resize(strnlen(Payload.data(), Payload.size()));
  auto IsNameChar = [](char C) {
    return std::isalnum((unsigned char)C) || C == '_' || C == '$' || C == '.';
  };
  size_t LineBegin = 0;
  while (LineBegin < Payload.size()) {
    size_t LineEnd = Payload.find('\n', LineBegin);
    if (LineEnd == std::string::npos)
      LineEnd = Payload.size();
    // The line's tokens up to the first '(', '[', ';' or '='.
    std::vector<std::string> Tokens;
    size_t P = LineBegin;
    while (P < LineEnd) {
      char C = Payload[P];
      if (C == '(' || C == '[' || C == ';' || C == '=' || C == '/')
        break;
      if (std::isspace((unsigned char)C) || C == ',') {
        ++P;
        continue;
      }
      size_t Begin = P;
      while (P < LineEnd && IsNameChar(Payload[P]))
        ++P;
      if (P == Begin)
        break; // something else: not a declaration we read
      Tokens.push_back(Payload.substr(Begin, P - Begin));
    }
    LineBegin = LineEnd + 1;
    size_t T = 0;
    while (T < Tokens.size() &&
           (Tokens[T] == ".visible" || Tokens[T] == ".weak" ||
            Tokens[T] == ".extern" || Tokens[T] == ".common"))
      ++T;
    if (T >= Tokens.size())
      continue;
    bool Entry = Tokens[T] == ".entry";
    if (!Entry && Tokens[T] != ".global" && Tokens[T] != ".const")
      continue;
    // The name: the first token after that is neither a directive nor a
    // number (`.align 4 .b8 coeffs`).
    for (++T; T < Tokens.size(); ++T) {
      const std::string &Tok = Tokens[T];
      if (Tok[0] == '.' || std::isdigit((unsigned char)Tok[0]))
        continue;
      Names.insert(Tok);
      break;
    }
  }
  return true;
}

ImageError selectImage(const std::vector<FatbinEntry> &Entries,
                       uint32_t DeviceArch, KernelImage &Image,
                       std::string &Error) {
  const FatbinEntry *Ptx = nullptr, *Cubin = nullptr;
  std::string Have;
  for (const FatbinEntry &E : Entries) {
    Have += std::string(Have.empty() ? "" : ", ") +
            (E.Kind == FatbinEntry::Ptx ? "compute_" : "sm_") +
            std::to_string(E.Arch) + (E.Compressed ? " (compressed)" : "");
    if (E.Arch > DeviceArch)
      continue;
    if (E.Kind == FatbinEntry::Ptx && (!Ptx || E.Arch > Ptx->Arch))
      Ptx = &E;
    // A cubin runs on devices of its major version and a minor at least
    // its own.
    if (E.Kind == FatbinEntry::Elf && E.Arch / 10 == DeviceArch / 10 &&
        (!Cubin || E.Arch > Cubin->Arch))
      Cubin = &E;
  }
  if (!Ptx) {
    Error = "the program's fatbin holds no PTX for compute_" +
            std::to_string(DeviceArch) + " or older (it has: " +
            (Have.empty() ? std::string("nothing") : Have) +
            "); the emulator runs PTX: build with klaraptor-clang++ "
            "--klaraptor-arch=sm_" + std::to_string(DeviceArch) +
            " (or older), or nvcc with -gencode arch=compute_XX,code=compute_XX";
    return ImageError::NoImage;
  }
  std::string Text;
  if (!entryPayload(*Ptx, Text, Error))
    return ImageError::Compressed;
  // The PTX text is NUL-terminated and padded.
  Text.resize(strnlen(Text.data(), Text.size()));
  Image.Ptx = std::move(Text);
  Image.PtxArch = Ptx->Arch;
  if (Cubin) {
    std::string Elf;
    std::string Why;
    if (entryPayload(*Cubin, Elf, Why) &&
        readCubin(reinterpret_cast<const uint8_t *>(Elf.data()), Elf.size(),
                  Image.Functions, Why))
      Image.CubinArch = Cubin->Arch;
    else
      Image.Functions.clear();
  }
  return ImageError::None;
}

} // namespace klaraptor::emurt
