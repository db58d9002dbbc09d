// How glibc's malloc hands out large blocks, for the build's process. The typed arrays of a build
// (ArrayBuffer backing stores) come from malloc. glibc maps a block of 128 KiB or more on its own
// and gives it back to the system when freed, but after the first such free it raises that
// threshold to the block's size, up to 32 MiB: from then on arrays of up to 32 MiB come from the
// shared heap, where a freed array between live ones stays in the process's resident memory.
// A build frees many arrays of a few MiB (grown arrays, per-phase scratch), so a fixed threshold
// keeps its resident memory near what it holds.
#include <node_api.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "allocator.h"

napi_value FixMmapThreshold(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  int64_t bytes = 0;
  bool done = false;
  if (argc == 1 && napi_get_value_int64(env, argv[0], &bytes) == napi_ok && bytes > 0 && bytes <= (int64_t{1} << 30)) {
#if defined(__GLIBC__)
    // setting it also stops glibc adjusting it (and the trim threshold) as blocks are freed
    done = mallopt(M_MMAP_THRESHOLD, static_cast<int>(bytes)) == 1;
#endif
  }
  napi_value out;
  napi_get_boolean(env, done, &out);
  return out;
}
