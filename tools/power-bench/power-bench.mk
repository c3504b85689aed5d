# SPDX-License-Identifier: GPL-2.0
# power-bench: stories under real rt-app on a real kernel
# (Documentation/power-bench.rst).
#
#   make vm-power-bench   every story x {not loaded, observe, power, balanced,
#                         cfs and power_freq under the test cpufreq driver}
#                         x PB_REPS in the VM; table, build/power-bench/results.csv
#   make arm64-power-bench  the same on the big.LITTLE arm64 board: eas,
#                         eas_observe, cfs, observe_freq, power_freq,
#                         balanced_freq; build/power-bench-arm64/results.csv
#   make power-bench      the same on this machine's kernel (a board: root, the
#                         module built for `uname -r`), else in the VM
#   make pb-yardstick     the guest settings (TCG mode, vCPUs) side by side on the
#                         yardstick story, interleaved; the intervals' widths
#                         (tools/power-bench/pb-yardstick.sh, about 20 min)
PB_REPS ?= 8
PB_STORIES ?= $(sort $(wildcard tools/sim/stories/*.json))
PB_STORY_SRCS := tools/power-bench/pb_story.c tools/power-bench/rtapp_story.c tools/sim/story.c
JSONC_STATIC ?= $(firstword $(wildcard /usr/lib/*/libjson-c.a /usr/lib/libjson-c.a) -ljson-c)

# Static, like sp_load: the guest has no libjson-c.
$(BUILD)/guest/pb-story: $(PB_STORY_SRCS) tools/power-bench/rtapp_story.h $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/sim -Itools/power-bench $(JSONC_CFLAGS) -static \
		$(PB_STORY_SRCS) $(JSONC_STATIC) -o $@

GUEST_TOOLS += $(BUILD)/guest/pb-story

# The host's report: medians, ratios with bootstrap intervals (tools/lib).
PB_STATS := $(BUILD)/tools/power-bench/pb-stats
$(PB_STATS): tools/power-bench/pb_stats.c $(BOOT_CI_SRCS) $(BOOT_CI_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/lib tools/power-bench/pb_stats.c $(BOOT_CI_SRCS) -lm -o $@

.PHONY: vm-power-bench power-bench arm64-power-bench
vm-power-bench: module guest-tools $(PB_STATS) $(REPORT)
	PB_REPS=$(PB_REPS) tools/power-bench/power-bench --vm $(PB_ARGS) $(PB_STORIES)

arm64-power-bench: arm64 arm64-guest-tools arm64-testfreq $(PB_STATS) $(REPORT)
	SP_ARCH=arm64 PB_REPS=$(PB_REPS) tools/power-bench/power-bench --vm $(PB_ARGS) $(PB_STORIES)

power-bench: module guest-tools $(PB_STATS) $(REPORT)
	PB_REPS=$(PB_REPS) tools/power-bench/power-bench $(PB_ARGS) $(PB_STORIES)

.PHONY: pb-yardstick
PB_YARD_ARGS ?=
pb-yardstick: module guest-tools $(PB_STATS) $(REPORT)
	tools/power-bench/pb-yardstick.sh $(PB_YARD_ARGS) tools/power-bench/yardstick-pair.json
