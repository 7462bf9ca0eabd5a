#!/usr/bin/env bash
# Installs the Debian packages touchd builds against (and any given as arguments), when missing.
# Only what is missing is installed, and nothing already installed is upgraded: apt-get's plan is
# simulated first, and a plan that would upgrade an installed package (a dependency needing a newer
# version) is refused with the packages named, so the machine's own upgrades stay the operator's.
# The test suite and the demo set TOUCHD_DEPS_UPGRADE=allow: on a fresh machine whose image is older
# than the archive, libudev-dev needs libudev1 at its own version (and with it systemd's libraries),
# and the tests' tools (chromium, QEMU, mosquitto...) newer libraries, which they then install,
# naming them.
# Runs apt-get as root (directly, or through sudo when not root).
set -euo pipefail
packages=(libevdev-dev libudev-dev libmd-dev libyaml-dev pkg-config "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
apt=(apt-get -o DPkg::Lock::Timeout=300)
run "${apt[@]}" update -q
# The plan: `Inst NAME [OLD] (NEW ...)` upgrades an installed package, `Inst NAME (NEW ...)` adds one.
plan=$(LC_ALL=C "${apt[@]}" install -s --no-upgrade --no-install-recommends "${missing[@]}")
upgrades=$(printf '%s\n' "$plan" | sed -n 's/^Inst \([^ ]*\) \[.*/\1/p' | tr '\n' ' ')
if [ -n "$upgrades" ] && [ "${TOUCHD_DEPS_UPGRADE:-}" = allow ]; then
  echo "installing ${missing[*]} upgrades installed packages they need: ${upgrades% } (TOUCHD_DEPS_UPGRADE=allow)" >&2
elif [ -n "$upgrades" ]; then
  echo "not installing ${missing[*]}: apt-get would upgrade installed packages: ${upgrades% }" >&2
  echo "install them yourself (sudo apt-get install ${missing[*]}), or upgrade the system first, then run this again" >&2
  exit 1
fi
run env DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -q --no-upgrade --no-install-recommends "${missing[@]}"
