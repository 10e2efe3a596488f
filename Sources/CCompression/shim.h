// The compression libraries utq reads and writes with (Debian: zlib1g-dev, libzstd-dev,
// libsnappy-dev): gzip and zstd streams, and the codecs inside Parquet files.
#include <zlib.h>
#include <zstd.h>
#include <snappy-c.h>
