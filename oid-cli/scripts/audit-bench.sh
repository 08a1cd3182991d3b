#!/usr/bin/env bash
# The speed and memory figures of `oid audit` in oid-audit's README: N ids (default 10,000,000;
# 100 generators of N/100 ids, as hex lines and as a Parquet column) audited by `oid audit`,
# against `sort | uniq -d` (what people run today to find duplicates) and `wc -l` on the same
# lines. Each command runs RUNS times (default 3) after one warm-up, in turn; prints the median
# wall seconds and peak memory (max RSS) of each, and the ratios. Run from the workspace root:
# `oid-cli/scripts/audit-bench.sh [N] [RUNS]`. Needs about 26 bytes per id of temporary disk
# under $TMPDIR (default /tmp), and `sort` about as much again for its own temporary files.
# `sort` runs as people run it (their locale); `LC_ALL=C sort` (bytes compared, no collation:
# faster) is the stricter second peer. The load average is printed before and after.
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
names=(wc sort csort audit parquet)
declare -A cmds=(
    [wc]="wc -l <ids.txt >/dev/null"
    [sort]="sort ids.txt | uniq -d >/dev/null"
    [csort]="LC_ALL=C sort ids.txt | uniq -d >/dev/null"
    [audit]="'$oid' audit ids.txt >/dev/null"
    [parquet]="'$oid' audit ids.parquet >/dev/null"
)
cd "$dir"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
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
printf '%s; machine: %s, %s cores; %s ids; median of %s runs; load average %s before, %s after; sort collates by %s\n' \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)" \
    "$(nproc)" "$n" "$runs" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(locale 2>/dev/null | sed -n 's/^LC_COLLATE=//p')"
for name in "${names[@]}"; do
    printf '%-8s %8.2f s %10s KB  (%s)\n' "$name" "$(median "${walls[$name]}")" "$(median "${rss[$name]}")" "${cmds[$name]}"
done
for peer in sort csort; do
    w_sort=$(median "${walls[$peer]}"); m_sort=$(median "${rss[$peer]}")
    for name in audit parquet; do
        printf '%s: %sx faster than %s, %sx less memory\n' "$name" \
            "$(ratio "$w_sort" "$(median "${walls[$name]}")")" "${cmds[$peer]% >/dev/null}" \
            "$(ratio "$m_sort" "$(median "${rss[$name]}")")"
    done
done
printf 'audit of hex lines: %sx the time of wc -l\n' "$(ratio "$(median "${walls[audit]}")" "$(median "${walls[wc]}")")"
