//===- Options.cpp - the command lines of klaraptor's subcommands ---------===//
#include "Options.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <cstdlib>

using namespace llvm;

namespace klaraptor {
namespace cli {

int OptionTable::parse(Args Argv, opt::InputArgList &Options,
                       Args *Command) const {
  unsigned MissingIndex = 0, MissingCount = 0;
  Options = ParseArgs(Argv, MissingIndex, MissingCount);
  if (Command)
    for (const opt::Arg *A : Options)
      if (A->getOption().getKind() == opt::Option::InputClass) {
        // The program's own arguments follow it: only what comes before is
        // the subcommand's.
        *Command = Argv.drop_front(A->getIndex());
        Options = ParseArgs(Argv.take_front(A->getIndex()), MissingIndex,
                            MissingCount);
        break;
      }
  if (Options.hasArg(HelpID)) {
    std::fputs(S.Usage(), stdout);
    return 0;
  }
  // The first argument that is wrong; a missing value can only be the last.
  opt::Arg *List = nullptr;
  for (opt::Arg *A : Options) {
    const opt::Option &O = A->getOption();
    const bool Input = O.getKind() == opt::Option::InputClass;
    if (Input && List) {
      List->getValues().push_back(A->getValue());
      continue;
    }
    List = O.hasFlag(ListValues) ? A : nullptr;
    if (O.getKind() == opt::Option::UnknownClass || (Input && !S.Inputs)) {
      StringRef Text = Options.getArgString(A->getIndex());
      error(formatv(S.Unknown, Text,
                    Text.starts_with("-") ? "option" : "argument"));
      return 1;
    }
  }
  if (MissingCount) {
    error(formatv(S.Missing, Options.getArgString(MissingIndex)));
    return 1;
  }
  return -1;
}

bool minSamplesOption(const opt::Arg *A, unsigned &Out) {
  if (!A)
    return true;
  const char *V = A->getValue();
  char *End = nullptr;
  long N = std::strtol(V, &End, 10);
  if (!*V || *End || N < 1 || N > 1000000) {
    error("option '--min-samples' expects a positive integer, found '" +
          std::string(V) + "'");
    return false;
  }
  Out = unsigned(N);
  return true;
}

} // namespace cli
} // namespace klaraptor
