//===- FuzzDataset.cpp - libFuzzer target: the dataset reader --------------===//
///
/// \file
/// Any bytes as a dataset file (docs/dataset.md, JSON Lines): read, and what
/// reads is summarised as `klaraptor dataset` does. Must never crash, hang
/// or fail a sanitizer.
//===----------------------------------------------------------------------===//
#include "DatasetFile.h"

#include <cstdint>
#include <sstream>
#include <string>

using namespace klaraptor::cli;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::istringstream In(
      std::string(reinterpret_cast<const char *>(Data), Size));
  Dataset D;
  std::string Error;
  if (!readDatasetFrom(In, "fuzz.jsonl", D, Error))
    return 0;
  volatile size_t Sink = 0;
  for (const DsLaunch &L : D.Launches) {
    Sink += L.Samples.size() + L.Data.size();
    for (const DsSample &S : L.Samples)
      Sink += usable(S);
  }
  return 0;
}
