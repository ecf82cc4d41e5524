//===- Backend.cpp - launch records and the backend registry --------------===//
///
/// \file
/// LaunchRecord's JSON form and createBackend(). A record is written as one
/// line so that several processes can append records to one file.
//===----------------------------------------------------------------------===//
#include "Backend.h"

#include "backend/EmuBackend.h"

#include <cmath>
#include <cstdio>

namespace klaraptor::profiler {

Backend::~Backend() = default;

double LaunchRecord::get(std::string_view Key, double Default) const {
  for (const auto &[K, V] : Values)
    if (K == Key)
      return V;
  return Default;
}

void LaunchRecord::set(std::string_view Key, double Value) {
  for (auto &[K, V] : Values)
    if (K == Key) {
      V = Value;
      return;
    }
  Values.emplace_back(std::string(Key), Value);
}

void appendJsonString(std::string &Out, std::string_view S) {
  Out += '"';
  for (char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    case '\r':
      Out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(C) < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\u%04x", unsigned(C));
        Out += Buf;
      } else {
        Out += C;
      }
    }
  }
  Out += '"';
}

static void appendNumber(std::string &Out, double V) {
  char Buf[40];
  // Counts are integers far below 2^53: print them exactly, without an
  // exponent; anything else losslessly.
  if (std::isfinite(V) && V == std::floor(V) &&
      std::fabs(V) < 9.007199254740992e15)
    std::snprintf(Buf, sizeof Buf, "%.0f", V);
  else if (std::isfinite(V))
    std::snprintf(Buf, sizeof Buf, "%.17g", V);
  else
    std::snprintf(Buf, sizeof Buf, "null");
  Out += Buf;
}

std::string LaunchRecord::toJson() const {
  std::string S = "{\"kernel\":";
  appendJsonString(S, Kernel);
  S += ",\"backend\":";
  appendJsonString(S, Backend);
  S += ",\"device\":";
  appendJsonString(S, Device);
  char Buf[160];
  std::snprintf(Buf, sizeof Buf,
                ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],"
                "\"dynamic_shared_bytes\":%llu",
                Grid[0], Grid[1], Grid[2], Block[0], Block[1], Block[2],
                static_cast<unsigned long long>(DynamicSharedBytes));
  S += Buf;
  for (const auto &[K, V] : Values) {
    S += ',';
    appendJsonString(S, K);
    S += ':';
    appendNumber(S, V);
  }
  S += '}';
  return S;
}

std::vector<std::string> backendNames() { return {"emu"}; }

std::unique_ptr<Backend> createBackend(std::string_view Name,
                                       std::string &Error) {
  if (Name == "emu")
    return std::make_unique<EmuBackend>();
  Error = "unknown profiler backend '" + std::string(Name) +
          "' (this build has: emu)";
  return nullptr;
}

} // namespace klaraptor::profiler
