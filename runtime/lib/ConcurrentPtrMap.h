//===- ConcurrentPtrMap.h - a pointer-keyed map with lock-free lookups ----===//
///
/// \file
/// Maps non-null pointers to uintptr_t words. Lookups take no lock and write
/// nothing shared, so threads that launch at the same time do not contend;
/// writers serialise on a mutex. Keys are never removed (kernels live until
/// exit); a value can be overwritten. The open-addressing table doubles when
/// half full; older tables are kept (a reader may still be in one), which
/// costs at most as much memory again as the current table.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_CONCURRENTPTRMAP_H
#define KLARAPTOR_RUNTIME_CONCURRENTPTRMAP_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace klaraptor {

class ConcurrentPtrMap {
public:
  ConcurrentPtrMap() { Current.store(grow(nullptr, 16)); }
  ConcurrentPtrMap(const ConcurrentPtrMap &) = delete;
  ConcurrentPtrMap &operator=(const ConcurrentPtrMap &) = delete;

  /// The value of \p Key, if present.
  bool find(const void *Key, uintptr_t &Value) const {
    const Table *T = Current.load(std::memory_order_acquire);
    for (size_t I = slot(Key, T->Mask);; I = (I + 1) & T->Mask) {
      const void *K = T->Slots[I].Key.load(std::memory_order_acquire);
      if (K == Key) {
        Value = T->Slots[I].Value.load(std::memory_order_acquire);
        return true;
      }
      if (!K)
        return false;
    }
  }

  /// Adds \p Key unless present; returns whether it was added.
  bool insert(const void *Key, uintptr_t Value) {
    return store(Key, Value, /*Overwrite=*/false);
  }
  /// Adds \p Key or replaces its value.
  void set(const void *Key, uintptr_t Value) {
    store(Key, Value, /*Overwrite=*/true);
  }

  /// Calls \p F(Key, Value) for every entry (writers excluded meanwhile).
  template <typename Fn> void forEach(Fn F) const {
    std::lock_guard<std::mutex> G(WriteM);
    const Table *T = Current.load(std::memory_order_acquire);
    for (size_t I = 0; I <= T->Mask; ++I)
      if (const void *K = T->Slots[I].Key.load(std::memory_order_acquire))
        F(K, T->Slots[I].Value.load(std::memory_order_acquire));
  }

private:
  struct Slot {
    std::atomic<const void *> Key{nullptr};
    std::atomic<uintptr_t> Value{0};
  };
  struct Table {
    size_t Mask = 0;
    size_t Count = 0;
    std::unique_ptr<Slot[]> Slots;
  };

  std::atomic<Table *> Current{nullptr};
  std::vector<std::unique_ptr<Table>> Tables; // all, under WriteM
  mutable std::mutex WriteM;

  static size_t slot(const void *Key, size_t Mask) {
    uint64_t H = uint64_t(reinterpret_cast<uintptr_t>(Key));
    H ^= H >> 33;
    H *= 0xff51afd7ed558ccdULL;
    H ^= H >> 33;
    return size_t(H) & Mask;
  }

  /// Puts Key/Value into T, which has room; the value is published before
  /// the key so that a reader that sees the key sees its value.
  static void place(Table *T, const void *Key, uintptr_t Value) {
    for (size_t I = slot(Key, T->Mask);; I = (I + 1) & T->Mask) {
      const void *K = T->Slots[I].Key.load(std::memory_order_relaxed);
      if (K == Key) {
        T->Slots[I].Value.store(Value, std::memory_order_release);
        return;
      }
      if (!K) {
        T->Slots[I].Value.store(Value, std::memory_order_release);
        T->Slots[I].Key.store(Key, std::memory_order_release);
        ++T->Count;
        return;
      }
    }
  }

  /// A new table of \p Size slots holding Old's entries (under WriteM).
  Table *grow(const Table *Old, size_t Size) {
    auto T = std::make_unique<Table>();
    T->Mask = Size - 1;
    T->Slots.reset(new Slot[Size]);
    if (Old)
      for (size_t I = 0; I <= Old->Mask; ++I)
        if (const void *K = Old->Slots[I].Key.load(std::memory_order_relaxed))
          place(T.get(), K, Old->Slots[I].Value.load(std::memory_order_relaxed));
    Tables.push_back(std::move(T));
    return Tables.back().get();
  }

  bool store(const void *Key, uintptr_t Value, bool Overwrite) {
    std::lock_guard<std::mutex> G(WriteM);
    Table *T = Current.load(std::memory_order_relaxed);
    for (size_t I = slot(Key, T->Mask);; I = (I + 1) & T->Mask) {
      const void *K = T->Slots[I].Key.load(std::memory_order_relaxed);
      if (K == Key) {
        if (!Overwrite)
          return false;
        T->Slots[I].Value.store(Value, std::memory_order_release);
        return true;
      }
      if (!K)
        break;
    }
    if ((T->Count + 1) * 2 > T->Mask + 1) {
      T = grow(T, (T->Mask + 1) * 2);
      Current.store(T, std::memory_order_release);
    }
    place(T, Key, Value);
    return true;
  }
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_CONCURRENTPTRMAP_H
