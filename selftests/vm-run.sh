#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh - boot the Debian kernel that sched_power.ko was built for in
# qemu (TCG), with a busybox initramfs holding the module, the selftests and
# the real trace-cmd, and run one job inside:
#
#   --tests   the kselftest-style TAP suite (selftests/guest-run.sh)
#   --demo    load the module in observe mode and print a short decision trace
#   --stress  selftests/test_stress.sh with the full counts (make stress)
#   --bench   the VM benchmarks (tools/bench/vm-bench.sh)
#   --job NAME      a job guest-run.sh knows (e.g. powerbench)
#   --script FILE   run FILE (sh, with lib.sh sourced) instead: debugging
#
# SP_TESTS="basic idle" runs only selftests/test_basic.sh and test_idle.sh.
# rt-app (if installed), the stories and tools/power-bench always go in.
# SP_VM_BINS="/usr/bin/x ..."  more host binaries, copied with their libraries;
# SP_VM_DLOPEN="libx.so.1 ..." libraries they dlopen (ldd cannot see those);
# SP_VM_FILES="a.json ..."     more files, into /sp/files/ in the guest;
# SP_VM_ENV="VAR ..."          variables exported to the guest job.
#
# SP_ARCH=arm64 boots the Debian arm64 kernel that `make arm64` fetched into
# build/arm64/ (module build/arm64/mod/sched_power.ko) on qemu's virt board,
# -cpu cortex-a57, as a big.LITTLE board (scripts/arm64-biglittle-dtb.sh):
# SP_BOARD=biglittle (default: SP_BIG big CPUs at capacity 1024 then
# SP_LITTLE LITTLE at SP_LITTLE_DMIPS, defaults 2, 4, 410) or SP_BOARD=virt
# (qemu's own DTB: one cluster of equal CPUs).  Guest binaries come from the
# arm64 packages (busybox, trace-cmd, rt-app) and build/arm64/guest/.
#
# The guest's console is captured in build/vm/<job>.log; the job's output is
# the part between the SP-BEGIN and SP-END markers, printed on stdout.
# Exit status: 0 if the job ran to SP-END and reported no failure.
set -euo pipefail

job=tests
script=
case "${1:-}" in
--tests) job=tests ;;
--demo) job=demo ;;
--stress) job=stress ;;
--bench) job=bench ;;
--job) job=${2:?--job needs a name} ;;
--script) job=script; script=${2:?--script needs a file} ;;
"") ;;
*) echo "usage: $0 [--tests|--demo|--stress|--bench|--job NAME|--script FILE]" >&2; exit 2 ;;
esac
only=$(echo "${SP_TESTS:-}" | tr ' ' ',')

top=$(cd "$(dirname "$0")/.." && pwd)
arch=${SP_ARCH:-x86_64}
out=${SP_VM_OUT:-$top/build/vm}	# SP_VM_OUT: the console log and initramfs elsewhere
ko=${SP_MODULE:-$top/sched_power.ko}
smp=${SP_VM_SMP:-4,sockets=2,cores=2}
guest_bin=$top/build/guest
if [ "$arch" = arm64 ]; then
	a64=$top/build/arm64
	sysroot=$a64/sysroot
	out=${SP_VM_OUT:-$a64/vm}
	ko=${SP_MODULE:-$a64/mod/sched_power.ko}
	nbig=${SP_BIG:-2} nlittle=${SP_LITTLE:-4}
	smp=${SP_VM_SMP:-$((nbig + nlittle))}
	guest_bin=$a64/guest
fi
# A hung guest costs at most this long (the test suite takes 2-3 min;
# make stress 6-9 min on a busy 2-core host).
case "$job" in
tests | demo | script) timeout_s=${SP_VM_TIMEOUT:-600} ;;
stress) timeout_s=${SP_VM_TIMEOUT:-900} ;;
*) timeout_s=${SP_VM_TIMEOUT:-1200} ;;
esac

die() { echo "vm-run: $*" >&2; exit 1; }

[ -f "$ko" ] || die "no $ko: run make first"
kver=$(modinfo -F vermagic "$ko" | awk '{print $1}')
if [ "$arch" = arm64 ]; then
	kernel=${SP_KERNEL:-$sysroot/boot/vmlinuz-$kver}
	[ -f "$kernel" ] || die "module is for $kver but $kernel is missing (make arm64-fetch)"
	qemu=qemu-system-aarch64
	busybox=$sysroot/bin/busybox
	[ -f "$busybox" ] || die "$busybox missing (make arm64-fetch)"
	tracecmd=$sysroot/usr/bin/trace-cmd
	[ -f "$tracecmd" ] || die "$tracecmd missing (make arm64-fetch)"
else
	kernel=${SP_KERNEL:-/boot/vmlinuz-$kver}
	[ -f "$kernel" ] || die "module is for $kver but $kernel is missing (apt-get install linux-image-amd64)"
	qemu=qemu-system-x86_64
	busybox=$(command -v busybox || true)
	[ -n "$busybox" ] || die "busybox missing (apt-get install busybox-static)"
	tracecmd=$(command -v trace-cmd || true)
	[ -n "$tracecmd" ] || die "trace-cmd missing"
fi
command -v $qemu >/dev/null || die "$qemu missing"

root=$out/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc,lib,lib64,usr/bin,sp}
cp "$busybox" "$root/bin/busybox"
# The applet list from the host's busybox when the guest's cannot run here.
applets=$("$busybox" --list 2>/dev/null || busybox --list)
for a in $applets; do
	[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
done

# trace-cmd and the shared libraries it needs, at the same paths.
copy_with_libs() {
	local bin=$1 dst=$2 lib
	cp "$bin" "$root/$dst"
	for lib in $(ldd "$bin" | awk '/=>/ {print $3} /^\t\// {print $1}'); do
		[ -f "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
if [ "$arch" = arm64 ]; then
	# ldd cannot read arm64 binaries here: the extracted packages' libraries
	# (libc, libtracefs, libtraceevent and its plugins, libzstd, libjson-c,
	# libgcc_s) all go in, at their paths, without gconv.
	cp -a "$sysroot/lib" "$root/" && rm -rf "$root/lib/modules"
	mkdir -p "$root/usr/lib"
	cp -a "$sysroot/usr/lib/aarch64-linux-gnu" "$root/usr/lib/"
	rm -rf "$root/usr/lib/aarch64-linux-gnu/gconv"
	cp "$tracecmd" "$root/usr/bin/trace-cmd"
	[ -f "$sysroot/usr/bin/rt-app" ] && cp "$sysroot/usr/bin/rt-app" "$root/usr/bin/rt-app"
else
copy_with_libs "$tracecmd" usr/bin/trace-cmd
# sp-report (make sp-report), for selftests/test_report.sh.
report=$top/build/tools/sp-report/sp-report
[ -x "$report" ] && copy_with_libs "$report" usr/bin/sp-report
# rt-app's pthread_exit dlopens libgcc_s.so.1.
for b in $(command -v rt-app) ${SP_VM_BINS:-}; do copy_with_libs "$b" "${b#/}"; done
for l in libgcc_s.so.1 ${SP_VM_DLOPEN:-}; do
	p=$(ldconfig -p | awk -v l="$l" '$1 == l && /x86-64/ && !found { print $NF; found = 1 }')
	[ -n "$p" ] || continue
	mkdir -p "$root$(dirname "$p")"
	cp -L "$p" "$root$p"
done
fi

cp "$ko" "$root/sp/sched_power.ko"
# The test cpufreq driver (make testfreq, make arm64-testfreq), only when it
# was built for this kernel: selftests/testfreq_lib.sh loads it.
tfko=${SP_TESTFREQ_KO:-$top/build/testfreq/sp_testfreq.ko}
[ "$arch" = arm64 ] && tfko=${SP_TESTFREQ_KO:-$a64/testfreq/sp_testfreq.ko}
if [ -f "$tfko" ] && [ "$(modinfo -F vermagic "$tfko" | awk '{print $1}')" = "$kver" ]; then
	cp "$tfko" "$root/sp/sp_testfreq.ko"
fi
# The x86 guest's test cpuidle driver (make testfreq), likewise; guest-run.sh
# loads it at boot when SP_TESTIDLE=1 is passed in (SP_VM_ENV).
tiko=${SP_TESTIDLE_KO:-$top/build/testfreq/sp_testidle.ko}
if [ "$arch" != arm64 ] && [ -f "$tiko" ] &&
	[ "$(modinfo -F vermagic "$tiko" | awk '{print $1}')" = "$kver" ]; then
	cp "$tiko" "$root/sp/sp_testidle.ko"
fi
cp "$top"/selftests/*.sh "$root/sp/"
[ -d "$top/models" ] && cp -r "$top/models" "$root/sp/models"
[ -f "$top/tools/bench/vm-bench.sh" ] && cp "$top/tools/bench/vm-bench.sh" "$root/sp/"
[ -f "$top/tools/overhead/ovh-run.sh" ] && cp "$top/tools/overhead/ovh-run.sh" "$root/sp/"
[ -n "$script" ] && cp "$script" "$root/sp/script.sh"
cp -r "$top/tools/sim/stories" "$root/sp/stories"
mkdir -p "$root/sp/pb"
cp "$top"/tools/power-bench/*.sh "$top"/tools/power-bench/*.awk "$top"/tools/power-bench/*.json "$root/sp/pb/" 2>/dev/null || true
mkdir -p "$root/sp/files"
for f in ${SP_VM_FILES:-}; do cp "$f" "$root/sp/files/"; done
for v in ${SP_VM_ENV:-}; do printf 'export %s=%q\n' "$v" "${!v:-}"; done >"$root/sp/job.env"
for b in "$guest_bin"/*; do [ -f "$b" ] && cp "$b" "$root/sp/"; done

cat > "$root/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
job=$(sed -n 's/.*sp_job=\([a-z]*\).*/\1/p' /proc/cmdline)
export SP_ONLY=$(sed -n 's/.*sp_only=\([a-z_,]*\).*/\1/p' /proc/cmdline)
cd /sp
echo SP-BEGIN
sh ./guest-run.sh "$job" 2>&1
echo "SP-END rc=$?"
poweroff -f
INIT
chmod +x "$root/init"

img=$out/initramfs-$job.cpio.gz
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$img"

log=$out/$job.log
# SP_VM_MONITOR=PATH: a qemu monitor socket there (debugging hangs: info registers -a)
# SP_VM_TCG=single|multi: one host thread runs every vCPU, or one each.
# Default single: under multi-threaded TCG a vCPU can keep executing a
# stale int3 at a site the kernel has patched (the module's ftrace site, a
# tracepoint's static key), so text patching while wake-ups run livelocks
# the guest (Documentation/hook.rst); the test suite patches text at every
# insmod, rmmod and trace-cmd record.  Multi only for the jobs that time
# vCPUs running in parallel (bench, powerbench, overhead), which keep what
# they measured before a freeze.
case "$job" in
bench | powerbench | overhead) tcg=${SP_VM_TCG:-multi} ;;
*) tcg=${SP_VM_TCG:-single} ;;
esac
# SP_VM_ICOUNT="shift=0,sleep=off": qemu -icount, the guest's clocks follow
# executed instructions (1 ns each at shift=0); needs single-threaded TCG.
# With more than one vCPU, qemu 7.2 hangs at "Booting SMP configuration"
# (Documentation/overhead.rst): usable with SP_VM_SMP=1 only.
icount=()
if [ -n "${SP_VM_ICOUNT:-}" ]; then
	icount=(-icount "$SP_VM_ICOUNT")
	tcg=single
fi
# SP_VM_PLUGIN="lib.so,arg=..": a qemu TCG plugin (tools/overhead), single-threaded TCG.
if [ -n "${SP_VM_PLUGIN:-}" ]; then
	icount+=(-plugin "$SP_VM_PLUGIN")
	tcg=${SP_VM_TCG:-single}
fi
monitor=none
[ -n "${SP_VM_MONITOR:-}" ] && monitor=unix:$SP_VM_MONITOR,server,nowait
if [ "$arch" = arm64 ]; then
	machine=(-M virt -cpu cortex-a57 -smp "$smp" -m 1024)
	if [ "${SP_BOARD:-biglittle}" = biglittle ]; then
		dtb=$out/biglittle.dtb
		"$top/scripts/arm64-biglittle-dtb.sh" "$dtb" "$nbig" "$nlittle" \
			"${SP_LITTLE_DMIPS:-410}" "${machine[@]}" || die "big.LITTLE DTB failed"
		machine+=(-dtb "$dtb")
	fi
	console=ttyAMA0
else
	machine=(-cpu "${SP_VM_CPU:-max}" -smp "$smp" -m 512)
	console=ttyS0
fi
echo "vm-run: booting $kernel ($kver) -smp $smp, tcg $tcg${SP_VM_ICOUNT:+, icount $SP_VM_ICOUNT}, job=$job, log $log" >&2
start=$(date +%s)
set +e
timeout "$timeout_s" $qemu -accel "tcg,thread=$tcg" "${icount[@]}" "${machine[@]}" \
	-kernel "$kernel" -initrd "$img" \
	-append "console=$console panic=-1 ${SP_VM_CMDLINE:-quiet loglevel=3} sp_job=$job${only:+ sp_only=$only}" \
	-display none -no-reboot -monitor "$monitor" -serial stdio </dev/null >"$log" 2>&1 &
qpid=$!
# A hung guest fails fast: after a soft lockup, an RCU stall or a panic
# on the console, 10 s more for the backtraces, then qemu is stopped.
hang='soft lockup|rcu_sched self-detected stall|rcu: INFO: rcu_sched detected stalls|Kernel panic'
while kill -0 "$qpid" 2>/dev/null; do
	if grep -Eq "$hang" "$log" 2>/dev/null; then
		sleep 10
		echo "vm-run: guest hung: $(grep -Em1 "$hang" "$log" | tr -d '\r')" >&2
		kill "$qpid" 2>/dev/null
		break
	fi
	sleep 2
done
wait "$qpid"
qrc=$?
set -e
echo "vm-run: qemu exited $qrc after $(( $(date +%s) - start )) s" >&2
if [ "$qrc" -eq 124 ]; then
	echo "vm-run: guest timed out after $timeout_s s in $(tr -d '\r' <"$log" | grep '^# ---- ' | tail -n 1 | cut -c6-)" >&2
	echo "vm-run: last console lines:" >&2
	tr -d '\r' <"$log" | tail -n 15 | sed 's/^/vm-run:   /' >&2
fi

tr -d '\r' <"$log" | sed -n '/^SP-BEGIN$/,/^SP-END/p' | sed '1d'
grep -q '^SP-END rc=0' <(tr -d '\r' <"$log") || die "job $job did not finish cleanly (see $log)"
