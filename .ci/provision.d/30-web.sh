#!/usr/bin/env bash
# Chromium and playwright-core for `cargo xtask web-test` (oid-web's page, tested end to end in
# headless Chromium).
#
# Idempotent and fast when done: Debian's chromium is installed only when /usr/bin/chromium is missing
# (with --no-remove, so no system package is ever removed; the package lists are refreshed only when
# they do not offer chromium or the install fails), and `npm ci` runs in oid-web/e2e only when its
# package-lock.json differs from the one last installed. node_modules there is git-ignored.
# playwright-core never downloads a browser: the test drives the system Chromium.
set -euo pipefail
cd "$(dirname "$0")/../.."

chromium=/usr/bin/chromium
if ! "$chromium" --version >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then
        echo "web: $chromium missing and not root; install Debian's chromium package" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    install_chromium() { apt-get install -y --no-install-recommends --no-remove chromium; }
    policy=$(apt-cache policy chromium 2>/dev/null || true)
    if ! grep -q 'Candidate: [0-9]' <<<"$policy" || ! install_chromium; then
        apt-get update
        install_chromium
    fi
fi
echo "web: $("$chromium" --version 2>/dev/null)"

e2e=oid-web/e2e
stamp="$e2e/node_modules/.oid-web-installed-lock.json"
if ! command -v npm >/dev/null 2>&1; then
    echo "web: npm missing; install Node.js 20 or newer" >&2
    exit 1
fi
if ! cmp -s "$e2e/package-lock.json" "$stamp"; then
    (cd "$e2e" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund)
    cp "$e2e/package-lock.json" "$stamp"
fi
echo "web: playwright-core $(node -p "require('./$e2e/node_modules/playwright-core/package.json').version")"
