#!/usr/bin/env bash
# Builds, once, the root filesystem of the systemd guest (scripts/vm/run.sh --systemd): Debian 12 from
# Debian's archive, made by mmdebstrap, with systemd as PID 1, udev, dbus, what touchd's package
# depends on, and netcat (a client of the socket besides touchctl); the lab kernel's evdev and uinput
# modules (scripts/vm/setup.sh downloads the kernel); the harness's vm-uinput. The guest runs from it
# as its initramfs: an uncompressed cpio (a job's cpio appended to a compressed one would be
# ignored), $TOUCHD_VMLAB/systemd-root-KEY.cpio, KEY from this recipe and the kernel's version: a
# changed recipe builds a new root, an unchanged one is reused. Prints the cpio's path on its last
# line. As root (mmdebstrap's root mode), or through sudo.
set -euo pipefail
VM=${TOUCHD_VMLAB:-${TOUCHD_VM:-/tmp/touchd-vm}}
HERE=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" -eq 0 ] || exec sudo --preserve-env=TOUCHD_VMLAB,TOUCHD_VM "$0" "$@"
[ -d "$VM/kernel/lib/modules" ] && [ -x "$VM/base/usr/bin/vm-uinput" ] || { echo "systemd-root.sh: no lab in $VM (run scripts/vm/setup.sh)" >&2; exit 1; }
kver=$(ls "$VM/kernel/lib/modules" | head -1)
key=$( { cat "$HERE/systemd-root.sh" "$HERE/guest/vm-uinput.c"; echo "$kver"; } | md5sum | cut -c1-12)
cpio=$VM/systemd-root-$key.cpio
if [ -f "$cpio" ]; then echo "$cpio"; exit 0; fi

# The packages beyond minbase: systemd (PID 1, journald, sysusers, tmpfiles), udev and kmod for the
# devices, dbus for systemctl and systemd-analyze, init-system-helpers for the package's maintainer
# scripts, and libevdev2, libmd0 and libyaml-0-2, which touchd links. The system's own manuals, documentation and
# translations are left out; packages installed later get theirs, as on any Debian system.
root=$VM/systemd-root.tmp
rm -rf "$root"
mmdebstrap --mode=root --variant=minbase --include=systemd,udev,dbus,kmod,init-system-helpers,passwd,netcat-openbsd,libevdev2,libmd0,libyaml-0-2 \
  --aptopt='Acquire::Retries "3"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook='rm -f "$1"/etc/systemd/system/timers.target.wants/* "$1"/etc/systemd/system/getty.target.wants/*' \
  --customize-hook='ln -sf /dev/null "$1/etc/systemd/system/getty.target"' \
  --customize-hook='echo lab > "$1/etc/hostname"' \
  --customize-hook='printf "evdev\nuinput\n" > "$1/etc/modules-load.d/touchd-lab.conf"' \
  --customize-hook='rm "$1/etc/dpkg/dpkg.cfg.d/99mmdebstrap"' \
  bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main" </dev/null >&2

# The kernel's input modules, at the kernel's version.
m=$root/usr/lib/modules/$kver
for ko in drivers/input/evdev.ko drivers/input/misc/uinput.ko; do
  mkdir -p "$m/kernel/$(dirname "$ko")"
  cp "$VM/kernel/lib/modules/$kver/kernel/$ko" "$m/kernel/$ko"
done
cp "$VM/kernel/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$m/"
chroot "$root" depmod "$kver"
cp "$VM/base/usr/bin/vm-uinput" "$root/usr/local/bin/vm-uinput"

# Owners and modes as Debian made them (no -R: files of other users stay theirs).
rm -f "$VM"/systemd-root-*.cpio
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) > "$cpio.tmp"
mv "$cpio.tmp" "$cpio"
rm -rf "$root"
echo "$cpio"
