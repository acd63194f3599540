#!/usr/bin/env bash
# Builds the libFuzzer targets of Logbook and their seed corpora.
#
# The Logbook module is compiled here with swiftc, with coverage instrumentation and
# AddressSanitizer, and with -enable-testing so the targets reach its internals; the package's own
# `swift build` and `swift test` know nothing of it.
#
#   Fuzz/build.sh            build everything into Fuzz/.build and write the seeds to Fuzz/corpus
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/Fuzz/.build
mkdir -p "$out/modules/CCRC32C"

swift_log=$root/.build/checkouts/swift-log/Sources/Logging
[ -d "$swift_log" ] || swift package resolve >/dev/null
[ -d "$swift_log" ] || { echo "swift-log is not checked out under .build/checkouts" >&2; exit 1; }

common=(-swift-version 6 -O -g -parse-as-library)
# The macro declarations of Logbook name their plugin; use the one `swift build` made, if any,
# so the compiler does not warn that it is missing (the fuzzed code uses no macro).
plugin=()
[ -x .build/debug/LogbookMacros-tool ] && plugin=(-load-plugin-executable "$root/.build/debug/LogbookMacros-tool#LogbookMacros")
sanitize=(-sanitize=fuzzer,address)

echo "CCRC32C"
clang -c -O2 -g -fsanitize=fuzzer-no-link,address -I Sources/CCRC32C/include \
    Sources/CCRC32C/crc32c.c -o "$out/crc32c.o"
cat >"$out/modules/CCRC32C/module.modulemap" <<MAP
module CCRC32C {
    header "$root/Sources/CCRC32C/include/crc32c.h"
    export *
}
MAP

echo "Logging"
swiftc "${common[@]}" "${sanitize[@]}" -module-name Logging -package-name swift_log \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
    -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature NonisolatedNonsendingByDefault \
    -emit-library -static -emit-module -emit-module-path "$out/Logging.swiftmodule" \
    $(find "$swift_log" -name '*.swift' | sort) -o "$out/libLogging.a"

echo "Logbook"
swiftc "${common[@]}" "${sanitize[@]}" -module-name Logbook -package-name Logbook -enable-testing "${plugin[@]}" \
    -I "$out" -I Sources/CLZ4 -I "$out/modules/CCRC32C" \
    -emit-library -static -emit-module -emit-module-path "$out/Logbook.swiftmodule" \
    $(find Sources/Logbook -name '*.swift' | sort) -o "$out/libLogbook.a"

link=(-use-ld=lld -I "$out" -L "$out" -lLogbook -lLogging "$out/crc32c.o" -llz4)
for target in BatchReader EventDecoder SchemaDecoder; do
    echo "fuzz-$target"
    swiftc "${common[@]}" "${sanitize[@]}" -module-name "Fuzz$target" -package-name Logbook \
        -I Sources/CLZ4 -I "$out/modules/CCRC32C" \
        "$root"/Fuzz/Sources/Support/*.swift "$root/Fuzz/Sources/$target.swift" "${link[@]}" -o "$out/fuzz-$target"
done

echo "extract-seeds"
swiftc -swift-version 6 -O -g -sanitize=address -module-name ExtractSeeds -package-name Logbook \
    -I Sources/CLZ4 -I "$out/modules/CCRC32C" \
    "$root"/Fuzz/Sources/Support/*.swift "$root/Fuzz/Sources/ExtractSeeds/main.swift" "${link[@]}" -o "$out/extract-seeds"

"$out/extract-seeds" "$root/Fixtures" "$root/Fuzz/corpus"
