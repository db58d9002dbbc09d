#pragma once
#include <node_api.h>

// fixMmapThreshold(bytes): malloc maps blocks of `bytes` or more on their own, returned to the
// system when freed; false where the C library is not glibc or refuses.
napi_value FixMmapThreshold(napi_env env, napi_callback_info info);
