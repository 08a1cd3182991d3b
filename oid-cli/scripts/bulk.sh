#!/usr/bin/env bash
# The bulk figures of oid-cli's README: `oid validate` and `oid inspect --format json` on
# 10,000,000 ids (250 MB), against `wc -l` on the same file, and invalid lines against valid ones.
# Builds the release binary, writes its inputs to a temporary folder (about 2.5 GB with the JSON
# output), runs each
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

# "WALL CPU": the median wall and the median CPU (user + system) seconds of RUNS runs of
# `sh -c CMD`, after one warm-up. On a shared machine the CPU time is the steadier figure.
median() {
    local cmd=$1 walls=() cpus=()
    sh -c "$cmd"
    for _ in $(seq "$runs"); do
        local w c
        /usr/bin/time -f '%e %U %S' -o "$dir/time" sh -c "$cmd"
        read -r w c <<<"$(awk '{ print $1, $2 + $3 }' "$dir/time")"
        walls+=("$w")
        cpus+=("$c")
    done
    local mid=$(((runs + 1) / 2))
    echo "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p") $(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")"
}

cd "$dir"
read -r wc wc_cpu <<<"$(median "wc -l <ids.txt >/dev/null")"
read -r validate validate_cpu <<<"$(median "'$oid' validate <ids.txt 2>/dev/null")"
read -r json json_cpu <<<"$(median "'$oid' inspect --format json <ids.txt >/dev/null")"
read -r json_file json_file_cpu <<<"$(median "'$oid' inspect --format json <ids.txt >out.json")"
read -r valid valid_cpu <<<"$(median "'$oid' validate <valid.txt 2>err.txt")"
read -r invalid invalid_cpu <<<"$(median "'$oid' validate <invalid.txt 2>err.txt || true")"

ratio() { awk "BEGIN { printf \"%.1f\", $1 / $2 }"; }
printf 'machine: %s, %s cores; median of %s runs, wall and CPU seconds\n' \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)" "$(nproc)" "$runs"
printf 'wc -l, 10 M lines:                           %6.2f s wall %6.2f s CPU\n' "$wc" "$wc_cpu"
printf 'oid validate, 10 M ids:                      %6.2f s wall %6.2f s CPU  (%sx, %sx wc -l)\n' \
    "$validate" "$validate_cpu" "$(ratio "$validate" "$wc")" "$(ratio "$validate_cpu" "$wc_cpu")"
printf 'oid inspect --format json, 10 M ids:        %6.2f s wall %6.2f s CPU  (%s, %s M ids/s)\n' \
    "$json" "$json_cpu" "$(ratio 10 "$json")" "$(ratio 10 "$json_cpu")"
printf '  the same into a file (2.1 GB):             %6.2f s wall %6.2f s CPU  (%s, %s M ids/s)\n' \
    "$json_file" "$json_file_cpu" "$(ratio 10 "$json_file")" "$(ratio 10 "$json_file_cpu")"
printf 'oid validate, 3 M valid lines:               %6.2f s wall %6.2f s CPU\n' "$valid" "$valid_cpu"
printf 'oid validate, 3 M invalid lines:             %6.2f s wall %6.2f s CPU  (%sx, %sx valid)\n' \
    "$invalid" "$invalid_cpu" "$(ratio "$invalid" "$valid")" "$(ratio "$invalid_cpu" "$valid_cpu")"
