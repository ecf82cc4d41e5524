//===- Job.h - one command run by klaraptor-clang++ -------------*- C++ -*-===//
///
/// \file
/// A command (nvcc, a clang compile, the link) with the klaraptor files it
/// needs, printed shell-quoted for --klaraptor-dryrun / --klaraptor-verbose.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_CLANG_JOB_H
#define KLARAPTOR_TOOLS_CLANG_JOB_H

#include "Toolchain.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace klaraptor {

/// One command.
struct Job {
  Tool Program = Tool::Clang;
  /// Arguments after the program name.
  std::vector<std::string> Args;
  /// Files the command cannot do without, each with what it is
  /// ("the klaraptor plugin"); checked before anything runs.
  std::vector<std::pair<std::string, std::string>> Needs;

  /// Prints \p ProgramPath and the arguments, shell-quoted, on one line.
  void print(llvm::raw_ostream &OS, llvm::StringRef ProgramPath) const;
};

/// \p Arg as a POSIX shell reads it back: unchanged when it is made of safe
/// characters only, else in single quotes.
std::string quoteForShell(llvm::StringRef Arg);

} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_CLANG_JOB_H
