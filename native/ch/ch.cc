// Contraction of the routing graph, the build's longest step, in C++: the same algorithm as
// graph-build/contract/ch.ts (which stays as the fallback and the reference), step for step,
// so both give byte-identical hierarchies. The caller drives it in slices (step) to report
// progress between them; the packing constants of the route file come from the caller, which
// owns the format.
#include <node_api.h>

#include "heap.h"
#include "napi-args.h"
#include "typed.h"
#include "allocator.h"

#include <cstdint>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

namespace {


struct Contractor {
  static constexpr uint32_t KIND = 0x43545254;  // "CTRT": the handle kind napi-args.h's Unwrap checks
  uint32_t kind = KIND;
  int32_t n;
  int32_t SIM, CON;
  bool EAGER;
  // working adjacency pool: per node a block of neighbour entries, both directions' weights
  std::vector<int32_t> start, len, cap;
  // a neighbour and the weight towards it side by side: the witness search reads both, nothing else
  struct Arc { int32_t nbr, fw; };
  std::vector<Arc> arc;
  std::vector<int32_t> bw, fwMid, bwMid;
  size_t poolEnd = 0;
  // What one thread's witness searches write: each thread has its own, the graph is shared.
  struct Label { double dist; uint32_t stamp; };
  struct Scratch {
    std::vector<Label> label;
    std::vector<uint32_t> tstamp;
    uint32_t cur = 0, tcur = 0;
    int64_t tleft = 0;
    MinHeap heap{1024};
    std::vector<int32_t> ins, outs;
    std::vector<int32_t> scU, scW, scWeight, scKi;
    size_t scCount = 0;
    // a round's shortcuts (rounds order): ends, weight, and the index of the node in roundSet
    std::vector<int32_t> rU, rW, rWeight, rIdx;
    explicit Scratch(int32_t nodes) : label(nodes), tstamp(nodes) {}
  };
  std::vector<Scratch> scratch;
  // order
  std::vector<uint8_t> contracted;
  std::vector<int32_t> deleted, level;
  std::vector<double> prio;
  std::vector<uint32_t> rank;
  MinHeap pq;
  int32_t initNext = 0;
  int32_t order = 0;

  Contractor(int32_t nodes, int32_t sim, int32_t con, bool eager)
      : n(nodes), SIM(sim), CON(con), EAGER(eager), start(nodes), len(nodes), cap(nodes),
        contracted(nodes), deleted(nodes), level(nodes),
        prio(nodes), rank(nodes), pq(static_cast<size_t>(nodes) + 16) {
    scratch.reserve(2);
    scratch.emplace_back(nodes);
  }

  void growPool(size_t need) {
    if (need <= arc.size()) return;
    size_t c = std::max(need, static_cast<size_t>(std::ceil(arc.size() * 1.5)));
    arc.resize(c); bw.resize(c); fwMid.resize(c); bwMid.resize(c);
  }
  int64_t find(int32_t x, int32_t y) const {
    size_t s = start[x], e = s + len[x];
    for (size_t k = s; k < e; k++) if (arc[k].nbr == y) return static_cast<int64_t>(k);
    return -1;
  }
  size_t append(int32_t x, int32_t y) {
    if (len[x] == cap[x]) {
      int32_t nc = cap[x] * 2;
      growPool(poolEnd + nc);
      size_t s = start[x], l = len[x];
      std::memmove(&arc[poolEnd], &arc[s], l * sizeof(Arc));
      std::memmove(&bw[poolEnd], &bw[s], l * 4); std::memmove(&fwMid[poolEnd], &fwMid[s], l * 4);
      std::memmove(&bwMid[poolEnd], &bwMid[s], l * 4);
      start[x] = static_cast<int32_t>(poolEnd); cap[x] = nc; poolEnd += nc;
    }
    size_t k = static_cast<size_t>(start[x]) + len[x]++;
    arc[k] = {y, -1}; bw[k] = -1; fwMid[k] = 0; bwMid[k] = 0;
    return k;
  }
  bool addArc(int32_t x, int32_t y, int32_t w, int32_t mid) {
    int64_t kx = find(x, y);
    if (kx >= 0 && arc[kx].fw >= 0 && arc[kx].fw <= w) return false;
    if (kx < 0) kx = static_cast<int64_t>(append(x, y));
    arc[kx].fw = w; fwMid[kx] = mid;
    int64_t ky = find(y, x);
    if (ky < 0) ky = static_cast<int64_t>(append(y, x));
    bw[ky] = w; bwMid[ky] = mid;
    return true;
  }
  void removeNbr(int32_t x, int32_t y) {
    int64_t k = find(x, y);
    if (k < 0) return;
    size_t last = static_cast<size_t>(start[x]) + --len[x];
    arc[k] = arc[last]; bw[k] = bw[last]; fwMid[k] = fwMid[last]; bwMid[k] = bwMid[last];
  }

  void load(int32_t edges, const int32_t* U, const int32_t* V, const uint8_t* F, const int32_t* W) {
    std::vector<int32_t> deg(n);
    for (int32_t e = 0; e < edges; e++) if (U[e] != V[e]) { deg[U[e]]++; deg[V[e]]++; }
    for (int32_t v = 0; v < n; v++) { start[v] = static_cast<int32_t>(poolEnd); cap[v] = deg[v] + 2; poolEnd += cap[v]; }
    growPool(static_cast<size_t>(std::ceil(poolEnd * 1.5)) + 16);
    for (int32_t e = 0; e < edges; e++) {
      int32_t u = U[e], v = V[e];
      if (u == v) continue;
      uint8_t f = F[e];
      int32_t w = W[e], mid = -(e + 1);
      if (f & 1) addArc(u, v, w, mid);
      if (f & 2) addArc(v, u, w, mid);
    }
  }

  void witness(Scratch& S, int32_t src, int32_t skip, double limit, int32_t maxSettle) {
    std::vector<Label>& label = S.label;
    MinHeap& heap = S.heap;
    uint32_t& cur = S.cur;
    cur++;
    if (cur == 0xffffffffu) { for (Label& l : label) l.stamp = 0; cur = 1; }
    heap.clear();
    label[src] = {0, cur}; heap.push(0, src);
    int32_t settled = 0;
    while (heap.length) {
      double d = heap.peekKey();
      int32_t x = heap.peekId();
      heap.pop();
      if (d > label[x].dist) continue;
      if (d > limit || ++settled > maxSettle) break;
      if (S.tstamp[x] == S.tcur && --S.tleft == 0) break;
      size_t s = start[x], e = s + len[x];
      for (size_t k = s; k < e; k++) {
        const Arc a = arc[k];
        if (a.fw < 0 || a.nbr == skip || (excluded && excluded[a.nbr])) continue;
        double nd = d + a.fw;
        Label& l = label[a.nbr];
        if (l.stamp != cur || nd < l.dist) { l = {nd, cur}; heap.push(nd, a.nbr); }
      }
    }
  }

  // Shortcuts contracting v needs, searched from the in-neighbours first, first + stride, … (two
  // threads take the even and the odd ones); collected with the index of their in-neighbour.
  int32_t shortcutsFor(Scratch& S, int32_t v, int32_t limit, bool collect, size_t first = 0, size_t stride = 1) {
    std::vector<int32_t>& ins = S.ins;
    std::vector<int32_t>& outs = S.outs;
    std::vector<uint32_t>& tstamp = S.tstamp;
    uint32_t& tcur = S.tcur;
    int64_t& tleft = S.tleft;
    size_t& scCount = S.scCount;
    ins.clear(); outs.clear();
    scCount = 0;
    size_t s = start[v], e = s + len[v];
    int32_t maxOut = 0;
    for (size_t k = s; k < e; k++) {
      if (bw[k] >= 0) ins.push_back(static_cast<int32_t>(k));
      if (arc[k].fw >= 0) { outs.push_back(static_cast<int32_t>(k)); if (arc[k].fw > maxOut) maxOut = arc[k].fw; }
    }
    int32_t added = 0;
    for (size_t i = first; i < ins.size(); i += stride) {
      int32_t ki = ins[i];
      int32_t u = arc[ki].nbr, a = bw[ki];
      tcur++; tleft = 0;
      for (int32_t ko : outs) { int32_t w = arc[ko].nbr; if (w != u && tstamp[w] != tcur) { tstamp[w] = tcur; tleft++; } }
      if (tleft == 0) continue;
      witness(S, u, v, static_cast<double>(a) + maxOut, limit);
      for (int32_t ko : outs) {
        int32_t w = arc[ko].nbr;
        if (w == u) continue;
        double need = static_cast<double>(a) + arc[ko].fw;
        if (S.label[w].stamp == S.cur && S.label[w].dist <= need) continue;
        added++;
        if (collect) {
          if (scCount == S.scU.size()) { size_t c = S.scU.empty() ? 64 : S.scU.size() * 2; S.scU.resize(c); S.scW.resize(c); S.scWeight.resize(c); S.scKi.resize(c); }
          S.scKi[scCount] = static_cast<int32_t>(i);
          // stored as an Int32Array element stores it (modulo 2^32)
          S.scU[scCount] = u; S.scW[scCount] = w; S.scWeight[scCount] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(need)));
          scCount++;
        }
      }
    }
    return added;
  }

  // edge difference (shortcuts added, neighbours removed) + contracted neighbours + level
  double score(int32_t v, int32_t shortcuts) const { return 2.0 * (shortcuts - len[v]) + deleted[v] + level[v]; }
  // the estimate of v's priority, with the simulation's witness limit
  double priority(Scratch& S, int32_t v) { return score(v, shortcutsFor(S, v, SIM, false)); }
  // priorities of evalList's entries first, first + stride, …
  void evalEvery(Scratch& S, size_t first, size_t stride) {
    for (size_t i = first; i < evalList.size(); i += stride) prio[evalList[i]] = priority(S, evalList[i]);
  }

  // Two threads' shortcut lists, each in increasing index order, walked as one list in index order:
  // the order one thread would have found them in.
  template <typename Take>
  static void mergeByIndex(const std::vector<int32_t>& a, size_t an, const std::vector<int32_t>& b, size_t bn, Take take) {
    for (size_t i = 0, j = 0; i < an || j < bn;) {
      if (j >= bn || (i < an && a[i] < b[j])) take(true, i++);
      else take(false, j++);
    }
  }

  // v contracted: ranked, gone from its neighbours' blocks, which learn it (each neighbour to `seen`)
  template <typename Seen>
  void retire(int32_t v, Seen seen) {
    contracted[v] = 1;
    rank[v] = static_cast<uint32_t>(order++);
    for (size_t k = start[v], e = k + len[v]; k < e; k++) {
      int32_t u = arc[k].nbr;
      removeNbr(u, v);
      deleted[u]++;
      if (level[u] < level[v] + 1) level[u] = level[v] + 1;
      seen(u);
    }
  }

  // --- a second thread for the priorities, which only read the graph: the contraction
  // order, so the file, is the same with one thread or two (each its own scratch)
  std::vector<int32_t> evalList;
  // the job posted: 0 priorities of evalList's odd entries, 1 the odd in-neighbours of jobNode
  int jobKind = 0;
  int32_t jobNode = 0, helperAdded = 0;
  // a contraction's shortcuts, in the order one thread would have found them
  std::vector<int32_t> addU, addW, addWeight;
  std::thread helper;
  std::atomic<uint32_t> jobEpoch{0}, doneEpoch{0};
  std::atomic<bool> quit{false}, sleeping{false};
  std::mutex mu;
  std::condition_variable cv;

  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  void startHelper() {
    scratch.emplace_back(n);
    helper = std::thread([this] {
      uint32_t seen = 0;
      for (;;) {
        // spin while jobs come often (every contraction step), sleep when they stop
        auto since = std::chrono::steady_clock::now();
        for (int i = 0; jobEpoch.load(std::memory_order_acquire) == seen && !quit.load(std::memory_order_relaxed); i++) {
          relax();
          if ((i & 1023) == 1023 && std::chrono::steady_clock::now() - since > std::chrono::microseconds(500)) {
            std::unique_lock<std::mutex> lk(mu);
            sleeping.store(true);
            cv.wait(lk, [&] { return jobEpoch.load() != seen || quit.load(); });
            sleeping.store(false);
          }
        }
        if (quit.load()) return;
        seen = jobEpoch.load(std::memory_order_acquire);
        if (jobKind == 0) evalEvery(scratch[1], 1, 2);
        else if (jobKind == 1) helperAdded = shortcutsFor(scratch[1], jobNode, CON, true, 1, 2);
        else roundShortcuts(scratch[1], 1, 2);
        doneEpoch.store(seen, std::memory_order_release);
      }
    });
  }

  void stopHelper() {
    if (!helper.joinable()) return;
    { std::lock_guard<std::mutex> lk(mu); quit.store(true); }
    cv.notify_one();
    helper.join();
  }

  ~Contractor() { stopHelper(); }

  // prio[] of every node in evalList, shared with the helper
  void evalPriorities() {
    if (!helper.joinable() || evalList.size() < 2) evalEvery(scratch[0], 0, 1);
    else together(0, [&] { evalEvery(scratch[0], 0, 2); });
  }

  // Posts job `kind` to the helper, runs this thread's half, and waits for the helper's.
  template <typename Half>
  void together(int kind, Half half) {
    jobKind = kind;
    uint32_t e = jobEpoch.load(std::memory_order_relaxed) + 1;
    // store, then look (the helper sets `sleeping`, then looks): one of the two sees the other
    jobEpoch.store(e);
    if (sleeping.load()) { std::lock_guard<std::mutex> lk(mu); cv.notify_one(); }
    half();
    while (doneEpoch.load(std::memory_order_acquire) != e) relax();
  }

  // priority(v, CON, collect) with the in-neighbours' searches shared; the shortcuts land in add*
  double lazyPriority(int32_t v) {
    Scratch& S = scratch[0];
    size_t nIns = 0;
    for (size_t k = start[v], e = k + len[v]; k < e; k++) if (bw[k] >= 0) nIns++;
    int32_t added;
    if (!helper.joinable() || nIns < 2) {
      added = shortcutsFor(S, v, CON, true);
      addU.assign(S.scU.begin(), S.scU.begin() + S.scCount);
      addW.assign(S.scW.begin(), S.scW.begin() + S.scCount);
      addWeight.assign(S.scWeight.begin(), S.scWeight.begin() + S.scCount);
    } else {
      jobNode = v;
      together(1, [&] { added = shortcutsFor(S, v, CON, true, 0, 2); });
      added += helperAdded;
      // merged by in-neighbour index: the order of one thread's search
      Scratch& T = scratch[1];
      addU.clear(); addW.clear(); addWeight.clear();
      mergeByIndex(S.scKi, S.scCount, T.scKi, T.scCount, [&](bool mine, size_t i) {
        Scratch& F = mine ? S : T;
        addU.push_back(F.scU[i]); addW.push_back(F.scW[i]); addWeight.push_back(F.scWeight[i]);
      });
    }
    return score(v, added);
  }

  // --- rounds: every node whose priority is below all its neighbours' is contracted at once, as
  // OSRM's contractor does. Their witness searches avoid all of them (as if already contracted), so
  // each finds exactly the shortcuts the rest of the graph needs, in any order, on any thread; the
  // round's shortcuts are then applied in node order. Not the sequential order: another hierarchy.
  bool rounds = false, roundsReady = false;
  std::vector<uint8_t> inRound, touched;
  const uint8_t* excluded = nullptr;
  std::vector<int32_t> remaining, roundSet;

  static uint32_t mix(int32_t v) { return static_cast<uint32_t>(v) * 2654435761u; }
  bool before(int32_t v, int32_t u) const {
    if (prio[v] != prio[u]) return prio[v] < prio[u];
    uint32_t hv = mix(v), hu = mix(u);
    return hv != hu ? hv < hu : v < u;
  }

  void roundShortcuts(Scratch& S, size_t first, size_t stride) {
    S.rU.clear(); S.rW.clear(); S.rWeight.clear(); S.rIdx.clear();
    for (size_t i = first; i < roundSet.size(); i += stride) {
      shortcutsFor(S, roundSet[i], CON, true);
      for (size_t j = 0; j < S.scCount; j++) {
        S.rU.push_back(S.scU[j]); S.rW.push_back(S.scW[j]); S.rWeight.push_back(S.scWeight[j]); S.rIdx.push_back(static_cast<int32_t>(i));
      }
    }
  }

  void stepRounds(int64_t work) {
    if (!roundsReady) {
      remaining.resize(n);
      for (int32_t v = 0; v < n; v++) remaining[v] = v;
      inRound.assign(n, 0); touched.assign(n, 0);
      roundsReady = true;
    }
    while (!remaining.empty() && work > 0) {
      roundSet.clear();
      for (int32_t v : remaining) {
        bool least = true;
        for (size_t k = start[v], e = k + len[v]; k < e && least; k++) least = before(v, arc[k].nbr);
        if (least) { roundSet.push_back(v); inRound[v] = 1; }
      }
      excluded = inRound.data();
      Scratch& A = scratch[0];
      if (helper.joinable() && roundSet.size() >= 2) {
        together(2, [&] { roundShortcuts(A, 0, 2); });
        excluded = nullptr;
        // the shortcuts in round order, whichever thread found them
        Scratch& B = scratch[1];
        mergeByIndex(A.rIdx, A.rIdx.size(), B.rIdx, B.rIdx.size(), [&](bool mine, size_t j) {
          Scratch& F = mine ? A : B;
          addArc(F.rU[j], F.rW[j], F.rWeight[j], roundSet[F.rIdx[j]]);
        });
      } else {
        roundShortcuts(A, 0, 1);
        excluded = nullptr;
        for (size_t j = 0; j < A.rU.size(); j++) addArc(A.rU[j], A.rW[j], A.rWeight[j], roundSet[A.rIdx[j]]);
      }
      evalList.clear();
      for (int32_t v : roundSet) retire(v, [&](int32_t u) { if (!touched[u]) { touched[u] = 1; evalList.push_back(u); } });
      for (int32_t v : roundSet) inRound[v] = 0;
      for (int32_t u : evalList) touched[u] = 0;
      evalPriorities();
      size_t o = 0;
      for (int32_t v : remaining) if (!contracted[v]) remaining[o++] = v;
      remaining.resize(o);
      work -= static_cast<int64_t>(roundSet.size());
    }
  }

  // Up to `work` units (a node's first priority, or a node contracted); finished when order == n.
  void step(int64_t work) {
    if (initNext < n && work > 0) {
      int32_t end = static_cast<int32_t>(std::min<int64_t>(n, initNext + work));
      evalList.clear();
      for (int32_t v = initNext; v < end; v++) evalList.push_back(v);
      evalPriorities();
      if (!rounds) for (int32_t v = initNext; v < end; v++) pq.push(prio[v], v);
      work -= end - initNext;
      initNext = end;
    }
    if (rounds) {
      if (initNext >= n) stepRounds(work);
      return;
    }
    while (pq.length && work > 0) {
      int32_t v = pq.peekId();
      double p = pq.peekKey();
      pq.pop();
      if (contracted[v] || p != prio[v]) continue;
      double np = lazyPriority(v);
      if (pq.length && np > pq.peekKey()) { prio[v] = np; pq.push(np, v); continue; }
      for (size_t i = 0; i < addU.size(); i++) addArc(addU[i], addW[i], addWeight[i], v);
      work--;
      retire(v, [](int32_t) {});
      if (EAGER) {
        evalList.clear();
        for (size_t k = start[v], e2 = start[v] + len[v]; k < e2; k++) evalList.push_back(arc[k].nbr);
        evalPriorities();
        for (int32_t u : evalList) pq.push(prio[u], u);
      }
    }
  }
};

#define CHECK(call) do { if ((call) != napi_ok) { napi_throw_error(env, nullptr, "svc_ch: " #call " failed"); return nullptr; } } while (0)

void Free(napi_env, void* data, void*) { delete static_cast<Contractor*>(data); }


int64_t Int64(napi_env env, napi_value v) {
  int64_t x = 0;
  napi_get_value_int64(env, v, &x);
  return x;
}

// create(nodes, edgeU, edgeV, edgeFlags, edgeW, simLimit, contractLimit, eager, threads[, rounds]) → handle
napi_value Create(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value a[10];
  CHECK(napi_get_cb_info(env, info, &argc, a, nullptr, nullptr));
  if (argc < 9) { napi_throw_type_error(env, nullptr, "create(nodes, edgeU, edgeV, edgeFlags, edgeW, sim, con, eager, threads)"); return nullptr; }
  const int32_t *U, *V, *W;
  const uint8_t* F;
  size_t nu, nv, nf, nw;
  if (!Typed(env, a[1], napi_int32_array, &U, &nu) || !Typed(env, a[2], napi_int32_array, &V, &nv) ||
      !Typed(env, a[3], napi_uint8_array, &F, &nf) || !Typed(env, a[4], napi_int32_array, &W, &nw)) {
    napi_throw_type_error(env, nullptr, "edgeU, edgeV, edgeW must be Int32Arrays and edgeFlags a Uint8Array");
    return nullptr;
  }
  int64_t nodes = Int64(env, a[0]);
  size_t edges = std::min(std::min(nu, nv), std::min(nf, nw));
  bool eager = false;
  napi_get_value_bool(env, a[7], &eager);
  for (size_t e = 0; e < edges; e++) {
    if (U[e] < 0 || U[e] >= nodes || V[e] < 0 || V[e] >= nodes) { napi_throw_range_error(env, nullptr, "edge endpoint out of range"); return nullptr; }
  }
  auto* c = new Contractor(static_cast<int32_t>(nodes), static_cast<int32_t>(Int64(env, a[5])), static_cast<int32_t>(Int64(env, a[6])), eager);
  c->load(static_cast<int32_t>(edges), U, V, F, W);
  if (argc >= 10) napi_get_value_bool(env, a[9], &c->rounds);
  if (Int64(env, a[8]) >= 2) c->startHelper();
  napi_value handle;
  CHECK(napi_create_external(env, c, Free, nullptr, &handle));
  return handle;
}

// step(handle, work) → nodes contracted so far (all of them: finished)
napi_value Step(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value a[2];
  CHECK(napi_get_cb_info(env, info, &argc, a, nullptr, nullptr));
  Contractor* c = Unwrap<Contractor>(env, a[0]);
  if (!c) { napi_throw_type_error(env, nullptr, "not a contraction handle"); return nullptr; }
  c->step(Int64(env, a[1]));
  napi_value out;
  CHECK(napi_create_int64(env, c->order, &out));
  return out;
}

napi_value NewTyped(napi_env env, napi_typedarray_type type, size_t count, size_t elem, void** data) {
  napi_value ab, ta;
  if (napi_create_arraybuffer(env, count * elem, data, &ab) != napi_ok) return nullptr;
  if (napi_create_typedarray(env, type, count, ab, 0, &ta) != napi_ok) return nullptr;
  return ta;
}

// finish(handle, {ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT}) →
// {chFirst, chArc, chMid, rank, shortcuts, arcs}: each node's block as it was at contraction,
// packed as the route file stores it; the working pool is freed.
napi_value Finish(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value a[2];
  CHECK(napi_get_cb_info(env, info, &argc, a, nullptr, nullptr));
  Contractor* c = Unwrap<Contractor>(env, a[0]);
  if (!c || argc < 2) { napi_throw_type_error(env, nullptr, "finish(handle, format)"); return nullptr; }
  auto field = [&](const char* name) -> int64_t { napi_value v; napi_get_named_property(env, a[1], name, &v); return Int64(env, v); };
  const int64_t ARC = field("ARC"), ARC_HEAD = field("ARC_HEAD"), ARC_W = field("ARC_W");
  const int32_t HEAD_FW = static_cast<int32_t>(field("HEAD_FW")), HEAD_BW = static_cast<int32_t>(field("HEAD_BW"));
  const int32_t HEAD_LAST = static_cast<int32_t>(field("HEAD_LAST")), HEAD_SHIFT = static_cast<int32_t>(field("HEAD_SHIFT"));
  const int32_t n = c->n;
  auto split = [&](size_t k) { return c->arc[k].fw >= 0 && c->bw[k] >= 0 && (c->arc[k].fw != c->bw[k] || c->fwMid[k] != c->bwMid[k]); };
  void* p;
  napi_value chFirstV = NewTyped(env, napi_uint32_array, static_cast<size_t>(n) + 1, 4, &p);
  if (!chFirstV) { napi_throw_error(env, "ENOMEM", "svc_ch: out of memory for chFirst"); return nullptr; }
  auto* chFirst = static_cast<uint32_t*>(p);
  chFirst[0] = 0;
  for (int32_t v = 0; v < n; v++) {
    uint32_t cnt = 0;
    for (size_t k = c->start[v]; k < static_cast<size_t>(c->start[v]) + c->len[v]; k++) cnt += split(k) ? 2 : 1;
    chFirst[v + 1] = chFirst[v] + cnt;
  }
  size_t total = chFirst[n];
  napi_value chArcV = NewTyped(env, napi_int32_array, ARC * total, 4, &p);
  if (!chArcV) { napi_throw_error(env, "ENOMEM", "svc_ch: out of memory for chArc"); return nullptr; }
  auto* chArc = static_cast<int32_t*>(p);
  napi_value chMidV = NewTyped(env, napi_int32_array, total, 4, &p);
  if (!chMidV) { napi_throw_error(env, "ENOMEM", "svc_ch: out of memory for chMid"); return nullptr; }
  auto* chMid = static_cast<int32_t*>(p);
  napi_value rankV = NewTyped(env, napi_uint32_array, n, 4, &p);
  if (!rankV) { napi_throw_error(env, "ENOMEM", "svc_ch: out of memory for rank"); return nullptr; }
  std::memcpy(p, c->rank.data(), static_cast<size_t>(n) * 4);
  int64_t realShortcuts = 0;
  size_t o = 0;
  auto put = [&](int32_t y, int32_t dirs, int32_t w, int32_t mid) {
    chArc[ARC * o + ARC_HEAD] = static_cast<int32_t>(static_cast<uint32_t>(y) << HEAD_SHIFT) | dirs;
    chArc[ARC * o + ARC_W] = w; chMid[o] = mid; o++;
  };
  for (int32_t v = 0; v < n; v++) {
    for (size_t k = c->start[v]; k < static_cast<size_t>(c->start[v]) + c->len[v]; k++) {
      if (split(k)) { put(c->arc[k].nbr, HEAD_FW, c->arc[k].fw, c->fwMid[k]); put(c->arc[k].nbr, HEAD_BW, c->bw[k], c->bwMid[k]); }
      else if (c->arc[k].fw >= 0) put(c->arc[k].nbr, c->bw[k] >= 0 ? HEAD_FW | HEAD_BW : HEAD_FW, c->arc[k].fw, c->fwMid[k]);
      else put(c->arc[k].nbr, HEAD_BW, c->bw[k], c->bwMid[k]);
      if (c->arc[k].fw >= 0 && c->fwMid[k] >= 0) realShortcuts++;
      if (c->bw[k] >= 0 && c->bwMid[k] >= 0) realShortcuts++;
    }
    if (o > chFirst[v]) chArc[ARC * (o - 1) + ARC_HEAD] |= HEAD_LAST;
  }
  c->stopHelper();
  // the pool is no longer needed: free it before the caller goes on building
  std::vector<Contractor::Arc>().swap(c->arc); std::vector<int32_t>().swap(c->bw);
  std::vector<int32_t>().swap(c->fwMid); std::vector<int32_t>().swap(c->bwMid);
  napi_value out, num;
  CHECK(napi_create_object(env, &out));
  CHECK(napi_set_named_property(env, out, "chFirst", chFirstV));
  CHECK(napi_set_named_property(env, out, "chArc", chArcV));
  CHECK(napi_set_named_property(env, out, "chMid", chMidV));
  CHECK(napi_set_named_property(env, out, "rank", rankV));
  CHECK(napi_create_int64(env, realShortcuts, &num));
  CHECK(napi_set_named_property(env, out, "shortcuts", num));
  CHECK(napi_create_int64(env, static_cast<int64_t>(total), &num));
  CHECK(napi_set_named_property(env, out, "arcs", num));
  return out;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"create", nullptr, Create, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"step", nullptr, Step, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"finish", nullptr, Finish, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"fixMmapThreshold", nullptr, FixMmapThreshold, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
