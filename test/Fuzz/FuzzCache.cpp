//===- FuzzCache.cpp - libFuzzer target: the decision cache reader ---------===//
///
/// \file
/// Any bytes as a KLARAPTOR_CACHE file: loaded, looked up, appended to and
/// loaded again by a second reader; every record line through parseRecord,
/// and a record that parses must format back to the same line. Must never
/// crash, hang or fail a sanitizer.
//===----------------------------------------------------------------------===//
#include "DecisionCache.h"
#include "Diagnostics.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace klaraptor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  // Line by line.
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t End = Text.find('\n', Pos);
    std::string Line =
        Text.substr(Pos, End == std::string::npos ? std::string::npos : End - Pos);
    std::string Key;
    CachedDecision D;
    bool Legacy = false;
    if (DecisionCache::parseRecord(Line, Key, D, &Legacy) && !Legacy) {
      std::string Again = DecisionCache::formatRecord(Key, D);
      std::string Key2;
      CachedDecision D2;
      // The escaped key formats escaped once more, so compare values.
      if (!DecisionCache::parseRecord(Again.substr(0, Again.size() - 1), Key2,
                                      D2) ||
          D2.Block != D.Block || D2.Grid != D.Grid) {
        std::fprintf(stderr, "record does not round-trip: %s\n", Line.c_str());
        std::abort();
      }
    }
    if (End == std::string::npos)
      break;
    Pos = End + 1;
  }
  // As a file.
  static const std::string Path = "/tmp/klaraptor-fuzz-cache-" +
                                  std::to_string(::getpid());
  if (FILE *F = std::fopen(Path.c_str(), "wb")) {
    std::fwrite(Text.data(), 1, Text.size(), F);
    std::fclose(F);
  }
  Diagnostics Diags(LogLevel::Error);
  Diags.setSink([](LogLevel, const std::string &) {});
  {
    DecisionCache C(Path, Diags);
    CachedDecision Out;
    C.lookup("k", Out);
    C.store("k", CachedDecision{{32, 1, 1}, {4, 1, 1}, 1.5});
  }
  DecisionCache C2(Path, Diags);
  CachedDecision Out;
  C2.lookup("k", Out);
  std::remove(Path.c_str());
  return 0;
}
