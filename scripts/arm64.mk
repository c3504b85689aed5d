# SPDX-License-Identifier: GPL-2.0
# arm64: the module cross-built against Debian's arm64 headers, and the VM
# selftests on a big.LITTLE qemu virt board (included by the Makefile).
#
#   make arm64-fetch  download + extract the arm64 headers, kernel image,
#                     busybox, trace-cmd, rt-app into build/arm64/sysroot
#   make arm64        the module, built in build/arm64/mod (a copy of the
#                     sources, so x86 objects in the tree are not touched)
#   make arm64-tests  the arm64 VM subset (selftests/vm-run.sh, SP_ARCH=arm64)
#
# ARM64_ABI defaults to the ABI of the installed x86 headers (KDIR), whose
# kbuild scripts the arm64 headers use.

ARM64_DIR := $(CURDIR)/$(BUILD)/arm64
ARM64_ABI ?= $(patsubst %-amd64,%,$(notdir $(patsubst %/build,%,$(KDIR))))
ARM64_KDIR ?= $(ARM64_DIR)/sysroot/usr/src/linux-headers-$(ARM64_ABI)-arm64
ARM64_MOD := $(ARM64_DIR)/mod
ARM64_CC := aarch64-linux-gnu-gcc
ARM64_GUEST := $(patsubst selftests/%.c,$(BUILD)/arm64/guest/%,$(wildcard selftests/sp_*.c))
# power-bench's story converter, static against the fetched libjson-c.a.
ARM64_GUEST += $(BUILD)/arm64/guest/pb-story
# The arm64 VM subset run by make check (SP_ARM64_TESTS to change it).
SP_ARM64_TESTS ?= basic asym freq balance

.PHONY: arm64 arm64-fetch arm64-tests arm64-guest-tools

$(ARM64_DIR)/.fetched: scripts/arm64-fetch.sh
	./scripts/arm64-fetch.sh $(ARM64_DIR) $(ARM64_ABI)
	touch $@

arm64-fetch: $(ARM64_DIR)/.fetched

arm64: $(ARM64_DIR)/.fetched
	@mkdir -p $(ARM64_MOD)/core $(ARM64_MOD)/uapi
	@# sources renamed or removed since the last copy must not be built
	rm -f $(ARM64_MOD)/*.[ch] $(ARM64_MOD)/core/*.[ch] $(ARM64_MOD)/uapi/*.h
	cp -p Kbuild $(filter-out %.mod.c,$(wildcard *.c *.h)) $(ARM64_MOD)/
	cp -p $(wildcard core/*.c core/*.h) $(ARM64_MOD)/core/
	cp -p $(wildcard uapi/*.h) $(ARM64_MOD)/uapi/
	$(MAKE) -C $(ARM64_KDIR) M=$(ARM64_MOD) ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- modules

$(BUILD)/arm64/guest/%: selftests/%.c
	@mkdir -p $(dir $@)
	$(ARM64_CC) -O2 -Wall -Wextra -Werror -static $< -o $@

$(BUILD)/arm64/guest/pb-story: $(PB_STORY_SRCS) tools/power-bench/rtapp_story.h $(SIM_HDRS) \
		$(ARM64_DIR)/.fetched
	@mkdir -p $(dir $@)
	$(ARM64_CC) $(HOST_CFLAGS) -Itools/sim -Itools/power-bench \
		-I$(ARM64_DIR)/sysroot/usr/include/json-c -static $(PB_STORY_SRCS) \
		$(ARM64_DIR)/sysroot/usr/lib/aarch64-linux-gnu/libjson-c.a -o $@

arm64-guest-tools: $(ARM64_GUEST)

# test_freq loads the test cpufreq driver (schedutil, EAS, the OPP floor;
# Documentation/testfreq.rst) and unloads it; SP_ARM64_TESTFREQ=1 loads it
# before sched_power for the whole run instead.
SP_ARM64_TESTFREQ ?= 0
arm64-tests: arm64 arm64-guest-tools arm64-testfreq
	SP_ARCH=arm64 SP_TESTS="$(SP_ARM64_TESTS)" SP_TESTFREQ=$(SP_ARM64_TESTFREQ) \
		SP_VM_ENV="SP_TESTFREQ $(SP_VM_ENV)" ./selftests/vm-run.sh --tests
