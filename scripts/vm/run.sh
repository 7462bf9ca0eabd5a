#!/usr/bin/env bash
# Boots a throw-away guest with a real Linux 6.1 input stack and runs a job in it.
#   run.sh [--udev] [--timeout SECONDS] [--icount SPEC] JOBDIR [BINARY...] [-- COMMAND [ARG...]]
# JOBDIR is copied to /job (its executable `run` is the job, unless a COMMAND is given: then the job
# is that command, run in /job); each BINARY is copied to /job/bin with its shared libraries (/job/bin
# is first on PATH). --udev starts udevd before the job. Prints the job's stdout and stderr; exits with
# its status (124: timeout, 125: the guest failed). --icount passes `-icount SPEC` to QEMU, e.g.
# `shift=0,sleep=off`: the guest clock then advances 1 ns per guest instruction, so CPU times in
# the guest are instruction counts, the same on every run (scripts/bench/daemon-vm.sh uses it).
# --systemd ROOT boots ROOT (a cpio from scripts/vm/systemd-root.sh: Debian 12) with systemd as PID 1
# instead of the busybox guest: the job is then a service of its own, started once the system is up,
# and the guest powers off cleanly when it ends.
# Example: run.sh --udev /tmp/empty .build/release/touchd -- touchd devices --all
set -uo pipefail
VM=${TOUCHD_VMLAB:-${TOUCHD_VM:-/tmp/touchd-vm}}
udev=0 timeout=240 icount=() systemd_root=""
while [ $# -gt 0 ]; do
  case $1 in
    --udev) udev=1;; --timeout) timeout=$2; shift;; --icount) icount=(-icount "$2"); shift;;
    --systemd) systemd_root=$2; shift;;
    *) break;;
  esac; shift
done
job=$1; shift
bins=() command=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; command=("$@"); break; fi
  bins+=("$1"); shift
done
base=$VM/base.cpio append="console=ttyS0 quiet panic=-1 touchd.udev=$udev" memory=1024
if [ -n "$systemd_root" ]; then
  # Debian's root lives in the guest's memory, beside the system it runs.
  base=$systemd_root append="console=ttyS0 quiet panic=-1 rdinit=/usr/lib/systemd/systemd systemd.show_status=false" memory=1536
fi
[ -f "$base" ] || { echo "run.sh: no guest root $base (run scripts/vm/setup.sh, or scripts/vm/systemd-root.sh)" >&2; exit 125; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
mkdir -p "$w/root/job/bin"
cp -a "$job/." "$w/root/job/"
if [ -n "$systemd_root" ]; then
  # The job as a service, after the system is up; ttyS1-3 are the job's stdout, stderr and status.
  # Type=exec, not oneshot: the boot is complete while the job runs (systemd-analyze needs that).
  mkdir -p "$w/root/etc/systemd/system/multi-user.target.wants"
  cat > "$w/root/etc/systemd/system/lab-job.service" <<'UNIT'
[Unit]
Description=The lab's job (/job/run)
After=multi-user.target
SuccessAction=poweroff
FailureAction=poweroff
[Service]
Type=exec
Environment=PATH=/job/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin HOME=/root
ExecStart=/bin/sh /job/.lab-job
UNIT
  ln -s ../lab-job.service "$w/root/etc/systemd/system/multi-user.target.wants/lab-job.service"
  cat > "$w/root/job/.lab-job" <<'JOB'
for p in /dev/ttyS1 /dev/ttyS2 /dev/ttyS3; do stty -F $p raw -echo -onlcr; done
cd /job && /bin/sh /job/run </dev/null >/dev/ttyS1 2>/dev/ttyS2
echo $? > /dev/ttyS3
sync
JOB
fi
if [ ${#command[@]} -gt 0 ]; then
  { echo '#!/bin/sh'; printf 'exec'; printf " '%s'" "${command[@]//\'/\'\\\'\'}"; echo; } > "$w/root/job/run"
  chmod +x "$w/root/job/run"
fi
for bin in "${bins[@]}"; do
  cp -L "$bin" "$w/root/job/bin/"
  ldd "$bin" 2>/dev/null | awk '/=> \//{print $3} $1 ~ /^\//{print $1}' | while read -r lib; do
    to=$lib; case $to in /lib/*|/lib64/*) to=/usr$to;; esac
    mkdir -p "$w/root$(dirname "$to")"; cp -L "$lib" "$w/root$to"
  done
done
(cd "$w/root" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet) > "$w/job.cpio"
cat "$base" "$w/job.cpio" > "$w/initrd"
: > "$w/out"; : > "$w/err"; : > "$w/status"
timeout --foreground -k 5 "$timeout" qemu-system-x86_64 -nodefaults -no-user-config -machine pc -accel tcg -cpu max \
  -m "$memory" -smp 1 "${icount[@]}" -kernel "$VM/vmlinux" -initrd "$w/initrd" -display none -no-reboot \
  -append "$append" \
  -serial "file:$w/console" -serial "file:$w/out" -serial "file:$w/err" -serial "file:$w/status" \
  </dev/null >"$w/qemu.log" 2>&1
qrc=$?
cat "$w/out"; cat "$w/err" >&2
if [ $qrc = 124 ] || [ $qrc = 137 ]; then echo "run.sh: the guest timed out after ${timeout}s" >&2; tail -20 "$w/console" >&2; exit 124; fi
rc=$(head -n1 "$w/status" | tr -dc '0-9')
[ -n "$rc" ] || { echo "run.sh: the guest reported no status (qemu $qrc)" >&2; cat "$w/qemu.log" >&2; tail -30 "$w/console" >&2; exit 125; }
exit "$rc"
