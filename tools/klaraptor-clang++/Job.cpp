//===- Job.cpp - one command run by klaraptor-clang++ ---------------------===//
///
/// \file
/// See Job.h.
//===----------------------------------------------------------------------===//
#include "Job.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace klaraptor {

std::string quoteForShell(StringRef Arg) {
  auto IsSafe = [](char C) {
    return isAlnum(C) || StringRef("_-./=:,+@%^").contains(C);
  };
  if (!Arg.empty() && all_of(Arg, IsSafe))
    return Arg.str();
  std::string Quoted = "'";
  for (char C : Arg) {
    if (C == '\'')
      Quoted += "'\\''";
    else
      Quoted += C;
  }
  Quoted += "'";
  return Quoted;
}

void Job::print(raw_ostream &OS, StringRef ProgramPath) const {
  OS << quoteForShell(ProgramPath);
  for (const std::string &Arg : Args)
    OS << ' ' << quoteForShell(Arg);
  OS << '\n';
}

} // namespace klaraptor
