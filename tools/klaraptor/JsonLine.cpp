//===- JsonLine.cpp - a record of the JSON Lines klaraptor writes ---------===//
#include "JsonLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace klaraptor {
namespace cli {

namespace {

/// Far more than any record has, far less than the stack holds.
constexpr unsigned MaxDepth = 200;

/// The byte where \p Line nests deeper than MaxDepth, or npos (the
/// brackets of strings do not count).
size_t tooDeep(StringRef Line) {
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxDepth)
        return I;
    } else if ((C == ']' || C == '}') && Depth) {
      --Depth;
    }
  }
  return StringRef::npos;
}

} // namespace

Expected<json::Value> parseJsonLine(StringRef Line) {
  if (size_t At = tooDeep(Line); At != StringRef::npos)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("[1:{0}, byte={0}]: more than {1} levels of nesting", At,
                MaxDepth)
            .str());
  if (!json::isUTF8(Line))
    return json::parse(json::fixUTF8(Line));
  return json::parse(Line);
}

std::vector<std::pair<StringRef, const json::Value *>>
sortedMembers(const json::Object &O) {
  std::vector<std::pair<StringRef, const json::Value *>> Members;
  for (const auto &[Key, Value] : O)
    Members.emplace_back(Key, &Value);
  llvm::sort(Members, less_first());
  return Members;
}

} // namespace cli
} // namespace klaraptor
