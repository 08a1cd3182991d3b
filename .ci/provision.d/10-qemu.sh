#!/usr/bin/env bash
# QEMU for `cargo xtask firmware` (oid-embedded's example firmware on three Cortex-M machines).
#
# Idempotent and fast when done: exits at once if a working qemu-system-arm is on PATH or already
# unpacked in target/qemu. Otherwise it tries a plain `apt-get install --no-remove` (refused where it
# would remove a package, e.g. a preinstalled qemu-utils backport) and falls back to unpacking the
# Debian packages into target/qemu (git-ignored), where the xtask looks first.
set -euo pipefail
cd "$(dirname "$0")/../.."

dir="$PWD/target/qemu"
local_bin="$dir/qemu/usr/bin/qemu-system-arm"

works() { "$1" --version >/dev/null 2>&1; }

if works "$local_bin"; then
    echo "qemu: $("$local_bin" --version | head -n1) in $dir"
    exit 0
fi
if command -v qemu-system-arm >/dev/null 2>&1 && works qemu-system-arm; then
    echo "qemu: $(qemu-system-arm --version | head -n1) on PATH"
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    echo "qemu: qemu-system-arm missing and not root; install it with your package manager" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if apt-get install -y -qq --no-install-recommends --no-remove qemu-system-arm >/dev/null 2>&1 \
    && works qemu-system-arm; then
    echo "qemu: installed $(qemu-system-arm --version | head -n1) with apt"
    exit 0
fi

# The plain install would remove something: take the libraries it needs (none of them replaces an
# installed package), and unpack QEMU itself into our own folder.
apt-get install -y -qq --no-install-recommends --no-remove \
    libfdt1 libcapstone4 libpmem1 librdmacm1 libibverbs1 libslirp0 libvdeplug2 >/dev/null
rm -rf "$dir/debs" "$dir/qemu"
mkdir -p "$dir/debs" "$dir/qemu"
(cd "$dir/debs" && apt-get download -qq qemu-system-arm qemu-system-data)
for deb in "$dir"/debs/*.deb; do
    dpkg-deb -x "$deb" "$dir/qemu"
done
if ! works "$local_bin"; then
    echo "qemu: unpacked $local_bin does not run:" >&2
    "$local_bin" --version >&2 || true
    exit 1
fi
echo "qemu: unpacked $("$local_bin" --version | head -n1) into $dir"
