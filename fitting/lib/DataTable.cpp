//===- DataTable.cpp - CSV reading with located errors --------------------===//
///
/// \file
/// A deliberately small CSV dialect: comma separated, no quoting (cells are
/// numbers and column names are identifiers), surrounding blanks ignored.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/DataTable.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace klaraptor {
namespace fitting {

bool isIdentifier(const std::string &S) {
  if (S.empty() || !(std::isalpha((unsigned char)S[0]) || S[0] == '_'))
    return false;
  for (char C : S)
    if (!(std::isalnum((unsigned char)C) || C == '_'))
      return false;
  return true;
}

int DataTable::column(const std::string &Name) const {
  for (size_t I = 0; I < Names.size(); ++I)
    if (Names[I] == Name)
      return int(I);
  return -1;
}

static std::string printValue(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return Buf;
}

void DataTable::addRow(std::vector<double> Row, std::vector<std::string> T,
                       unsigned Line) {
  if (T.empty())
    for (double V : Row)
      T.push_back(printValue(V));
  Values.push_back(std::move(Row));
  Texts.push_back(std::move(T));
  Lines.push_back(Line ? Line : unsigned(Values.size() + 1));
}

DataTable DataTable::fromColumns(std::vector<std::string> Names,
                                 const std::vector<std::vector<double>> &Rows) {
  DataTable T;
  T.FileName = "<memory>";
  T.Names = std::move(Names);
  for (const auto &R : Rows)
    T.addRow(R);
  return T;
}

namespace {
/// One comma-separated field of a line: its trimmed text and the 1-based
/// column where that text starts.
struct Field {
  std::string Text;
  unsigned Column;
};

std::vector<Field> splitLine(const std::string &Line) {
  std::vector<Field> Out;
  size_t Start = 0;
  while (true) {
    size_t End = Line.find(',', Start);
    if (End == std::string::npos)
      End = Line.size();
    size_t B = Start, E = End;
    while (B < E && std::isspace((unsigned char)Line[B]))
      ++B;
    while (E > B && std::isspace((unsigned char)Line[E - 1]))
      --E;
    Out.push_back({Line.substr(B, E - B), unsigned(B + 1)});
    if (End == Line.size())
      break;
    Start = End + 1;
  }
  return Out;
}

bool isIntegerText(const std::string &S) {
  size_t I = (!S.empty() && (S[0] == '+' || S[0] == '-')) ? 1 : 0;
  if (I == S.size())
    return false;
  for (; I < S.size(); ++I)
    if (!std::isdigit((unsigned char)S[I]))
      return false;
  return true;
}

bool isBlankOrComment(const std::string &Line) {
  for (char C : Line) {
    if (std::isspace((unsigned char)C))
      continue;
    return C == '#';
  }
  return true;
}
} // namespace

std::optional<DataTable> parseCsv(const std::string &Text,
                                  const std::string &FileName,
                                  std::string &Error) {
  DataTable T;
  T.FileName = FileName;
  std::istringstream In(Text);
  std::string Line;
  unsigned LineNo = 0;
  bool HaveHeader = false;
  auto Fail = [&](unsigned Col, const std::string &M) {
    Error = FileName + ":" + std::to_string(LineNo) +
            (Col ? ":" + std::to_string(Col) : std::string()) + ": " + M;
    return std::nullopt;
  };
  while (std::getline(In, Line)) {
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (isBlankOrComment(Line))
      continue;
    std::vector<Field> Fields = splitLine(Line);
    if (!HaveHeader) {
      HaveHeader = true;
      for (const Field &F : Fields) {
        if (!isIdentifier(F.Text))
          return Fail(F.Column,
                      "column name '" + F.Text + "' is not an identifier");
        for (const auto &N : T.Names)
          if (N == F.Text)
            return Fail(F.Column, "column '" + F.Text + "' given twice");
        T.Names.push_back(F.Text);
      }
      continue;
    }
    if (Fields.size() != T.Names.size())
      return Fail(0, "expected " + std::to_string(T.Names.size()) +
                         " values, found " + std::to_string(Fields.size()));
    std::vector<double> Row;
    std::vector<std::string> Texts;
    for (const Field &F : Fields) {
      if (F.Text.empty())
        return Fail(F.Column,
                    "empty value in column '" + T.Names[Row.size()] + "'");
      const char *B = F.Text.c_str();
      char *End = nullptr;
      errno = 0;
      double V = std::strtod(B, &End);
      // An exact fraction "p/q" of two integers.
      if (End != B && *End == '/' &&
          isIntegerText(std::string(B, size_t(End - B))) &&
          isIntegerText(End + 1)) {
        double Den = std::strtod(End + 1, nullptr);
        if (Den == 0)
          return Fail(F.Column, "'" + F.Text + "' divides by zero");
        V /= Den;
        End += std::strlen(End);
      }
      if (End == B || *End != '\0')
        return Fail(F.Column, "'" + F.Text + "' is not a number");
      if (!std::isfinite(V))
        return Fail(F.Column, "'" + F.Text + "' is not a finite number");
      Row.push_back(V);
      Texts.push_back(F.Text);
    }
    T.addRow(std::move(Row), std::move(Texts), LineNo);
  }
  if (!HaveHeader) {
    Error = FileName + ": empty file (expected a header line of column names)";
    return std::nullopt;
  }
  return T;
}

std::optional<DataTable> readCsv(const std::string &Path, std::string &Error) {
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode)) {
    Error = "cannot read '" + Path + "': it is a directory";
    return std::nullopt;
  }
  std::ifstream F(Path, std::ios::binary);
  if (!F) {
    Error = "cannot open '" + Path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream SS;
  SS << F.rdbuf();
  if (F.bad()) {
    Error = "cannot read '" + Path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  return parseCsv(SS.str(), Path, Error);
}

} // namespace fitting
} // namespace klaraptor
