#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# debug-kernel.sh: build, once and cached outside the repository, a 6.1
# kernel for the qemu guest from Debian's linux-source-6.1 with the checkers
# the distribution kernel lacks: lockdep (PROVE_LOCKING, PROVE_RCU),
# DEBUG_ATOMIC_SLEEP, KASAN and KMEMLEAK.  It starts from tinyconfig and
# adds only what the guest and the module need, so that it builds on a
# 2-core machine.  cpufreq, schedutil and the Energy Model are in, so that
# the test driver (selftests/testfreq) builds and test_freq.sh's floor and
# hotplug cases run under KASAN and lockdep.  Prints the bzImage and the build tree.
#   DEBUG_KERNEL_DIR  cache (default ~/.cache/sched_power/debug-kernel)
set -euo pipefail
cache=${DEBUG_KERNEL_DIR:-${HOME:-/root}/.cache/sched_power/debug-kernel}
tar=/usr/src/linux-source-6.1.tar.xz
src=$cache/linux
img=$src/arch/x86/boot/bzImage
if [ -f "$img" ] && [ -f "$src/Module.symvers" ] && [ "$src/.config" -nt "$0" ]; then
	echo "debug-kernel: cached $img"
	echo "KDIR=$src"
	exit 0
fi
[ -f "$tar" ] || { echo "debug-kernel: $tar missing (apt-get install linux-source-6.1)" >&2; exit 1; }
mkdir -p "$cache"
if [ ! -d "$src" ]; then
	echo "debug-kernel: unpacking $tar" >&2
	tar -C "$cache" -xf "$tar"
	mv "$cache"/linux-source-6.1 "$src"
fi
cd "$src"
make -s tinyconfig >/dev/null
# tinyconfig is i386 with SLOB: 64-bit and SLUB first (KASAN needs both)
./scripts/config --enable 64BIT --disable SLOB --enable SLUB --disable UNWINDER_GUESS \
	--enable UNWINDER_ORC --disable KERNEL_XZ --enable KERNEL_GZIP
make -s olddefconfig
# what the guest (busybox, trace-cmd, the selftests) and the module need
on="64BIT SMP HOTPLUG_CPU X86_MPPARSE ACPI PCI PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE
    BLK_DEV_INITRD RD_GZIP PROC_FS SYSFS DEVTMPFS TMPFS SHMEM BINFMT_ELF BINFMT_SCRIPT
    FUTEX EPOLL SIGNALFD TIMERFD EVENTFD POSIX_TIMERS MULTIUSER FILE_LOCKING UNIX
    HIGH_RES_TIMERS NO_HZ_IDLE CPU_IDLE PM CPU_ISOLATION SCHED_MC ELF_CORE
    MODULES MODULE_UNLOAD KPROBES KRETPROBES FTRACE FUNCTION_TRACER DYNAMIC_FTRACE
    FTRACE_SYSCALLS DEBUG_FS TRACING KALLSYMS KALLSYMS_ALL PERF_EVENTS
    DEBUG_KERNEL PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP DEBUG_PREEMPT
    KASAN KASAN_INLINE DEBUG_KMEMLEAK DEBUG_KMEMLEAK_AUTO_SCAN SLUB STACKTRACE
    DEBUG_LIST BUG WARN_ALL_UNSEEDED_RANDOM
    CPU_FREQ CPU_FREQ_STAT CPU_FREQ_GOV_SCHEDUTIL CPU_FREQ_DEFAULT_GOV_SCHEDUTIL ENERGY_MODEL
    NAMESPACES USER_NS"
for o in $on; do ./scripts/config --enable "$o"; done
./scripts/config --set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 16000
# schedutil as the default governor, as Debian's kernel has it (test_freq.sh)
./scripts/config --disable CPU_FREQ_DEFAULT_GOV_PERFORMANCE
./scripts/config --disable MODULE_SIG --disable RANDOMIZE_BASE --disable DEBUG_INFO_BTF
make -s olddefconfig
make -s olddefconfig	# options whose dependencies the first pass enabled
for o in PROVE_LOCKING KASAN DEBUG_KMEMLEAK DEBUG_ATOMIC_SLEEP KPROBES DYNAMIC_FTRACE \
	CPU_FREQ_DEFAULT_GOV_SCHEDUTIL ENERGY_MODEL; do
	grep -q "^CONFIG_$o=y" .config || { echo "debug-kernel: CONFIG_$o did not stick" >&2; exit 1; }
done
start=$(date +%s)
# bzImage links vmlinux, whose modpost pass writes Module.symvers
nice make -s -j"$(nproc)" bzImage modules >"$cache/build.log" 2>&1 ||
	{ tail -n 30 "$cache/build.log" >&2; exit 1; }
echo "debug-kernel: built in $(( $(date +%s) - start )) s: $img" >&2
echo "KDIR=$src"
