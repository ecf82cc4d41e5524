//===- DecisionLog.cpp - decisions appended to KLARAPTOR_LOG as JSON lines ===//
///
/// \file
/// Numbers are written in full: integers as decimal, the prediction with
/// %.17g so it reads back exactly.
//===----------------------------------------------------------------------===//
#include "DecisionLog.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace klaraptor {

DecisionLog::~DecisionLog() {
  if (Fd >= 0)
    ::close(Fd);
}

std::string DecisionLog::quote(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"': Out += "\\\""; break;
    case '\\': Out += "\\\\"; break;
    case '\n': Out += "\\n"; break;
    case '\r': Out += "\\r"; break;
    case '\t': Out += "\\t"; break;
    default:
      if (C < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
        Out += Buf;
      } else {
        Out += char(C);
      }
    }
  }
  return Out + "\"";
}

static std::string dims(const Dim3 &D) {
  return "[" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]) + "]";
}

std::string DecisionLog::format(const LogEntry &E) {
  std::string S = "{\"kernel\": " + quote(E.Kernel);
  S += ", \"device_name\": " + quote(E.DeviceName);
  S += ", \"device\": " + std::to_string(E.Device);
  S += ", \"data\": {";
  for (size_t I = 0; I < E.Data.size(); ++I) {
    if (I)
      S += ", ";
    S += quote(E.Data[I].first) + ": " + std::to_string(E.Data[I].second);
  }
  S += "}, \"requested\": {\"grid\": " + dims(E.RequestedGrid) +
       ", \"block\": " + dims(E.RequestedBlock) + "}";
  S += ", \"block\": " + dims(E.Block);
  S += ", \"grid\": " + dims(E.Grid);
  if (E.HaveShared)
    S += ", \"shared_mem\": " + std::to_string(E.Shared);
  S += ", \"source\": " + quote(spelling(E.Source));
  if (!E.Reason.empty())
    S += ", \"reason\": " + quote(E.Reason);
  if (!E.ModelName.empty())
    S += ", \"model\": " + quote(E.ModelName);
  if (E.HavePrediction && std::isfinite(E.Predicted)) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.17g", E.Predicted);
    S += std::string(", \"predicted\": ") + Buf;
  }
  if (E.Source == DecisionSource::Measured && std::isfinite(E.MeasuredNs)) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.17g", E.MeasuredNs);
    S += std::string(", \"measured_ns\": ") + Buf +
         ", \"trials\": " + std::to_string(E.Trials);
  }
  S += ", \"candidates\": " + std::to_string(E.Candidates);
  S += ", \"pid\": " + std::to_string(E.Pid) + "}";
  return S;
}

void DecisionLog::write(const LogEntry &E) {
  if (!enabled())
    return;
  std::string Line = format(E) + "\n";
  std::lock_guard<std::mutex> G(M);
  if (Fd < 0) {
    if (OpenFailed)
      return;
    Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (Fd < 0) {
      OpenFailed = true;
      Diags.reportOnce(LogLevel::Warn, "cannot open KLARAPTOR_LOG '" + Path +
                                           "': " + std::strerror(errno) +
                                           "; decisions are not logged");
      return;
    }
  }
  ssize_t N;
  do
    N = ::write(Fd, Line.data(), Line.size());
  while (N < 0 && errno == EINTR);
  if (N != ssize_t(Line.size()))
    Diags.reportOnce(LogLevel::Warn,
                     "cannot write to KLARAPTOR_LOG '" + Path + "': " +
                         (N < 0 ? std::strerror(errno) : "short write"));
}

} // namespace klaraptor
