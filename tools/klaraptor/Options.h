//===- Options.h - the command lines of klaraptor's subcommands -*- C++ -*-===//
///
/// \file
/// Each subcommand's options are an llvm::opt table that llvm-tblgen makes
/// from NAMEOptions.td beside it (CommonOptions.td says why one table per
/// subcommand). The subcommand declares its Syntax and includes
/// OptionTable.def for its option IDs (OPT_db, ...) and options(), its
/// OptionTable, whose parse reads `--opt VALUE` and `--opt=VALUE`, flags,
/// lists, `--help` and `-h`, and the program after the options or after
/// `--`. Errors are in each subcommand's own words and name the argument.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_KLARAPTOR_OPTIONS_H
#define KLARAPTOR_TOOLS_KLARAPTOR_OPTIONS_H

#include "Commands.h"

#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"

#include <optional>

namespace klaraptor {
namespace cli {

/// CommonOptions.td's ListValues (the lower bits are llvm::opt's own flags).
constexpr unsigned ListValues = 1u << 4;

/// How a subcommand's command line reads, and the words of its errors.
struct Syntax {
  /// Printed to stdout by --help and -h, which end the subcommand (status 0).
  const char *(*Usage)();
  /// An unknown option or an argument no option takes: {0} is the argument,
  /// {1} "option" or "argument" (whether it starts with '-').
  const char *Unknown;
  /// An option without its value: {0} is the option as written.
  const char *Missing;
  /// The arguments that are not options are OPT_INPUT values (in a table
  /// without lists), not errors.
  bool Inputs = false;
};

/// One subcommand's table, made by OptionTable.def.
class OptionTable : public llvm::opt::GenericOptTable {
public:
  OptionTable(llvm::ArrayRef<Info> Infos, unsigned HelpID, const Syntax &S)
      : GenericOptTable(Infos), HelpID(HelpID), S(S) {
    setDashDashParsing(true);
  }

  /// Parses \p Argv into \p Options and, for a subcommand that runs a
  /// program, \p Command: the program and its arguments, from the first
  /// argument that is not an option or the one after `--` (empty: none
  /// given). Returns -1, or, when the subcommand is done, its exit status: 0
  /// after the usage, 1 after an error (both printed).
  int parse(Args Argv, llvm::opt::InputArgList &Options,
            Args *Command = nullptr) const;

private:
  unsigned HelpID;
  Syntax S;
};

/// `--min-samples N` of fit and report into \p Out (unchanged when \p A is
/// null); false, after the error, when N is not an integer from 1 to 10^6.
bool minSamplesOption(const llvm::opt::Arg *A, unsigned &Out);

} // namespace cli
} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_KLARAPTOR_OPTIONS_H
