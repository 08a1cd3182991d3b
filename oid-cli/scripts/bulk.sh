#!/usr/bin/env bash
# The bulk figures of oid-cli's README: `oid validate` and `oid inspect --format json` on
# 10,000,000 ids (250 MB), against `wc -l` on the same file, and invalid lines against valid ones.
# Builds the release binary, writes its inputs to a temporary folder (about 600 MB), runs each
# command RUNS times (default 5) after one warm-up, and prints the median wall time of each and
# the ratios. Run from the workspace root: `oid-cli/scripts/bulk.sh [RUNS]`.
set -euo pipefail

runs=${1:-5}
cargo build --release -p oid-cli --quiet
oid=$PWD/target/release/oid
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$oid" new 10000000 >"$dir/ids.txt"
head -n 3000000 "$dir/ids.txt" >"$dir/valid.txt"
# The same lines with their last digit made invalid.
sed 's/.$/g/' "$dir/valid.txt" >"$dir/invalid.txt"

# median WALL seconds of RUNS runs of `sh -c CMD` (one warm-up first).
median() {
    local cmd=$1 times=()
    sh -c "$cmd"
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s.%N)
        sh -c "$cmd"
        end=$(date +%s.%N)
        times+=("$(awk "BEGIN { print $end - $start }")")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

cd "$dir"
wc=$(median "wc -l <ids.txt >/dev/null")
validate=$(median "'$oid' validate <ids.txt 2>/dev/null")
json=$(median "'$oid' inspect --format json <ids.txt >out.json")
valid=$(median "'$oid' validate <valid.txt 2>err.txt")
invalid=$(median "'$oid' validate <invalid.txt 2>err.txt || true")

printf 'machine: %s, %s cores\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)" "$(nproc)"
printf 'wc -l, 10 M lines:                          %8.3f s\n' "$wc"
printf 'oid validate, 10 M ids:                     %8.3f s  (%.1fx wc -l)\n' "$validate" "$(awk "BEGIN { print $validate / $wc }")"
printf 'oid inspect --format json, 10 M ids:        %8.3f s  (%.1f M ids/s)\n' "$json" "$(awk "BEGIN { print 10 / $json }")"
printf 'oid validate, 3 M valid lines:              %8.3f s\n' "$valid"
printf 'oid validate, 3 M invalid lines (stderr to a file): %8.3f s  (%.1fx valid)\n' "$invalid" "$(awk "BEGIN { print $invalid / $valid }")"
