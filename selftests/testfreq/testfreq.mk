# SPDX-License-Identifier: GPL-2.0
# The test guests' drivers (Documentation/testfreq.rst): sp_testfreq.ko,
# cpufreq and the Energy Model, and on x86 sp_testidle.ko, cpuidle states;
# built in a copy under build/ so that the x86 and arm64 objects never meet
# (included by the Makefile):
#
#   make testfreq        build/testfreq/sp_testfreq.ko and sp_testidle.ko
#                        against KDIR
#   make arm64-testfreq  build/arm64/testfreq/sp_testfreq.ko against ARM64_KDIR
#   make testfreq-lint   sparse (C=1) and W=1 on them (part of make lint)
#
# They are test-only: vm-run.sh copies each into the guest when its vermagic
# is the guest kernel's; nothing installs them.

TESTFREQ_SRC := selftests/testfreq/Kbuild selftests/testfreq/sp_testfreq.c \
	selftests/testfreq/sp_testidle.c
TESTFREQ_X86 := $(CURDIR)/$(BUILD)/testfreq
TESTFREQ_A64 := $(CURDIR)/$(BUILD)/arm64/testfreq

.PHONY: testfreq arm64-testfreq testfreq-lint

testfreq: $(TESTFREQ_SRC)
	@mkdir -p $(TESTFREQ_X86)
	cp -p $(TESTFREQ_SRC) $(TESTFREQ_X86)/
	$(MAKE) -C $(KDIR) M=$(TESTFREQ_X86) modules

arm64-testfreq: $(TESTFREQ_SRC) $(ARM64_DIR)/.fetched
	@mkdir -p $(TESTFREQ_A64)
	cp -p $(TESTFREQ_SRC) $(TESTFREQ_A64)/
	$(MAKE) -C $(ARM64_KDIR) M=$(TESTFREQ_A64) ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- modules

testfreq-lint: $(TESTFREQ_SRC)
	@mkdir -p $(TESTFREQ_X86)
	cp $(TESTFREQ_SRC) $(TESTFREQ_X86)/
	$(MAKE) -C $(KDIR) M=$(TESTFREQ_X86) C=1 W=1 modules >$(BUILD)/testfreq-lint.log 2>&1
	@if grep -E 'warning|error' $(BUILD)/testfreq-lint.log; then exit 1; fi
	@echo "testfreq-lint: sparse (C=1) and W=1 clean"
