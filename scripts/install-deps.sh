#!/usr/bin/env bash
# Installs the Debian packages touchd builds against (and any given as arguments), when missing.
# Runs apt-get as root (directly, or through sudo when not root).
set -euo pipefail
packages=(libevdev-dev libudev-dev pkg-config "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
run apt-get -o DPkg::Lock::Timeout=300 update -q
run env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "${missing[@]}"
