#!/usr/bin/env bash
# PostgreSQL server binaries for `cargo xtask sql` (sql-tests on a throwaway cluster under target/).
# Idempotent: exits at once when /usr/lib/postgresql/*/bin/initdb exists. The xtask installs the
# package itself too when it is missing; this only does it ahead of time.
set -euo pipefail

if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    echo "postgres: $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "postgres: no server binaries and not root; install the postgresql package" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends postgresql >/dev/null
echo "postgres: installed $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)"
