#!/usr/bin/env bash
# The speed and memory figures of `oid audit` in oid-audit's README: N ids (default 10,000,000;
# 100 generators of N/100 ids, as hex lines and as a Parquet column) audited by `oid audit`,
# against `sort | uniq -d` (what people run today to find duplicates) and `wc -l` on the same
# lines. Each command runs RUNS times (default 3) after one warm-up, in turn; prints the median
# wall seconds and peak memory (max RSS) of each, and the ratios. Run from the workspace root:
# `oid-cli/scripts/audit-bench.sh [N] [RUNS]`. Needs about 26 bytes per id of temporary disk.
set -euo pipefail

n=${1:-10000000}
runs=${2:-3}
cargo build --release -p oid-cli --quiet
oid=$PWD/target/release/oid
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

per=$((n / 100))
for _ in $(seq 100); do "$oid" new "$per"; done >"$dir/ids.txt"
"$oid" convert "$dir/ids.txt" -o "$dir/ids.parquet"

# "WALL KB": the median wall seconds and the median peak memory (KB) of RUNS runs of `sh -c CMD`.
declare -A walls rss
names=(wc sort audit parquet)
declare -A cmds=(
    [wc]="wc -l <ids.txt >/dev/null"
    [sort]="sort ids.txt | uniq -d >/dev/null"
    [audit]="'$oid' audit ids.txt >/dev/null"
    [parquet]="'$oid' audit ids.parquet >/dev/null"
)
cd "$dir"
for name in "${names[@]}"; do sh -c "${cmds[$name]}"; done
for _ in $(seq "$runs"); do
    for name in "${names[@]}"; do
        /usr/bin/time -f '%e %M' -o time sh -c "${cmds[$name]}" || true
        read -r w m <time
        walls[$name]+="$w "
        rss[$name]+="$m "
    done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | sed -n "$(((runs + 1) / 2))p"; }
ratio() { awk "BEGIN { printf \"%.1f\", $1 / $2 }"; }
printf 'machine: %s, %s cores; %s ids; median of %s runs\n' \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)" "$(nproc)" "$n" "$runs"
for name in "${names[@]}"; do
    printf '%-8s %8.2f s %10s KB  (%s)\n' "$name" "$(median "${walls[$name]}")" "$(median "${rss[$name]}")" "${cmds[$name]}"
done
w_sort=$(median "${walls[sort]}"); m_sort=$(median "${rss[sort]}")
for name in audit parquet; do
    printf '%s: %sx faster than sort | uniq -d, %sx less memory\n' "$name" \
        "$(ratio "$w_sort" "$(median "${walls[$name]}")")" "$(ratio "$m_sort" "$(median "${rss[$name]}")")"
done
printf 'audit of hex lines: %sx the time of wc -l\n' "$(ratio "$(median "${walls[audit]}")" "$(median "${walls[wc]}")")"
