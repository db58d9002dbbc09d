{
  "targets": [
    {
      "target_name": "svc_query",
      "include_dirs": ["../common"],
      "sources": ["query.cc"],
      "cflags_cc": ["-std=c++17", "-O3", "-Wall", "-Wextra"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ]
}
