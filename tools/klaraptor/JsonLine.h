//===- JsonLine.h - a record of the JSON Lines klaraptor writes -*- C++ -*-===//
///
/// \file
/// The CLI reads the JSON Lines klaraptor writes (KLARAPTOR_BENCH records,
/// datasets) with llvm::json, plus: bytes that are not UTF-8 (a command line
/// in another encoding, which the writers copy as they are) read as U+FFFD
/// instead of failing the line, and nesting deeper than klaraptor writes is
/// refused before llvm::json's recursive parser could run out of stack.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_KLARAPTOR_JSONLINE_H
#define KLARAPTOR_TOOLS_KLARAPTOR_JSONLINE_H

#include "llvm/Support/JSON.h"

#include <utility>
#include <vector>

namespace klaraptor {
namespace cli {

/// The JSON value \p Line holds, or what is wrong and where, as llvm::json
/// says it: "[1:18, byte=18]: Expected , or } after object property" (the
/// line, always 1, the column and the byte offset, both from 0).
llvm::Expected<llvm::json::Value> parseJsonLine(llvm::StringRef Line);

/// \p O's members in the order of their names (llvm::json::Object keeps
/// none), so that what is read, and which error comes first, is the same
/// on every run.
std::vector<std::pair<llvm::StringRef, const llvm::json::Value *>>
sortedMembers(const llvm::json::Object &O);

} // namespace cli
} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_KLARAPTOR_JSONLINE_H
