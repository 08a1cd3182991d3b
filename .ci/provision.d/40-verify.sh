#!/usr/bin/env bash
# Peers and tools for the verification steps of `cargo xtask ci` (issue 8; see TESTING.md):
#   peers: pymongo (pinned in verify/python/requirements.txt) in the project-local venv target/venv,
#          and js-bson (pinned in verify/js/package-lock.json) in verify/js/node_modules (npm ci);
#   fuzz:  cargo-fuzz (`cargo install cargo-fuzz --locked`) when `cargo fuzz` is missing.
# Miri and rust-src are added to the nightly toolchain by `cargo xtask miri` itself.
#
# Idempotent and fast when done: pip runs only when the venv lacks the pinned pymongo, npm ci
# only when package-lock.json differs from the one last installed, cargo install only when
# `cargo fuzz` does not run. `cargo xtask diff` and `cargo xtask fuzz` call this script with
# `peers` or `fuzz`; with no argument it does both. Never removes system packages.
set -euo pipefail
cd "$(dirname "$0")/../.."

what="${1:-all}"

peers() {
    local venv=target/venv req=verify/python/requirements.txt
    local stamp="$venv/.oid-verify-requirements.txt"
    if ! [ -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    if ! cmp -s "$req" "$stamp" || ! "$venv/bin/python" -c 'import bson.objectid, pymongo' 2>/dev/null; then
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
        cp "$req" "$stamp"
    fi
    echo "verify: pymongo $("$venv/bin/python" -c 'import pymongo; print(pymongo.version)') in $venv"

    local js=verify/js
    local lock_stamp="$js/node_modules/.oid-verify-installed-lock.json"
    if ! command -v npm >/dev/null 2>&1; then
        echo "verify: npm missing; install Node.js 20.19 or newer" >&2
        exit 1
    fi
    if ! cmp -s "$js/package-lock.json" "$lock_stamp"; then
        (cd "$js" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
        cp "$js/package-lock.json" "$lock_stamp"
    fi
    echo "verify: js-bson $(node -p "require('./$js/node_modules/bson/package.json').version") in $js/node_modules"
}

fuzz() {
    if ! cargo fuzz --version >/dev/null 2>&1; then
        cargo install cargo-fuzz --locked
    fi
    echo "verify: $(cargo fuzz --version)"
}

case "$what" in
    peers) peers ;;
    fuzz) fuzz ;;
    all) peers; fuzz ;;
    *) echo "usage: $0 [peers|fuzz]" >&2; exit 2 ;;
esac
