# SPDX-License-Identifier: GPL-2.0
# tools/lib: code more than one tool links.  The bootstrap intervals of
# make vm-overhead and power-bench: sources, compiled into each tool.
BOOT_CI_SRCS := tools/lib/boot_ci.c
BOOT_CI_HDRS := tools/lib/boot_ci.h

# The callgrind run the host benchmarks (bench_place, bench_idle,
# bench_gate) count their instructions with: callgrind_instr().
CALLGRIND_OBJ := $(BUILD)/tools/lib/callgrind.o

$(CALLGRIND_OBJ): tools/lib/callgrind.c tools/lib/callgrind.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@
