//===- PragmaQueue.cpp - pragmas waiting for their kernel -----------------===//
///
/// \file
/// The process-wide map from Preprocessor to PragmaQueue. A mutex guards it
/// because tools may run several compiles on different threads; one queue is
/// only ever used by the thread that runs its compile.
//===----------------------------------------------------------------------===//
#include "PragmaQueue.h"

#include <map>
#include <mutex>

namespace klaraptor {

namespace {
std::mutex &queuesMutex() {
  static std::mutex M;
  return M;
}
std::map<const clang::Preprocessor *, std::shared_ptr<PragmaQueue>> &queues() {
  static std::map<const clang::Preprocessor *, std::shared_ptr<PragmaQueue>> Q;
  return Q;
}
} // namespace

std::shared_ptr<PragmaQueue> PragmaQueue::get(const clang::Preprocessor &PP) {
  std::lock_guard<std::mutex> Lock(queuesMutex());
  auto &Q = queues()[&PP];
  if (!Q)
    Q = std::make_shared<PragmaQueue>();
  return Q;
}

std::shared_ptr<PragmaQueue> PragmaQueue::find(const clang::Preprocessor &PP) {
  std::lock_guard<std::mutex> Lock(queuesMutex());
  auto It = queues().find(&PP);
  return It == queues().end() ? nullptr : It->second;
}

void PragmaQueue::release(const clang::Preprocessor &PP) {
  std::lock_guard<std::mutex> Lock(queuesMutex());
  queues().erase(&PP);
}

} // namespace klaraptor
