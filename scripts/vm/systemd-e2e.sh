#!/usr/bin/env bash
# The Debian package, checked as it ships and on a real systemd boot. Builds the package (`make deb`:
# static binaries, debhelper), checks it on the host (ldd, contents, stripped binaries, man pages,
# lintian), then boots Debian 12 with systemd as PID 1 under QEMU (scripts/vm/systemd-root.sh builds
# its root filesystem once and caches it) and runs scripts/vm/systemd-job/run there: dpkg -i, socket
# activation, a touchscreen plugged in, reloads, the watchdog, systemd-analyze security, a clean stop.
#
# Runs from anywhere, as root on Debian 12 (or through sudo): installs what it needs on first use.
# Prints the outputs it checks, one `ok - ...` line per check, and ends with an `N passed, N failed`
# line (the host's checks and the guest's together); exits 0 only when every check passed.
set -uo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
give_up() { echo "systemd-e2e: $1" >&2; echo "0 passed, 1 failed"; exit 1; }
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); echo "ok - $1"; else fail=$((fail + 1)); echo "FAIL - $1"; fi; }

bash scripts/install-deps.sh debhelper dpkg-dev lintian mmdebstrap python3 binutils file || give_up "cannot install the packaging tools"
bash scripts/vm/setup.sh >&2 || give_up "cannot set up the VM lab"
root=$(bash scripts/vm/systemd-root.sh | tail -1) && [ -f "$root" ] || give_up "cannot build the systemd guest's root filesystem"
ready=$(date +%s)
log=$(mktemp)
w=$(mktemp -d); trap 'rm -rf "$w" "$log"' EXIT
if ! make deb > "$log" 2>&1; then tail -40 "$log" >&2; give_up "make deb failed"; fi
version=$(make -s version)
deb=out/touchd_${version}_amd64.deb
[ -f "$deb" ] || give_up "make deb made no $deb"
built=$(date +%s)

echo "=== the package: $deb"
dpkg-deb -x "$deb" "$w/pkg"
echo "\$ ldd /usr/bin/touchd /usr/bin/touchctl"
ldd "$w/pkg/usr/bin/touchd" "$w/pkg/usr/bin/touchctl" | sed "s#$w/pkg##" | tee "$w/ldd"
echo "\$ dpkg-deb -c $deb"
dpkg-deb -c "$deb" | tee "$w/contents"
echo "\$ dpkg-deb -f $deb Depends"
dpkg-deb -f "$deb" Depends
echo "\$ lintian $deb"
lintian --fail-on error "$deb" 2>&1 | grep -v 'running with root privileges' | tee "$w/lintian"
lintian_status=${PIPESTATUS[0]}
echo "(lintian exit status $lintian_status)"

check "package: ldd names no Swift library" "! grep -qi swift '$w/ldd'"
check "package: the binary needs only libc, libm, libstdc++, libgcc_s, libevdev, libudev, libmd and libyaml" \
  "! grep '=>' '$w/ldd' | grep -vE '^\s*(linux-vdso|libc|libm|libstdc\+\+|libgcc_s|libevdev|libudev|libmd|libyaml-0)\.so'"
check "package: the binary is stripped" "file '$w/pkg/usr/bin/touchd' | grep -q ', stripped'"
check "package: touchctl is a link to touchd (one binary)" "[ \"\$(readlink '$w/pkg/usr/bin/touchctl')\" = touchd ]"
check "package: the binaries print version $version" "[ \"\$('$w/pkg/usr/bin/touchd' --version)\" = 'touchd $version' ] && [ \"\$('$w/pkg/usr/bin/touchctl' --version)\" = 'touchctl $version' ]"
for path in ./usr/bin/touchd ./usr/bin/touchctl ./usr/lib/systemd/system/touchd.service ./usr/lib/systemd/system/touchd.socket \
    ./usr/lib/sysusers.d/touchd.conf ./usr/lib/tmpfiles.d/touchd.conf ./etc/touchd/layout.toml ./usr/share/doc/touchd/copyright \
    ./usr/share/man/man8/touchd.8.gz ./usr/share/man/man1/touchctl.1.gz ./usr/share/man/man5/touchd-layout.5.gz \
    ./usr/share/bash-completion/completions/touchd ./usr/share/zsh/vendor-completions/_touchctl ./usr/share/fish/vendor_completions.d/touchd.fish \
    ./usr/share/doc/touchd/examples/calibrate.py; do
  # A link is listed with its target (`./usr/bin/touchctl -> touchd`).
  check "package: ships $path" "grep -qE ' $path( -> [^ ]+)?\$' '$w/contents'"
done
check "package: /etc/touchd/layout.toml is a conffile" "dpkg-deb -I '$deb' conffiles | grep -qx /etc/touchd/layout.toml"
check "package: ExecStart runs /usr/bin/touchd" "grep -q '^ExecStart=/usr/bin/touchd ' '$w/pkg/usr/lib/systemd/system/touchd.service'"
check "package: ExecReload checks the layout with /usr/bin/touchd before signalling" \
  "grep '^ExecReload=' '$w/pkg/usr/lib/systemd/system/touchd.service' | head -1 | grep -qx 'ExecReload=/usr/bin/touchd check --config /etc/touchd/layout.toml'"
for page in man8/touchd.8 man1/touchctl.1 man5/touchd-layout.5; do
  missing=$(for s in DESCRIPTION OPTIONS FILES SIGNALS ENVIRONMENT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    zcat "$w/pkg/usr/share/man/$page.gz" | grep -q "^\.SH \"\?$s\"\?\$" || echo "$s"; done)
  check "package: $page has DESCRIPTION, OPTIONS, FILES, SIGNALS, ENVIRONMENT, EXIT STATUS, EXAMPLES, SEE ALSO${missing:+ (missing: $missing)}" "[ -z \"$missing\" ]"
  check "package: $page formats without a warning" "[ -z \"\$(zcat '$w/pkg/usr/share/man/$page.gz' | LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -Tutf8 -ww -z 2>&1)\" ]"
done
check "package: lintian reports no errors" "[ $lintian_status -eq 0 ] && ! grep -q '^E:' '$w/lintian'"
checked=$(date +%s)

echo "=== the guest: Debian 12, systemd as PID 1"
mkdir "$w/job"
cp -a scripts/vm/systemd-job/. "$w/job/"
cp "$deb" "$w/job/"
bash scripts/vm/run.sh --systemd "$root" --timeout 900 "$w/job" | tee "$log"
guest_rc=${PIPESTATUS[0]}
finished=$(date +%s)
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
if [ -z "$summary" ]; then
  echo "systemd-e2e: the guest ended without a result (run.sh exit $guest_rc)" >&2
  fail=$((fail + 1))
else
  guest_passed=${summary%% passed*}
  guest_failed=${summary#* passed, }; guest_failed=${guest_failed%% failed}
  pass=$((pass + guest_passed)); fail=$((fail + guest_failed))
  if [ "$guest_rc" -ne 0 ] && [ "$guest_failed" -eq 0 ]; then
    echo "systemd-e2e: the guest exited $guest_rc although every check passed" >&2
    fail=$((fail + 1))
  fi
fi
echo "systemd-e2e: setup and root $((ready - started))s, package $((built - ready))s, host checks $((checked - built))s, guest $((finished - checked))s, total $((finished - started))s" >&2
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
