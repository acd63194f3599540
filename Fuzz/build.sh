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
mkdir -p "$out/modules"

swift_log=$root/.build/checkouts/swift-log/Sources/Logging
[ -d "$swift_log" ] || swift package resolve >/dev/null
[ -d "$swift_log" ] || { echo "swift-log is not checked out under .build/checkouts" >&2; exit 1; }

common=(-swift-version 6 -O -g -parse-as-library)
# The macro declarations of Logbook name their plugin; use the one `swift build` made, if any,
# so the compiler does not warn that it is missing (the fuzzed code uses no macro).
plugin=()
[ -x .build/debug/LogbookMacros-tool ] && plugin=(-load-plugin-executable "$root/.build/debug/LogbookMacros-tool#LogbookMacros")
sanitize=(-sanitize=fuzzer,address)

# The C targets of the package that the Logbook module imports, found from its imports rather
# than listed here, so that adding or removing one needs no change to this script. A target with
# its own module map (a system library such as CLZ4) is used as it is; for the others, built from
# `.c` files with their headers under `include/`, each source is compiled with the sanitizers and
# a module map is written over the headers, as SwiftPM does.
c_modules=()
c_objects=()
for module in $(sed -nE 's/^[[:space:]]*(@_implementationOnly[[:space:]]+|(public|package|internal|private|fileprivate)[[:space:]]+)?import[[:space:]]+([A-Za-z_][A-Za-z0-9_]*).*/\3/p' \
    $(find Sources/Logbook -name '*.swift') | sort -u); do
    dir=Sources/$module
    [ -d "$dir" ] || continue
    if [ -f "$dir/module.modulemap" ]; then
        c_modules+=(-I "$root/$dir")
        continue
    fi
    [ -d "$dir/include" ] || continue
    echo "$module"
    mkdir -p "$out/modules/$module"
    while IFS= read -r source; do
        object=$out/$module-$(basename "${source%.c}").o
        clang -c -O2 -g -fsanitize=fuzzer-no-link,address -I "$dir/include" "$source" -o "$object"
        c_objects+=("$object")
    done < <(find "$dir" -name '*.c' | sort)
    cat >"$out/modules/$module/module.modulemap" <<MAP
module $module {
    umbrella "$root/$dir/include"
    export *
}
MAP
    c_modules+=(-I "$out/modules/$module")
done

echo "Logging"
swiftc "${common[@]}" "${sanitize[@]}" -module-name Logging -package-name swift_log \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
    -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature NonisolatedNonsendingByDefault \
    -emit-library -static -emit-module -emit-module-path "$out/Logging.swiftmodule" \
    $(find "$swift_log" -name '*.swift' | sort) -o "$out/libLogging.a"

echo "Logbook"
swiftc "${common[@]}" "${sanitize[@]}" -module-name Logbook -package-name Logbook -enable-testing "${plugin[@]}" \
    -I "$out" "${c_modules[@]}" \
    -emit-library -static -emit-module -emit-module-path "$out/Logbook.swiftmodule" \
    $(find Sources/Logbook -name '*.swift' | sort) -o "$out/libLogbook.a"

link=(-use-ld=lld -I "$out" -L "$out" -lLogbook -lLogging "${c_objects[@]}" -llz4)
for target in BatchReader EventDecoder SchemaDecoder; do
    echo "fuzz-$target"
    swiftc "${common[@]}" "${sanitize[@]}" -module-name "Fuzz$target" -package-name Logbook \
        "${c_modules[@]}" \
        "$root"/Fuzz/Sources/Support/*.swift "$root/Fuzz/Sources/$target.swift" "${link[@]}" -o "$out/fuzz-$target"
done

echo "extract-seeds"
swiftc -swift-version 6 -O -g -sanitize=address -module-name ExtractSeeds -package-name Logbook \
    "${c_modules[@]}" \
    "$root"/Fuzz/Sources/Support/*.swift "$root/Fuzz/Sources/ExtractSeeds/main.swift" "${link[@]}" -o "$out/extract-seeds"

"$out/extract-seeds" "$root/Fixtures" "$root/Fuzz/corpus"
