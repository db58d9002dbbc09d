// A typed array argument's elements, checked for the element type the caller expects.
#pragma once
#include <node_api.h>
#include <cstddef>

template <typename T>
bool Typed(napi_env env, napi_value v, napi_typedarray_type want, T** out, size_t* len) {
  bool is = false;
  napi_is_typedarray(env, v, &is);
  if (!is) return false;
  napi_typedarray_type type;
  void* data;
  napi_value ab;
  size_t off;
  napi_get_typedarray_info(env, v, &type, len, &data, &ab, &off);
  if (type != want) return false;
  *out = static_cast<T*>(data);
  return true;
}
