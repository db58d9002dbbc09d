{
  "targets": [
    {
      "target_name": "svc_ch",
      "include_dirs": ["../common"],
      "sources": ["ch.cc", "allocator.cc"],
      "cflags_cc": ["-std=c++17", "-O3", "-Wall", "-Wextra"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ]
}
