#!/usr/bin/env bash
# Prepares the end-to-end lab once per machine (idempotent; as root, or through sudo):
# installs QEMU and the guest's tools from Debian, downloads (does not install) Debian's kernel and
# udev packages, and builds a small guest root tree under $TOUCHD_VMLAB (default /tmp/touchd-vm):
# busybox, udevd with the input rules, evdev/uinput/uhid/hid-multitouch modules, and the
# harness's own guest programs.
set -euo pipefail
VM=${TOUCHD_VMLAB:-${TOUCHD_VM:-/tmp/touchd-vm}}
HERE=$(cd "$(dirname "$0")" && pwd)
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

need=()
for p in qemu-system-x86 busybox-static cpio gcc libc6-dev python3 systemd; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  run apt-get -o DPkg::Lock::Timeout=300 update -q
  run env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "${need[@]}"
fi

stamp="$VM/base/.ready-$(cat "$HERE"/setup.sh "$HERE"/guest/* | md5sum | cut -c1-12)"
[ -e "$stamp" ] && { echo "vm lab ready: $VM"; exit 0; }

mkdir -p "$VM/debs"
cd "$VM/debs"
kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
[ -n "$kpkg" ] || { run apt-get -o DPkg::Lock::Timeout=300 update -q; kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}'); }
ls "${kpkg}"_*.deb >/dev/null 2>&1 || apt-get download "$kpkg"
ls udev_*.deb >/dev/null 2>&1 || apt-get download udev
cd "$VM"
rm -rf kernel udevroot base
dpkg-deb -x debs/"${kpkg}"_*.deb kernel
dpkg-deb -x debs/udev_*.deb udevroot

# The kernel's bzImage wraps an xz-compressed vmlinux; booting the raw vmlinux (PVH entry) skips the
# slow in-guest decompression under software emulation.
python3 - "$VM" <<'PY'
import glob, lzma, sys
vm = sys.argv[1]
image = open(glob.glob(vm + "/kernel/boot/vmlinuz-*")[0], "rb").read()
start = image.find(b"\xfd7zXZ\x00")
open(vm + "/vmlinux", "wb").write(lzma.LZMADecompressor().decompress(image[start:]))
PY

B=$VM/base
mkdir -p "$B"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,dev,proc,sys,run,tmp,root,job,var}
ln -s usr/bin "$B/bin"; ln -s usr/sbin "$B/sbin"; ln -s usr/lib "$B/lib"; ln -s usr/lib64 "$B/lib64"
cp /bin/busybox "$B/usr/bin/busybox"

# A dynamically linked program with its shared libraries, at the same paths (the guest is merged-/usr).
copy_with_libs() {
  local src=$1 dst=$2
  mkdir -p "$B$(dirname "$dst")"; cp -L "$src" "$B$dst"
  ldd "$src" 2>/dev/null | awk '/=> \//{print $3} $1 ~ /^\//{print $1}' | while read -r lib; do
    local to=$lib; case $to in /lib/*|/lib64/*) to=/usr$to;; esac
    [ -e "$B$to" ] || { mkdir -p "$B$(dirname "$to")"; cp -L "$lib" "$B$to"; }
  done
}
copy_with_libs "$VM/udevroot/bin/udevadm" /usr/bin/udevadm
mkdir -p "$B/usr/lib/systemd" "$B/usr/lib/udev/rules.d" "$B/etc/udev"
ln -s /usr/bin/udevadm "$B/usr/lib/systemd/systemd-udevd"
for r in 50-udev-default 60-input-id 60-evdev 60-persistent-input 70-touchpad; do
  cp "$VM/udevroot/lib/udev/rules.d/$r.rules" "$B/usr/lib/udev/rules.d/"
done
rm -rf "$VM/hwdb"; mkdir -p "$VM/hwdb/etc/udev/hwdb.d"
cp "$VM"/udevroot/lib/udev/hwdb.d/{60-evdev,60-input-id,70-touchpad}.hwdb "$VM/hwdb/etc/udev/hwdb.d/"
"$VM/udevroot/bin/systemd-hwdb" update --root="$VM/hwdb"
cp "$(find "$VM/hwdb" -name hwdb.bin | head -1)" "$B/usr/lib/udev/hwdb.bin"
printf 'udev_log=err\n' > "$B/etc/udev/udev.conf"
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$B/etc/passwd"
printf 'root:x:0:\ninput:x:101:\n' > "$B/etc/group"

kver=$(ls "$VM/kernel/lib/modules" | head -1)
for m in drivers/input/evdev.ko drivers/input/misc/uinput.ko drivers/hid/hid.ko drivers/hid/uhid.ko drivers/hid/hid-generic.ko drivers/hid/hid-multitouch.ko; do
  mkdir -p "$B/lib/modules/$kver/kernel/$(dirname $m)"
  cp "$VM/kernel/lib/modules/$kver/kernel/$m" "$B/lib/modules/$kver/kernel/$m"
done
cp "$VM/kernel/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$B/lib/modules/$kver/"
busybox depmod -b "$B" "$kver"

# The harness's guest programs, static so they need nothing in the guest.
for prog in vm-uinput vm-uhid; do
  gcc -static -O2 -Wall -o "$B/usr/bin/$prog" "$HERE/guest/$prog.c"
done
cp "$HERE/guest/init" "$B/init"; chmod +x "$B/init"
(cd "$B" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$VM/base.cpio"
touch "$stamp"
echo "vm lab ready: $VM"
