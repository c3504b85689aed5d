# SPDX-License-Identifier: GPL-2.0
# power-bench's host side: the story -> rt-app 1.0 conversion and nominal
# length (hand cases), the meters on fake sysfs trees under the host's sh and
# busybox sh, and pb-stats, pb-queued.sh and power-bench --report on hand-made
# runs.
HOST_TESTS += $(BUILD)/tests/test_power_bench
PB_TEST_JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
PB_TEST_JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

$(BUILD)/tools/power-bench/rtapp_story.o: tools/power-bench/rtapp_story.c tools/power-bench/rtapp_story.h $(wildcard tools/sim/*.h core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/sim $(PB_TEST_JSONC_CFLAGS) -c $< -o $@

$(BUILD)/tests/test_power_bench: $(BUILD)/tools/power-bench/rtapp_story.o $(BUILD)/tools/sim/libspsim.a \
	tools/power-bench/pb-meter.sh tools/power-bench/pb-cal.sh tools/power-bench/pb-queued.sh $(BUILD)/tools/power-bench/pb-stats \
	tools/power-bench/power-bench $(BUILD)/tools/sp-report/sp-report
$(BUILD)/tests/test_power_bench: HOST_CFLAGS += -Itools/sim -Itools/power-bench \
	$(PB_TEST_JSONC_CFLAGS) -DPB_TOP='"$(CURDIR)"'
$(BUILD)/tests/test_power_bench: TEST_LDLIBS := $(BUILD)/tools/power-bench/rtapp_story.o \
	$(BUILD)/tools/sim/libspsim.a $(BUILD)/libspcore.a $(PB_TEST_JSONC_LIBS) -lcmocka
