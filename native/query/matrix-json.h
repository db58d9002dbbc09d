// A matrix row's JSON text (workers/routing/matrix/json.ts ByteWriter.rows).
#pragma once
#include <node_api.h>

napi_value Row(napi_env env, napi_callback_info info);
