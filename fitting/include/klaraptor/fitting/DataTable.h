//===- DataTable.h - samples read from a CSV file ---------------*- C++ -*-===//
///
/// \file
/// A DataTable is a rectangle of finite numbers with named columns, read from
/// a CSV file: a header line of column names (C identifiers), then one sample
/// per line. Blank lines and lines whose first non-blank character is '#' are
/// skipped. A cell is a decimal number ("12", "0.1", "2.5e-3") or an exact
/// fraction of two integers ("7/3"). Every cell keeps its text as well as
/// its value, so that exact recovery (Exact.h) reads 0.1 and 7/3 exactly.
///
/// Errors carry the file, line and column of the offending cell, in the
/// format `data.csv:7:3: 'abc' is not a number`.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_DATATABLE_H
#define KLARAPTOR_FITTING_DATATABLE_H

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace klaraptor {
namespace fitting {

class DataTable {
public:
  /// Column names, in file order.
  const std::vector<std::string> &names() const { return Names; }
  size_t numColumns() const { return Names.size(); }
  size_t numRows() const { return Values.size(); }
  /// The index of column \p Name, or -1.
  int column(const std::string &Name) const;

  double value(size_t Row, size_t Col) const { return Values[Row][Col]; }
  const std::string &text(size_t Row, size_t Col) const {
    return Texts[Row][Col];
  }
  /// The 1-based line of the file that row \p Row came from.
  unsigned line(size_t Row) const { return Lines[Row]; }
  const std::string &fileName() const { return FileName; }

  /// Builds a table in memory (tests, benchmarks). Texts are the values
  /// printed with "%.17g".
  static DataTable fromColumns(std::vector<std::string> Names,
                               const std::vector<std::vector<double>> &Rows);

  /// Adds a row; \p Texts may be empty (then values are printed).
  void addRow(std::vector<double> Row, std::vector<std::string> Texts = {},
              unsigned Line = 0);

private:
  friend std::optional<DataTable> parseCsv(const std::string &,
                                           const std::string &, std::string &);
  std::string FileName;
  std::vector<std::string> Names;
  std::vector<std::vector<double>> Values;
  std::vector<std::vector<std::string>> Texts;
  std::vector<unsigned> Lines;
};

/// Parses CSV text; \p FileName is used in messages only. On failure returns
/// nullopt and sets \p Error to `FILE:LINE:COL: message` (or `FILE: message`
/// for whole-file problems).
std::optional<DataTable> parseCsv(const std::string &Text,
                                  const std::string &FileName,
                                  std::string &Error);

/// Reads and parses \p Path.
std::optional<DataTable> readCsv(const std::string &Path, std::string &Error);

/// Whether \p S is a C identifier (column names must be).
bool isIdentifier(const std::string &S);

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_DATATABLE_H
