#!/usr/bin/env bash
# Builds the fuzz targets: UTQCore's sources once, with coverage for libFuzzer and
# AddressSanitizer, then each target in fuzz/targets/ linked against it. None of this is part
# of `swift build` or `swift test`, so CI stays as fast as it was.
#
#   fuzz/build.sh            every target
#   fuzz/build.sh csv nvdb   only these
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
OUT=fuzz/out
mkdir -p "$OUT/core" "$OUT/bin"
# -O for speed; the runtime checks that matter here (bounds, overflow, exclusivity) stay on.
FLAGS=(-O -g -sanitize=fuzzer,address -parse-as-library -enable-testing -suppress-warnings)

# ZIPFoundation (GTFS zips) from SwiftPM's checkout, with its zlib module map.
zip=.build/checkouts/ZIPFoundation/Sources
if [ ! -d "$zip" ]; then swift package resolve >/dev/null; fi
ziplib="$OUT/core/libZIPFoundation.a"
if [ ! -f "$ziplib" ]; then
  echo "building ZIPFoundation for fuzzing ..."
  "$SWIFTC" -O -g -sanitize=fuzzer,address -parse-as-library -suppress-warnings -module-name ZIPFoundation \
    -Xcc -fmodule-map-file="$zip/CZLib/module.modulemap" -I "$zip/CZLib" -Xcc -D_GNU_SOURCE=1 \
    -emit-module -emit-module-path "$OUT/core/ZIPFoundation.swiftmodule" \
    -emit-library -static -o "$ziplib" $(find "$zip/ZIPFoundation" -name '*.swift' | sort)
fi
# SwiftProtobuf and the generated GTFS-Realtime messages (GTFSRealtime), for .pb feeds.
pb=.build/checkouts/swift-protobuf/Sources/SwiftProtobuf
pblib="$OUT/core/libSwiftProtobuf.a"
if [ ! -f "$pblib" ]; then
  echo "building SwiftProtobuf for fuzzing ..."
  "$SWIFTC" -O -g -sanitize=fuzzer,address -parse-as-library -suppress-warnings -module-name SwiftProtobuf -package-name swift_protobuf \
    -emit-module -emit-module-path "$OUT/core/SwiftProtobuf.swiftmodule" \
    -emit-library -static -o "$pblib" $(find "$pb" -name '*.swift' | sort)
fi
rtlib="$OUT/core/libGTFSRealtime.a"
if [ ! -f "$rtlib" ] || [ Sources/GTFSRealtime/gtfs-realtime.pb.swift -nt "$rtlib" ]; then
  echo "building GTFSRealtime for fuzzing ..."
  "$SWIFTC" -O -g -sanitize=fuzzer,address -parse-as-library -suppress-warnings -module-name GTFSRealtime -I "$OUT/core" \
    -emit-module -emit-module-path "$OUT/core/GTFSRealtime.swiftmodule" \
    -emit-library -static -o "$rtlib" Sources/GTFSRealtime/*.swift
fi
ZIPFLAGS=(-I "$OUT/core" -Xcc -fmodule-map-file="$zip/CZLib/module.modulemap" -I "$zip/CZLib")
# The system's compression libraries (zlib, zstd, snappy), UTQCore's module CCompression.
ZIPFLAGS+=(-Xcc -fmodule-map-file=Sources/CCompression/module.modulemap -I Sources/CCompression)
# The C helpers (CIntrinsics): cell-end masks, prefetching, CRC-32 folding.
ZIPFLAGS+=(-Xcc -fmodule-map-file=Sources/CIntrinsics/module.modulemap -I Sources/CIntrinsics)

core="$OUT/core/libUTQCore.a"
if [ ! -f "$core" ] || [ -n "$(find Sources/UTQCore -name '*.swift' -newer "$core" | head -1)" ]; then
  echo "building UTQCore for fuzzing (a few minutes) ..."
  "$SWIFTC" "${FLAGS[@]}" "${ZIPFLAGS[@]}" -module-name UTQCore -emit-module -emit-module-path "$OUT/core/UTQCore.swiftmodule" \
    -emit-library -static -o "$core" $(find Sources/UTQCore -name '*.swift' | sort)
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz/targets/*.swift; do targets+=("$(basename "$f" .swift)"); done
fi
for t in "${targets[@]}"; do
  bin="$OUT/bin/$t"
  if [ ! -f "$bin" ] || [ "$core" -nt "$bin" ] || [ "fuzz/targets/$t.swift" -nt "$bin" ] || [ fuzz/Support.swift -nt "$bin" ]; then
    echo "building fuzz target $t ..."
    "$SWIFTC" "${FLAGS[@]}" "${ZIPFLAGS[@]}" -module-name "fuzz_$t" -o "$bin" \
      fuzz/Support.swift "fuzz/targets/$t.swift" "$core" "$ziplib" "$rtlib" "$pblib" -lzstd -lsnappy -lz 2>&1 | { grep -v "Cannot export local symbol" || true; }
  fi
done
