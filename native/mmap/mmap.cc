// Maps built files read-only into the process and hands them to JavaScript as ArrayBuffers, so
// every worker thread (and every server process) views the same page-cache pages instead of
// holding its own copy. Plain Node-API: no dependency to install, one binary for every Node 20.
#include <node_api.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct Mapping {
  void* addr;
  size_t bytes;
};

void Throw(napi_env env, const std::string& what, int err) {
  std::string msg = what + ": " + std::strerror(err);
  napi_throw_error(env, err == ENOMEM ? "ENOMEM" : nullptr, msg.c_str());
}

// Runs when V8 collects the last ArrayBuffer over the mapping: only then may the pages go.
void Unmap(napi_env, void*, void* hint) {
  auto* m = static_cast<Mapping*>(hint);
  munmap(m->addr, m->bytes);
  delete m;
}

bool ReadPath(napi_env env, napi_value v, std::string* out) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &len) != napi_ok) {
    napi_throw_type_error(env, nullptr, "path must be a string");
    return false;
  }
  out->resize(len + 1);
  napi_get_value_string_utf8(env, v, out->data(), len + 1, &len);
  out->resize(len);
  return true;
}

// Node 20 refuses ArrayBuffers over 2^32 bytes (buffer.constants.MAX_LENGTH); a larger file is
// mapped in pieces, one per section (src/core/format/mapped.ts).
constexpr uint64_t kMaxBytes = uint64_t{1} << 32;

bool ReadNumber(napi_env env, napi_value v, const char* what, double* out) {
  if (napi_get_value_double(env, v, out) != napi_ok || *out < 0 || *out != static_cast<double>(static_cast<uint64_t>(*out))) {
    std::string msg = std::string(what) + " must be a non-negative integer";
    napi_throw_type_error(env, nullptr, msg.c_str());
    return false;
  }
  return true;
}

// map(path, offset = 0, length = rest of the file, identity?) → ArrayBuffer over those bytes,
// mapped PROT_READ, MAP_SHARED. offset must be a multiple of the page size (exports.pageSize).
// identity "dev:ino" (as fs.statSync(path, { bigint: true }) gives them) makes sure a thread maps
// the very file another thread verified, not one renamed over it since.
napi_value Map(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  std::string path;
  if (argc < 1 || !ReadPath(env, argv[0], &path)) return nullptr;
  double offset = 0, length = -1;
  napi_valuetype t;
  if (argc > 1 && napi_typeof(env, argv[1], &t) == napi_ok && t != napi_undefined && !ReadNumber(env, argv[1], "offset", &offset)) return nullptr;
  if (argc > 2 && napi_typeof(env, argv[2], &t) == napi_ok && t != napi_undefined && !ReadNumber(env, argv[2], "length", &length)) return nullptr;
  uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t off = static_cast<uint64_t>(offset);
  if (off % page != 0) {
    napi_throw_range_error(env, nullptr, "offset must be a multiple of the page size");
    return nullptr;
  }

  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) { Throw(env, "open " + path, errno); return nullptr; }
  struct stat st;
  if (fstat(fd, &st) != 0) { int e = errno; close(fd); Throw(env, "fstat " + path, e); return nullptr; }
  if (argc > 3 && napi_typeof(env, argv[3], &t) == napi_ok && t == napi_string) {
    std::string want;
    ReadPath(env, argv[3], &want);
    std::string got = std::to_string(static_cast<uint64_t>(st.st_dev)) + ":" + std::to_string(static_cast<uint64_t>(st.st_ino));
    if (want != got) {
      close(fd);
      std::string msg = path + " was replaced since it was loaded (file " + got + ", loaded " + want + ")";
      napi_throw_error(env, "ERR_FILE_REPLACED", msg.c_str());
      return nullptr;
    }
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  uint64_t bytes = length < 0 ? (off < size ? size - off : 0) : static_cast<uint64_t>(length);
  if (off + bytes > size) {
    close(fd);
    std::string msg = path + ": bytes " + std::to_string(off) + "+" + std::to_string(bytes) + " lie past the end of the file (" + std::to_string(size) + " bytes)";
    napi_throw_range_error(env, nullptr, msg.c_str());
    return nullptr;
  }
  if (bytes > kMaxBytes) {
    close(fd);
    std::string msg = path + ": cannot map " + std::to_string(bytes) + " bytes as one ArrayBuffer (Node 20 allows at most 2^32); map it in pieces";
    napi_throw_range_error(env, "ERR_MAP_TOO_LARGE", msg.c_str());
    return nullptr;
  }
  napi_value result;
  if (bytes == 0) {
    // mmap refuses a zero length; nothing to map is an empty buffer.
    close(fd);
    void* data;
    napi_create_arraybuffer(env, 0, &data, &result);
    return result;
  }
  void* addr = mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(off));
  int e = errno;
  close(fd);  // the mapping keeps the file open
  if (addr == MAP_FAILED) { Throw(env, "mmap " + path, e); return nullptr; }
  auto* m = new Mapping{addr, static_cast<size_t>(bytes)};
  // On failure Node has already run Unmap (it owns the mapping from this call on): do not free here.
  if (napi_create_external_arraybuffer(env, addr, bytes, Unmap, m, &result) != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) {
      std::string msg = "cannot wrap " + std::to_string(bytes) + " mapped bytes of " + path + " in an ArrayBuffer";
      napi_throw_range_error(env, nullptr, msg.c_str());
    }
    return nullptr;
  }
  return result;
}

// release(arrayBuffer): drop this process's resident pages of a mapping (madvise DONTNEED). The
// page cache keeps them, so the next touch is a minor fault, not a disk read. Used after the
// start-up checksum pass has touched every page.
napi_value Release(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  void* data = nullptr;
  size_t bytes = 0;
  bool is_ab = false;
  if (argc < 1 || napi_is_arraybuffer(env, argv[0], &is_ab) != napi_ok || !is_ab) {
    napi_throw_type_error(env, nullptr, "release needs an ArrayBuffer returned by map()");
    return nullptr;
  }
  napi_get_arraybuffer_info(env, argv[0], &data, &bytes);
  long page = sysconf(_SC_PAGESIZE);
  if (bytes == 0 || reinterpret_cast<uintptr_t>(data) % static_cast<uintptr_t>(page) != 0) {
    napi_throw_range_error(env, nullptr, "release needs an ArrayBuffer returned by map()");
    return nullptr;
  }
  if (madvise(data, bytes, MADV_DONTNEED) != 0) { Throw(env, "madvise", errno); return nullptr; }
  return nullptr;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    {"map", nullptr, Map, nullptr, nullptr, nullptr, napi_default, nullptr},
    {"release", nullptr, Release, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  napi_value page;
  napi_create_double(env, static_cast<double>(sysconf(_SC_PAGESIZE)), &page);
  napi_set_named_property(env, exports, "pageSize", page);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
