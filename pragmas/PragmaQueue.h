//===- PragmaQueue.h - pragmas waiting for their kernel ---------*- C++ -*-===//
///
/// \file
/// clang's PragmaHandlerRegistry default-constructs the pragma handler and
/// gives it nothing but the Preprocessor, while the AST consumer that needs
/// the parsed pragmas is made by the plugin action from the CompilerInstance.
/// The two meet here: one PragmaQueue per Preprocessor, found by the
/// Preprocessor's address in a process-wide, mutex-guarded map. The consumer
/// makes the queue when it is created, before anything is lexed (dropping
/// anything left from an earlier compile that used the same address), and
/// releases it when it is destroyed; the handler only fills an existing
/// queue, so where no consumer runs the pragma is checked by nothing.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PRAGMAS_PRAGMAQUEUE_H
#define KLARAPTOR_PRAGMAS_PRAGMAQUEUE_H

#include "ParsedPragma.h"

#include <deque>
#include <memory>

namespace clang {
class Preprocessor;
} // namespace clang

namespace klaraptor {

/// The pragmas one preprocessor has parsed and no declaration has claimed,
/// in the order they were read (which is source order).
class PragmaQueue {
public:
  /// The queue of \p PP, created on first use. The consumer calls this.
  static std::shared_ptr<PragmaQueue> get(const clang::Preprocessor &PP);
  /// The queue of \p PP, or null when nothing will consume its pragmas (-E,
  /// -M, -dM: no AST consumer was made). The handler calls this.
  static std::shared_ptr<PragmaQueue> find(const clang::Preprocessor &PP);
  /// Forgets the queue of \p PP.
  static void release(const clang::Preprocessor &PP);

  std::deque<ParsedPragma> Pending;
};

} // namespace klaraptor

#endif // KLARAPTOR_PRAGMAS_PRAGMAQUEUE_H
