{
  "targets": [
    {
      "target_name": "svc_mmap",
      "sources": ["mmap.cc"],
      "cflags_cc": ["-std=c++17", "-O2", "-Wall", "-Wextra"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ]
}
