//===- Json.h - a small JSON reader for the CLI's own files -----*- C++ -*-===//
///
/// \file
/// The CLI reads JSON that klaraptor itself writes (KLARAPTOR_BENCH records,
/// decision logs). The CLI has no LLVM dependency, so llvm::json is not at
/// hand; this reader covers RFC 8259 except that numbers are doubles and
/// \\u escapes outside the BMP are kept as two code units.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_KLARAPTOR_JSON_H
#define KLARAPTOR_TOOLS_KLARAPTOR_JSON_H

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace klaraptor {
namespace cli {

struct JsonValue {
  enum Kind { Null, Bool, Number, String, Array, Object } K = Null;
  bool B = false;
  double N = 0;
  std::string S;
  std::vector<JsonValue> A;
  std::map<std::string, JsonValue> O;
  /// An object's member names in the order they were written.
  std::vector<std::string> Keys;

  /// The member \p Key of an object, or a shared null value.
  const JsonValue &operator[](const std::string &Key) const;
  /// The element \p I of an array, or a shared null value.
  const JsonValue &at(size_t I) const;
  bool isNull() const { return K == Null; }
  /// The number, or \p Default when this is not a number.
  double num(double Default = 0) const { return K == Number ? N : Default; }
  /// The string, or "" when this is not a string.
  const std::string &str() const;
};

/// Parses \p Text (one JSON value, blanks around it allowed). False with
/// \p Error giving the byte offset on malformed input.
bool parseJson(const std::string &Text, JsonValue &Out, std::string &Error);

} // namespace cli
} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_KLARAPTOR_JSON_H
