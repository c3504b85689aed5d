# SPDX-License-Identifier: GPL-2.0
# make idle-accuracy: one run on the arm64 big.LITTLE board (PSCI idle
# states, menu governor) of tools/idle-accuracy/ia-guest.sh, sched_power's
# early/hit/late verdicts next to the kernel's above/below counters; the
# guest's output is kept in Documentation/data/idle-accuracy-arm64.txt and
# the tables that Documentation/idle-accuracy.rst includes are written to
# Documentation/data/idle-accuracy-arm64.rst (make idle-accuracy-table
# rewrites them from the saved output, no VM).  IA_SECONDS: load length.

IA_RAW := Documentation/data/idle-accuracy-arm64.txt
IA_RST := Documentation/data/idle-accuracy-arm64.rst
IA_SECONDS ?= 10

.PHONY: idle-accuracy idle-accuracy-table

idle-accuracy: arm64 arm64-guest-tools
	@mkdir -p $(BUILD)
	SP_ARCH=arm64 IA_SECONDS=$(IA_SECONDS) SP_VM_ENV="IA_SECONDS" \
		./selftests/vm-run.sh --script tools/idle-accuracy/ia-guest.sh >$(BUILD)/idle-accuracy.txt
	cp $(BUILD)/idle-accuracy.txt $(IA_RAW)
	./tools/idle-accuracy/ia-table.sh $(IA_RAW) >$(IA_RST)

idle-accuracy-table:
	./tools/idle-accuracy/ia-table.sh $(IA_RAW) >$(IA_RST)
