// backend-absent.cpp - the emu backend in a process without the emulated
// CUDA runtime.
#include "Backend.h"

#include <cstdio>

int main() {
  std::string err;
  auto b = klaraptor::profiler::createBackend("emu", err);
  bool ok = b->begin(err);
  std::printf("begin: %d: %s\n", ok, err.c_str());
  return 0;
}
