# SPDX-License-Identifier: GPL-2.0
#
# sched_power: out-of-tree module, host tests of the pure core, tools.
#
#   make              build sched_power.ko against KDIR
#   make host-tests   build and run the host unit tests (cmocka)
#   make vm-tests     boot the Debian kernel in qemu and run selftests/
#   make check        both, ending with "N passed, N failed"
#   make demo         boot the VM, load the module, print a decision trace
#   make stress       VM: 100 load/unload cycles, 50 hotplugs, writers, under load
#   make lint         checkpatch --strict, sparse (C=1) and W=1 on the module
#   make circles      no two files of the module, core, simulator or sp-report call each other
#   make newer-headers  build against the newest headers Debian 12 has (6.12)
#   make check-6.12   the x86 VM suite booted on that kernel (.ci/run runs it)
#   make htmldocs     Documentation/ rendered by Sphinx with the kernel-doc comments
#   make bench        host micro-benchmark of one decision (ns, instructions)
#   make bench-parts  one decision's instructions per part, from callgrind's call graph
#   make bench-gate   host micro-benchmark of the balancer gate (instructions)
#   make bench-idle-kobj  the idle events' benchmark on the module's own core/sp_acct.o
#   make bench-place-kobj  make bench's decisions on the module's own core/sp_place.o
#   make acct-equiv   the idle accounting against main's, event by event (tools/bench/acct_equiv.c)
#   make stack-chain  the deepest stack chain of each hot-path entry point, from
#                     gcc -fcallgraph-info=su (scripts/stack-chain.sh, Documentation/overhead.rst)
#   make vm-bench     VM: wake-up overhead ratio, modelled energy ratio
#   make vm-power-bench  VM: every story under real rt-app, 4 configurations
#                     (tools/power-bench/power-bench.mk, Documentation/power-bench.rst)
#   make vm-overhead  VM: perf bench sched pipe/messaging per configuration, bootstrap
#                     intervals, instruction counts (Documentation/overhead.rst)
#   make vm-gate-measure, vm-gate-nohz, vm-gate-cost  VM: the load-balancer gate
#                     (tools/gate/gate.mk, Documentation/placement.rst)
#   make sim          simulator: stories x policies (tools/sim/sim.mk)
#   make results      regenerate Documentation/results.md
#   make debug-kernel build (once, cached) a 6.1 guest kernel with lockdep, KASAN, kmemleak
#   make check-debug  VM selftests, stress and a kmemleak scan on that kernel
#   make clean
#
# KDIR defaults to the installed Debian headers (linux-headers-amd64: scripts/kdir.sh), not to
# `uname -r`: the machine you build on is often not the kernel you test.

KDIR ?= $(shell $(CURDIR)/scripts/kdir.sh)
PWD := $(CURDIR)

HOST_CC ?= gcc
HOST_CFLAGS ?= -O2 -g -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter
HOST_CFLAGS += -Icore
BUILD := build
CORE_SRCS := $(sort $(wildcard core/sp_*.c))
CORE_HOST_OBJS := $(patsubst core/%.c,$(BUILD)/core/%.o,$(CORE_SRCS))

# Fragments append to HOST_TESTS (test binaries run by tests/run-host.sh).
HOST_TESTS :=

.PHONY: all module clean host-tests vm-tests check demo guest-tools vm-bench stress install dkms-src dkms-install \
	debug-kernel check-debug checkpatch lint newer-headers check-6.12 htmldocs stack-chain

all: module

module:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

$(BUILD)/core/%.o: core/%.c $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/libspcore.a: $(CORE_HOST_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

-include tools/lib/lib.mk
-include tests/tests.mk
-include fuzz/fuzz.mk
-include tools/lib/model_file.mk
-include tools/sim/sim.mk
-include tools/bench/bench.mk
-include tools/sp-report/sp-report.mk

# Static workload binary for the busybox guest (copied from build/guest/).
GUEST_TOOLS := $(patsubst selftests/%.c,$(BUILD)/guest/%,$(wildcard selftests/sp_*.c))
-include tools/sp-latency/sp-latency.mk
-include tools/power-bench/power-bench.mk
-include tools/overhead/overhead.mk
-include tools/gate/gate.mk
-include scripts/arm64.mk
-include selftests/testfreq/testfreq.mk
-include tools/idle-accuracy/idle-accuracy.mk
$(BUILD)/guest/%: selftests/%.c selftests/sp_clock.h
	@mkdir -p $(dir $@)
	$(HOST_CC) -O2 -Wall -Wextra -Werror -static $< -o $@

guest-tools: $(GUEST_TOOLS) $(REPORT) $(SP_LATENCY) testfreq

host-tests: $(HOST_TESTS)
	./tests/run-host.sh $(HOST_TESTS)

vm-tests: module guest-tools
	./selftests/vm-run.sh --tests

demo: module guest-tools
	./selftests/vm-run.sh --demo

# 100 load/unload cycles and 50 hotplugs under load (selftests/test_stress.sh).
stress: module guest-tools
	./selftests/vm-run.sh --stress

# Wake-up overhead and modelled energy in the VM (tools/bench/vm-bench.sh).
vm-bench: module guest-tools
	./selftests/vm-run.sh --bench

# What check runs, built (.ci/run builds it with -j2 before make check).
.PHONY: check-build
check-build: module guest-tools $(HOST_TESTS)

check: check-build
	./tests/check.sh $(HOST_TESTS)

# Style: checkpatch --strict (scripts/checkpatch.sh lists the ignored types
# and why); lint adds sparse and W=1 on a forced rebuild of the module, with
# no stack frame above 512 B (the hook's whole chain aims at that; no init
# path needs more: large buffers are allocated).
checkpatch:
	./scripts/checkpatch.sh

# No two source files of the module, the core, the simulator or sp-report
# use each other, directly or in a loop (scripts/check-circles.sh reads the
# objects' symbols; in make check).
.PHONY: circles
circles: module $(SIM) $(REPORT)
	./scripts/check-circles.sh

# Documentation/ with the kernel-doc comments extracted (scripts/htmldocs.sh).
htmldocs:
	./scripts/htmldocs.sh $(CURDIR)/$(BUILD)/htmldocs

# The module against the newest headers Debian 12 offers beyond 6.1 (6.12).
newer-headers:
	./scripts/newer-headers.sh $(CURDIR)/$(BUILD)/newer

# The stack of the hook and the probes: the module rebuilt with
# -fcallgraph-info=su in build/stack-chain/mod, each entry point's heaviest
# chain of frames against the 512 B aim (scripts/stack-chain.sh).
stack-chain:
	./scripts/stack-chain.sh $(CURDIR)/$(BUILD)/stack-chain

# The x86 VM suite on Debian 12's 6.12 image, the module built against its
# headers (scripts/check-newer.sh; not in check: it adds about 3 minutes).
check-6.12: guest-tools
	./scripts/check-newer.sh

lint: checkpatch testfreq-lint
	@mkdir -p $(BUILD)
	touch $(wildcard *.c core/*.c)
	$(MAKE) -C $(KDIR) M=$(PWD) C=1 W=1 KCFLAGS=-Wframe-larger-than=512 modules \
		>$(BUILD)/lint.log 2>&1
	@if grep -E 'warning|error' $(BUILD)/lint.log; then exit 1; fi
	@echo "lint: sparse (C=1) and W=1 clean"

# Not in check: the kernel takes a long time to build on 2 cores.
debug-kernel:
	./scripts/debug-kernel.sh

check-debug: guest-tools
	./scripts/check-debug.sh

# Install into /lib/modules/$(KVER)/extra (INSTALL_MOD_PATH= for a staging
# root), then `modprobe sched_power`.
install: module
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install
	depmod -a $(notdir $(patsubst %/build,%,$(KDIR)))

# DKMS: sources to /usr/src/sched_power-VERSION, then dkms add/build/install.
DKMS_VER := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC := /usr/src/sched_power-$(DKMS_VER)
dkms-src:
	rm -rf $(DKMS_SRC) && mkdir -p $(DKMS_SRC)/core
	cp Kbuild dkms.conf $(wildcard *.c *.h) $(DKMS_SRC)/
	cp -r uapi $(DKMS_SRC)/
	cp $(wildcard core/*.c core/*.h) $(DKMS_SRC)/core/

dkms-install: dkms-src
	dkms add -m sched_power -v $(DKMS_VER)
	dkms build -m sched_power -v $(DKMS_VER)
	dkms install -m sched_power -v $(DKMS_VER)

clean:
	-$(MAKE) -C $(KDIR) M=$(PWD) clean
	rm -rf $(BUILD)
