//===- Commands.h - the subcommands of the klaraptor CLI --------*- C++ -*-===//
///
/// \file
/// Each subcommand is a function taking its own arguments (argv after the
/// subcommand's name) and returning the process exit status. Main.cpp holds
/// the table that maps names to these functions; a new subcommand is one
/// declaration here, one file, its options (NAMEOptions.td, Options.h) and
/// one table row.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_KLARAPTOR_COMMANDS_H
#define KLARAPTOR_TOOLS_KLARAPTOR_COMMANDS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace klaraptor {
namespace cli {

/// A subcommand's arguments, as main received them.
using Args = llvm::ArrayRef<const char *>;

/// Parses a size list "32,64,128" into positive integers; false with \p Error
/// ("'x' in '32,x' is not a positive integer", quoting \p Quoted instead of
/// \p Text when given).
bool parseList(const std::string &Text, std::vector<int64_t> &Out,
               std::string &Error, const std::string &Quoted = "");

/// \p S padded with blanks to \p W characters (terminal tables).
inline std::string pad(std::string S, size_t W) {
  if (S.size() < W)
    S.append(W - S.size(), ' ');
  return S;
}

/// The widest fitted form a terminal table shows; longer ones are cut with
/// "..." (`fit --json`, the report's JSON and HTML have them whole).
constexpr size_t MaxFormWidth = 48;
inline std::string cutForm(const std::string &Form) {
  return Form.size() > MaxFormWidth ? Form.substr(0, MaxFormWidth - 3) + "..."
                                    : Form;
}

/// `klaraptor fit-table FILE.csv --target COLUMN [options]`
int runFitTable(const Args &A);
/// The usage text of fit-table.
const char *fitTableUsage();

/// `klaraptor explain [--out FILE] [--launch N] -- COMMAND [ARGS...]`
int runExplain(const Args &A);
/// The usage text of explain.
const char *explainUsage();

/// `klaraptor fit [--db FILE] [--out DIR] [--device PROFILE] [--json]`
int runFit(const Args &A);
/// The usage text of fit.
const char *fitUsage();

/// `klaraptor profile [--sizes LIST]... [--db FILE] -- COMMAND [ARGS...]`
int runProfile(const Args &A);
/// The usage text of profile.
const char *profileUsage();

/// `klaraptor bench [--manifest FILE] [--only NAMES] ...`
int runBench(const Args &A);
/// The usage text of bench.
const char *benchUsage();

/// `klaraptor report [--db FILE] [--kernel NAME] [--size NAME=V,...]
/// [--device PROFILE] [--html FILE] [--json]`
int runReport(const Args &A);
/// The usage text of report.
const char *reportUsage();

/// `klaraptor device probe [--out FILE] [--base PROFILE] [--quick]`
int runDevice(const Args &A);
/// The usage text of device.
const char *deviceUsage();

/// `klaraptor dataset export|import|bench ...` (docs/dataset.md)
int runDataset(const Args &A);
/// The usage text of dataset.
const char *datasetUsage();

/// Prints `klaraptor: error: MESSAGE` to stderr.
void error(const std::string &Message);
/// Prints `klaraptor: warning: MESSAGE` to stderr.
void warning(const std::string &Message);

} // namespace cli
} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_KLARAPTOR_COMMANDS_H
