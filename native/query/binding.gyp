{
  "targets": [
    {
      "target_name": "svc_query",
      "include_dirs": ["../common"],
      "sources": ["query.cc", "nearest.cc", "matrix-json.cc"],
      "cflags_cc": ["-std=c++17", "-O3", "-Wall", "-Wextra", "-ffp-contract=off"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ]
}
