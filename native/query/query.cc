// The many-to-many search of a matrix in C++ (workers/routing/matrix/buckets.ts keeps the same
// algorithm in TypeScript, as the fallback and the reference): one backward upward search per
// destination fills buckets, one forward upward search per source scans them. The searches are
// upward.ts's step for step (the same heap, the same stall test, the same sums in the same order),
// so every cell's weight, ms and metres are bit for bit the TypeScript ones: among paths of equal
// weight the first met in the forward search's settling order wins, in both.
//
// The graph's arrays are the worker's own views of the built file (mapped or shared memory); the
// context keeps a reference to each, so they outlive it. Seeds are computed by the caller
// (locate/seeds.ts), per point, as flat lists.
#include <node_api.h>

#include "heap.h"
#include "matrix-json.h"
#include "napi-args.h"
#include "nearest.h"
#include "typed.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

struct Format { int32_t arc, head, w, fw, bw, last, shift; };

struct Graph {
  static constexpr uint32_t KIND = 0x47524150;  // "GRAP"
  uint32_t kind = KIND;
  const uint32_t* first = nullptr;
  const int32_t* arc = nullptr;
  const int32_t* dur = nullptr;
  const float* dist = nullptr;
  Format f{};
  napi_ref refs[4] = {nullptr, nullptr, nullptr, nullptr};
};


inline uint32_t hashOf(int32_t x) { return static_cast<uint32_t>(x) * 0x9e3779b1u; }

// What a search settled (not stalled), in settling order.
struct Settled {
  std::vector<int32_t> node;
  std::vector<double> d, t, m;
  void clear() { node.clear(); d.clear(); t.clear(); m.clear(); }
  void add(int32_t x, double dd, double tt, double mm) { node.push_back(x); d.push_back(dd); t.push_back(tt); m.push_back(mm); }
  size_t size() const { return node.size(); }
};

// upward.ts's UpwardSearch: state in a small open-addressing table, not sized to the graph.
struct Upward {
  uint32_t cap = 1024;
  std::vector<int32_t> keys = std::vector<int32_t>(1024);  // node + 1, 0 = empty
  std::vector<double> dist = std::vector<double>(1024), time = std::vector<double>(1024), metres = std::vector<double>(1024);
  std::vector<uint32_t> used;
  MinHeap heap{256};

  void reset() {
    for (uint32_t s : used) keys[s] = 0;
    used.clear();
    heap.length = 0;
  }
  // slot of v, or ~slot of the empty one where it would go
  int64_t slot(int32_t v) const {
    const uint32_t mask = cap - 1;
    const int32_t k = v + 1;
    for (uint32_t i = hashOf(v) & mask;; i = (i + 1) & mask) {
      int32_t c = keys[i];
      if (c == k) return i;
      if (c == 0) return ~static_cast<int64_t>(i);
    }
  }
  void grow() {
    std::vector<int32_t> oldKeys; oldKeys.swap(keys);
    std::vector<double> oldD, oldT, oldM; oldD.swap(dist); oldT.swap(time); oldM.swap(metres);
    std::vector<uint32_t> oldUsed; oldUsed.swap(used);
    cap *= 2;
    keys.assign(cap, 0); dist.assign(cap, 0); time.assign(cap, 0); metres.assign(cap, 0);
    for (uint32_t i : oldUsed) put(oldKeys[i] - 1, oldD[i], oldT[i], oldM[i]);
  }
  bool put(int32_t v, double d, double t, double m) {
    int64_t s = slot(v);
    if (s >= 0) {
      if (dist[s] <= d) return false;
    } else {
      if (2 * (used.size() + 1) > cap) { grow(); s = slot(v); }
      s = ~s;
      keys[s] = v + 1;
      used.push_back(static_cast<uint32_t>(s));
    }
    dist[s] = d; time[s] = t; metres[s] = m;
    return true;
  }
  void seed(int32_t v, double d, double t, double m) { if (put(v, d, t, m)) heap.push(d, v); }

  void run(const Graph& g, bool forward, Settled& out) {
    const Format& f = g.f;
    const int32_t fw = forward ? f.fw : f.bw, inn = forward ? f.bw : f.fw;
    const int32_t* arc = g.arc;
    while (heap.length) {
      const int32_t x = heap.ids[0];
      const double d = heap.keys[0];
      heap.pop();
      const int64_t sx = slot(x);
      if (d > dist[sx]) continue;  // stale
      const double t = time[sx], m = metres[sx];
      const uint32_t first = g.first[x], end = g.first[x + 1];
      if (first == end) { out.add(x, d, t, m); continue; }
      bool stalled = false;
      for (size_t k = static_cast<size_t>(f.arc) * first;; k += f.arc) {
        const int32_t head = arc[k + f.head];
        if (head & inn) {
          const int64_t sy = slot(static_cast<int32_t>(static_cast<uint32_t>(head) >> f.shift));
          if (sy >= 0 && dist[sy] + arc[k + f.w] < d) { stalled = true; break; }
        }
        if (head & f.last) break;
      }
      if (stalled) continue;
      out.add(x, d, t, m);
      size_t j = first;
      for (size_t k = static_cast<size_t>(f.arc) * first;; k += f.arc, j++) {
        const int32_t head = arc[k + f.head];
        if (head & fw) {
          const int32_t y = static_cast<int32_t>(static_cast<uint32_t>(head) >> f.shift);
          const double nd = d + arc[k + f.w];
          if (put(y, nd, t + g.dur[j], m + static_cast<double>(g.dist[j]))) heap.push(nd, y);
        }
        if (head & f.last) break;
      }
    }
  }
};

struct Entry { int32_t node, col; double d, t, m; };

// One thread's matrix state: the search, the bucket entries by node, and the table node → range.
struct Index {
  static constexpr uint32_t KIND = 0x494e4458;  // "INDX"
  uint32_t kind = KIND;
  Upward q;
  Settled settled;
  std::vector<Entry> entries;
  std::vector<int32_t> bkeys;  // node + 1, 0 = empty
  std::vector<uint32_t> bstart, bend;
  uint32_t bmask = 0;

  size_t bytes() const {
    return entries.capacity() * sizeof(Entry) + bkeys.capacity() * 12 + q.cap * 32 + q.heap.keys.size() * 12 + settled.node.capacity() * 28;
  }
  void buckets() {
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.node < b.node; });
    size_t distinct = 0;
    for (size_t i = 0; i < entries.size(); i++) if (i == 0 || entries[i].node != entries[i - 1].node) distinct++;
    uint32_t cap = 16;
    while (cap < 2 * distinct) cap *= 2;
    bkeys.assign(cap, 0); bstart.resize(cap); bend.resize(cap);
    bmask = cap - 1;
    for (size_t i = 0; i < entries.size();) {
      const int32_t x = entries[i].node;
      size_t e = i + 1;
      while (e < entries.size() && entries[e].node == x) e++;
      uint32_t s = hashOf(x) & bmask;
      while (bkeys[s] != 0) s = (s + 1) & bmask;
      bkeys[s] = x + 1; bstart[s] = static_cast<uint32_t>(i); bend[s] = static_cast<uint32_t>(e);
      i = e;
    }
  }
};

// Math.round's rounding: halves up, exactly (x - floor(x) is exact for doubles).
inline double jsRound(double x) {
  const double r = std::floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}


void FreeGraph(napi_env env, void* data, void*) {
  Graph* g = static_cast<Graph*>(data);
  for (napi_ref r : g->refs) if (r) napi_delete_reference(env, r);
  delete g;
}

void FreeIndex(napi_env, void* data, void*) { delete static_cast<Index*>(data); }

// graph(chFirst: Uint32Array, chArc: Int32Array, chDur: Int32Array, chDist: Float32Array, format)
napi_value CreateGraph(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value a[5];
  napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
  if (argc < 5) return Fail(env, "graph(chFirst, chArc, chDur, chDist, format)");
  Graph* g = new Graph();
  size_t n0, n1, n2, n3;
  uint32_t* first; int32_t* arc; int32_t* dur; float* dist;
  if (!Typed(env, a[0], napi_uint32_array, &first, &n0) || !Typed(env, a[1], napi_int32_array, &arc, &n1) ||
      !Typed(env, a[2], napi_int32_array, &dur, &n2) || !Typed(env, a[3], napi_float32_array, &dist, &n3)) {
    delete g;
    return Fail(env, "graph: chFirst Uint32Array, chArc Int32Array, chDur Int32Array, chDist Float32Array");
  }
  g->first = first; g->arc = arc; g->dur = dur; g->dist = dist;
  const char* names[7] = {"ARC", "ARC_HEAD", "ARC_W", "HEAD_FW", "HEAD_BW", "HEAD_LAST", "HEAD_SHIFT"};
  int32_t* slots[7] = {&g->f.arc, &g->f.head, &g->f.w, &g->f.fw, &g->f.bw, &g->f.last, &g->f.shift};
  for (int i = 0; i < 7; i++) {
    napi_value v;
    napi_get_named_property(env, a[4], names[i], &v);
    *slots[i] = Int(env, v);
  }
  for (int i = 0; i < 4; i++) napi_create_reference(env, a[i], 1, &g->refs[i]);
  napi_value out;
  napi_create_external(env, g, FreeGraph, nullptr, &out);
  return out;
}

napi_value CreateIndex(napi_env env, napi_callback_info) {
  napi_value out;
  napi_create_external(env, new Index(), FreeIndex, nullptr, &out);
  return out;
}

// The points' lists: offsets (points + 1) into node, d, t, m; each point's seeds, or its search
// space when `searched` is false (a meeting's spaces, already settled).
struct Lists {
  int32_t* off; size_t points;
  int32_t* node; double* d; double* t; double* m;
};

bool ReadLists(napi_env env, napi_value* a, Lists& l) {
  size_t n, nn, nd, nt, nm;
  if (!Typed(env, a[0], napi_int32_array, &l.off, &n) || n < 1) return false;
  if (!Typed(env, a[1], napi_int32_array, &l.node, &nn) || !Typed(env, a[2], napi_float64_array, &l.d, &nd) ||
      !Typed(env, a[3], napi_float64_array, &l.t, &nt) || !Typed(env, a[4], napi_float64_array, &l.m, &nm)) return false;
  l.points = n - 1;
  const size_t len = std::min(std::min(nn, nd), std::min(nt, nm));
  for (size_t i = 0; i < l.points; i++) {
    if (l.off[i] < 0 || l.off[i] > l.off[i + 1] || static_cast<size_t>(l.off[i + 1]) > len) return false;
  }
  return true;
}

// Point i's settled nodes into idx.settled: its search from its seeds, or its given space.
void SpaceOf(const Graph& g, Index& idx, const Lists& l, size_t i, bool searched, bool forward) {
  Settled& s = idx.settled;
  s.clear();
  if (!searched) {
    for (int32_t k = l.off[i]; k < l.off[i + 1]; k++) s.add(l.node[k], l.d[k], l.t[k], l.m[k]);
    return;
  }
  idx.q.reset();
  for (int32_t k = l.off[i]; k < l.off[i + 1]; k++) idx.q.seed(l.node[k], l.d[k], l.t[k], l.m[k]);
  idx.q.run(g, forward, s);
}

// build(graph, index, off, node, d, t, m, searched): the destinations' buckets; returns the bytes held.
napi_value Build(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value a[8];
  napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
  Graph* g = argc == 8 ? Unwrap<Graph>(env, a[0]) : nullptr;
  Index* idx = g ? Unwrap<Index>(env, a[1]) : nullptr;
  Lists l;
  if (!idx || !ReadLists(env, a + 2, l)) return Fail(env, "build(graph, index, off, node, d, t, m, searched)");
  bool searched = true;
  napi_get_value_bool(env, a[7], &searched);
  idx->entries.clear();
  for (size_t j = 0; j < l.points; j++) {
    if (l.off[j] == l.off[j + 1]) continue;
    SpaceOf(*g, *idx, l, j, searched, false);
    const Settled& s = idx->settled;
    for (size_t k = 0; k < s.size(); k++) idx->entries.push_back({s.node[k], static_cast<int32_t>(j), s.d[k], s.t[k], s.m[k]});
  }
  idx->buckets();
  napi_value out;
  napi_create_double(env, static_cast<double>(idx->bytes()), &out);
  return out;
}

// scan(graph, index, off, node, d, t, m, searched, weight, ms, metres, cols): each source row's
// least weight over the buckets into the cells (row-major, `cols` a row), where it weighs less.
napi_value Scan(napi_env env, napi_callback_info info) {
  size_t argc = 12;
  napi_value a[12];
  napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
  Graph* g = argc == 12 ? Unwrap<Graph>(env, a[0]) : nullptr;
  Index* idx = g ? Unwrap<Index>(env, a[1]) : nullptr;
  Lists l;
  double *wt, *ms, *metres;
  size_t nw, nms, nm;
  if (!idx || !ReadLists(env, a + 2, l) || !Typed(env, a[8], napi_float64_array, &wt, &nw) ||
      !Typed(env, a[9], napi_float64_array, &ms, &nms) || !Typed(env, a[10], napi_float64_array, &metres, &nm))
    return Fail(env, "scan(graph, index, off, node, d, t, m, searched, weight, ms, metres, cols)");
  bool searched = true;
  napi_get_value_bool(env, a[7], &searched);
  const int32_t cols = Int(env, a[11]);
  if (cols < 0 || static_cast<size_t>(cols) * l.points > std::min(nw, std::min(nms, nm))) return Fail(env, "scan: the cells are smaller than sources × cols");
  const Entry* e = idx->entries.data();
  const int32_t* bkeys = idx->bkeys.data();
  const uint32_t mask = idx->bmask;
  const bool any = !idx->bkeys.empty();
  for (size_t i = 0; i < l.points && any; i++) {
    if (l.off[i] == l.off[i + 1]) continue;
    SpaceOf(*g, *idx, l, i, searched, true);
    const Settled& s = idx->settled;
    const size_t row = i * static_cast<size_t>(cols);
    for (size_t k = 0; k < s.size(); k++) {
      const int32_t x = s.node[k], key = x + 1;
      uint32_t b = hashOf(x) & mask;
      while (bkeys[b] != key && bkeys[b] != 0) b = (b + 1) & mask;
      if (bkeys[b] == 0) continue;
      const double d = s.d[k], t = s.t[k], m = s.m[k];
      for (uint32_t q = idx->bstart[b], z = idx->bend[b]; q < z; q++) {
        const double cost = d + e[q].d;
        const size_t cell = row + static_cast<size_t>(e[q].col);
        if (cost < wt[cell]) { wt[cell] = cost; ms[cell] = jsRound(t + e[q].t); metres[cell] = m + e[q].m; }
      }
    }
  }
  return nullptr;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"graph", nullptr, CreateGraph, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"index", nullptr, CreateIndex, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"build", nullptr, Build, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"scan", nullptr, Scan, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"snapIndex", nullptr, CreateSnapIndex, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"nearest", nullptr, Nearest, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"row", nullptr, Row, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
