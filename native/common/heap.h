// The binary heap of src/core/heap.ts for the addons, comparisons included: equal keys pop in the
// same order as in TypeScript, so the native contraction and searches match the TypeScript ones.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

struct MinHeap {
  std::vector<double> keys;
  std::vector<int32_t> ids;
  size_t length = 0;
  explicit MinHeap(size_t cap) : keys(cap), ids(cap) {}
  void clear() { length = 0; }
  void push(double key, int32_t id) {
    if (length == keys.size()) { keys.resize(length * 2); ids.resize(length * 2); }
    size_t pos = length++;
    while (pos > 0) {
      size_t parent = (pos - 1) >> 1;
      double pk = keys[parent];
      if (key >= pk) break;
      keys[pos] = pk; ids[pos] = ids[parent];
      pos = parent;
    }
    keys[pos] = key; ids[pos] = id;
  }
  double peekKey() const { return keys[0]; }
  int32_t peekId() const { return ids[0]; }
  void pop() {
    if (length == 0) return;
    size_t n = --length;
    if (n == 0) return;
    double key = keys[n];
    int32_t id = ids[n];
    size_t pos = 0, half = n >> 1;
    while (pos < half) {
      size_t c = 2 * pos + 1, r = c + 1;
      if (r < n && keys[r] < keys[c]) c = r;
      if (keys[c] >= key) break;
      keys[pos] = keys[c]; ids[pos] = ids[c];
      pos = c;
    }
    keys[pos] = key; ids[pos] = id;
  }
};
