// The snapping index's nearest-segment search (workers/routing/locate/snap.ts nearestSeg).
#pragma once
#include <node_api.h>

napi_value CreateSnapIndex(napi_env env, napi_callback_info info);
napi_value Nearest(napi_env env, napi_callback_info info);
