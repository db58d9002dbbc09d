// nearestSeg() of workers/routing/locate/snap.ts in C++: one best-first pass over the flatbush
// tree, boxes in order of box distance, each segment measured exactly as it comes. The same
// operations in the same order on doubles (no fused multiply-add: -ffp-contract=off) and the same
// heap, so the segment, fraction and distance are bit for bit the TypeScript ones. A point's
// snapping was a fifth of a 100 x 100 matrix's time in TypeScript.
#include "nearest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "heap.h"
#include "napi-args.h"
#include "typed.h"

namespace {

// The packed flatbush tree and the graph's segment arrays, as the worker's views hold them.
struct SnapIndex {
  static constexpr uint32_t KIND = 0x534e4150;  // "SNAP"
  uint32_t kind = KIND;
  const double* boxes = nullptr; size_t nBoxes = 0;
  const uint32_t* idx32 = nullptr; const uint16_t* idx16 = nullptr; size_t nIdx = 0;
  const uint32_t* levels = nullptr; size_t nLevels = 0;
  size_t nodeSize4 = 0, numItems4 = 0;
  const uint32_t* segPt = nullptr; const int32_t* segEdge = nullptr; size_t nSeg = 0;
  const int32_t* lat = nullptr; const int32_t* lon = nullptr; size_t nShape = 0;
  const uint8_t* flags = nullptr; const int32_t* comp = nullptr; size_t nEdge = 0;
  MinHeap queue{256};
  napi_ref refs[9] = {};  // the arrays above, held while the handle lives
  uint32_t child(size_t k) const { return idx32 ? idx32[k] : idx16[k]; }
};

void FreeSnapIndex(napi_env env, void* data, void*) {
  SnapIndex* s = static_cast<SnapIndex*>(data);
  for (napi_ref r : s->refs) if (r) napi_delete_reference(env, r);
  delete s;
}

}  // namespace

// snapIndex(boxes, indices, levelBounds, nodeSize, numItems, segPt, segEdge, shapeLat, shapeLon, edgeFlags, edgeComp)
napi_value CreateSnapIndex(napi_env env, napi_callback_info info) {
  size_t argc = 11;
  napi_value a[11];
  napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
  const char* usage = "snapIndex(boxes Float64Array, indices Uint32Array|Uint16Array, levelBounds Uint32Array, nodeSize, numItems, segPt Uint32Array, segEdge Int32Array, shapeLat Int32Array, shapeLon Int32Array, edgeFlags Uint8Array, edgeComp Int32Array)";
  if (argc < 11) return Fail(env, usage);
  SnapIndex* s = new SnapIndex();
  double* boxes; uint32_t* levels; uint32_t* segPt; int32_t *segEdge, *lat, *lon, *comp; uint8_t* flags;
  size_t nLat, nLon, nSegPt, nComp;
  bool ok = Typed(env, a[0], napi_float64_array, &boxes, &s->nBoxes) && Typed(env, a[2], napi_uint32_array, &levels, &s->nLevels) &&
            Typed(env, a[5], napi_uint32_array, &segPt, &nSegPt) && Typed(env, a[6], napi_int32_array, &segEdge, &s->nSeg) &&
            Typed(env, a[7], napi_int32_array, &lat, &nLat) && Typed(env, a[8], napi_int32_array, &lon, &nLon) &&
            Typed(env, a[9], napi_uint8_array, &flags, &s->nEdge) && Typed(env, a[10], napi_int32_array, &comp, &nComp);
  uint32_t* i32; uint16_t* i16;
  if (ok && Typed(env, a[1], napi_uint32_array, &i32, &s->nIdx)) s->idx32 = i32;
  else if (ok && Typed(env, a[1], napi_uint16_array, &i16, &s->nIdx)) s->idx16 = i16;
  else ok = false;
  if (!ok || nSegPt != s->nSeg || nLat != nLon || nComp < s->nEdge) { delete s; return Fail(env, usage); }
  s->boxes = boxes; s->levels = levels; s->segPt = segPt; s->segEdge = segEdge; s->lat = lat; s->lon = lon; s->nShape = nLat;
  s->flags = flags; s->comp = comp;
  s->nodeSize4 = static_cast<size_t>(Int(env, a[3])) * 4;
  s->numItems4 = static_cast<size_t>(Int(env, a[4])) * 4;
  if (s->nBoxes < 4 || s->nIdx * 4 != s->nBoxes) { delete s; return Fail(env, "snapIndex: boxes and indices disagree"); }
  const int held[9] = {0, 1, 2, 5, 6, 7, 8, 9, 10};
  for (int i = 0; i < 9; i++) napi_create_reference(env, a[held[i]], 1, &s->refs[i]);
  napi_value out;
  napi_create_external(env, s, FreeSnapIndex, nullptr, &out);
  return out;
}

// nearest(index, io Float64Array [x, y, lat, lng, kx, ky, maxBox, slack, skipFlags, mPerDeg], components?)
// writes [segment, fraction, metres] over io's first three; segment -1 when nothing is in range.
// components: a Uint8Array mask by strongly connected component; only edges on a marked one count.
napi_value Nearest(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value a[3];
  napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
  SnapIndex* s = argc >= 2 ? Unwrap<SnapIndex>(env, a[0]) : nullptr;
  double* io; size_t nio;
  if (!s || !Typed(env, a[1], napi_float64_array, &io, &nio) || nio < 10) return Fail(env, "nearest(index, io Float64Array(10), components?)");
  uint8_t* mask = nullptr; size_t nMask = 0;
  if (argc >= 3) {
    napi_valuetype t;
    napi_typeof(env, a[2], &t);
    if (t != napi_undefined && t != napi_null && !Typed(env, a[2], napi_uint8_array, &mask, &nMask)) return Fail(env, "nearest: components must be a Uint8Array");
  }
  const double x = io[0], y = io[1], lat = io[2], lng = io[3], kx = io[4], ky = io[5], maxBox = io[6], slack = io[7], mPerDeg = io[9];
  const uint32_t skip = static_cast<uint32_t>(io[8]);
  const double* boxes = s->boxes;
  const size_t nodeSize4 = s->nodeSize4, numItems4 = s->numItems4;
  double bound = maxBox * maxBox, bt = 0, bd = INFINITY;
  int32_t bi = -1;
  MinHeap& q = s->queue;
  q.clear();
  q.push(0, static_cast<int32_t>((s->nBoxes - 4) << 1));
  while (q.length) {
    const int32_t top = q.peekId();
    const double key = q.peekKey();
    q.pop();
    if (key > bound) break;
    if (top & 1) {
      const size_t i = static_cast<size_t>(top >> 1);
      const size_t p = s->segPt[i];
      if (p + 1 >= s->nShape) continue;
      const double ax = (s->lon[p] / 1e7 - lng) * kx, ay = (s->lat[p] / 1e7 - lat) * ky;
      const double bx = (s->lon[p + 1] / 1e7 - lng) * kx, by = (s->lat[p + 1] / 1e7 - lat) * ky;
      const double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
      double f = l2 > 0 ? -(ax * dx + ay * dy) / l2 : 0;
      if (f < 0) f = 0; else if (f > 1) f = 1;
      const double px = ax + f * dx, py = ay + f * dy, d = std::sqrt(px * px + py * py);
      if (d < bd) {
        bd = d; bi = static_cast<int32_t>(i); bt = f;
        const double b = (d / mPerDeg) * slack + 1e-9;
        if (b * b < bound) bound = b * b;
      }
      continue;
    }
    const size_t node = static_cast<size_t>(top >> 1);
    const bool leafLevel = node < numItems4;
    size_t end = node + nodeSize4;
    for (size_t l = 0; l < s->nLevels; l++) if (s->levels[l] > node) { if (s->levels[l] < end) end = s->levels[l]; break; }
    end = std::min(end, s->nBoxes);
    for (size_t pos = node; pos < end; pos += 4) {
      // Math.max(a, b, 0) of snap.ts: neither operand is NaN here
      const double ddx = std::max(std::max(boxes[pos] - x, x - boxes[pos + 2]), 0.0);
      const double ddy = std::max(std::max(boxes[pos + 1] - y, y - boxes[pos + 3]), 0.0);
      const double dist = ddx * ddx + ddy * ddy;
      if (dist > bound) continue;
      const uint32_t child = s->child(pos >> 2);
      if (!leafLevel) { q.push(dist, static_cast<int32_t>(child << 1)); continue; }
      // child >= the segment count: an empty index's placeholder
      if (child >= s->nSeg) continue;
      const int32_t e = s->segEdge[child];
      if (e < 0 || static_cast<size_t>(e) >= s->nEdge || (s->flags[e] & skip)) continue;
      if (mask) {
        const int32_t c = s->comp[e];
        if (c < 0 || static_cast<size_t>(c) >= nMask || !mask[c]) continue;
      }
      q.push(dist, static_cast<int32_t>((child << 1) | 1));
    }
  }
  io[0] = bi; io[1] = bt; io[2] = bd;
  return nullptr;
}
