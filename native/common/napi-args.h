// Small helpers the addons share for reading arguments and handing out handles.
#pragma once
#include <node_api.h>
#include <cstdint>

inline napi_value Fail(napi_env env, const char* msg) {
  napi_throw_type_error(env, nullptr, msg);
  return nullptr;
}

inline int32_t Int(napi_env env, napi_value v) {
  int32_t x = 0;
  napi_get_value_int32(env, v, &x);
  return x;
}

template <typename T>
T* Unwrap(napi_env env, napi_value v) {
  void* p = nullptr;
  if (napi_get_value_external(env, v, &p) != napi_ok || p == nullptr) return nullptr;
  // every handle starts with its kind, so a graph passed where a snapping index is wanted fails
  T* t = static_cast<T*>(p);
  return t->kind == T::KIND ? t : nullptr;
}
