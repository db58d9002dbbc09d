// ByteWriter.rows() of workers/routing/matrix/json.ts for one row, in C++: the same rounding on the
// same doubles, the same bytes. A value of 10^8 or more (10^9 tenths) is left to TypeScript, which
// writes it as JSON.stringify does: the row is refused whole (-1) and written there.
#include "matrix-json.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "napi-args.h"
#include "typed.h"

namespace {

struct Digits {
  char d4[10000][4];
  uint8_t len[10000];
  Digits() {
    for (int i = 0; i < 10000; i++) {
      d4[i][0] = static_cast<char>('0' + i / 1000); d4[i][1] = static_cast<char>('0' + i / 100 % 10);
      d4[i][2] = static_cast<char>('0' + i / 10 % 10); d4[i][3] = static_cast<char>('0' + i % 10);
      len[i] = i >= 1000 ? 4 : i >= 100 ? 3 : i >= 10 ? 2 : 1;
    }
  }
};
const Digits digits;

// the last `len` of 0…9999's four digits (no leading zeros)
inline uint8_t* put(uint8_t* p, int32_t v, int len) {
  std::memcpy(p, digits.d4[v] + 4 - len, 4);
  return p + len;
}

}  // namespace

// row(arr Float64Array, off, cols, secs, out Uint8Array, n): "[v,v,null,…]" at byte n of out, from
// arr[off…off+cols); returns the new end, or -1 (nothing kept) for a value TypeScript must write.
// out must hold 24 bytes a cell and 8 more past n.
napi_value Row(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value a[6];
  napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
  double* arr; uint8_t* out; size_t narr, nout;
  if (argc < 6 || !Typed(env, a[0], napi_float64_array, &arr, &narr) || !Typed(env, a[4], napi_uint8_array, &out, &nout))
    return Fail(env, "row(arr Float64Array, off, cols, secs, out Uint8Array, n)");
  const int32_t off = Int(env, a[1]), cols = Int(env, a[2]), n0 = Int(env, a[5]);
  bool secs = false;
  napi_get_value_bool(env, a[3], &secs);
  if (off < 0 || cols < 0 || n0 < 0 || static_cast<size_t>(off) + cols > narr || static_cast<size_t>(n0) + 24 * static_cast<size_t>(cols) + 8 > nout)
    return Fail(env, "row: out of range");
  uint8_t* p = out + n0;
  *p++ = '[';
  bool whole = true;
  for (int32_t j = 0; j < cols; j++) {
    if (j) *p++ = ',';
    const double v = arr[off + j];
    if (v == INFINITY) { std::memcpy(p, "null", 4); p += 4; continue; }
    const double x = secs ? (v / 1000) * 10 : v * 10;
    if (x >= 1e9 - 0.5) { whole = false; break; }
    // (x + 0.5) | 0 of json.ts; NaN and values below 0.5 give 0 there too
    const int32_t t = x >= 0.5 ? static_cast<int32_t>(x + 0.5) : 0;
    const int32_t ip = static_cast<int32_t>(t * 0.1), f = t - ip * 10;
    if (ip < 10000) p = put(p, ip, digits.len[ip]);
    else {
      const int32_t hi = static_cast<int32_t>(ip * 0.0001);
      p = put(p, hi, digits.len[hi]);
      p = put(p, ip - hi * 10000, 4);
    }
    if (f) { p[0] = '.'; p[1] = static_cast<uint8_t>('0' + f); p += 2; }
  }
  *p++ = ']';
  napi_value r;
  napi_create_int32(env, whole ? static_cast<int32_t>(p - out) : -1, &r);
  return r;
}
