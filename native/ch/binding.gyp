{
  "targets": [
    {
      "target_name": "svc_ch",
      "sources": ["ch.cc"],
      "cflags_cc": ["-std=c++17", "-O3", "-Wall", "-Wextra"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ]
}
