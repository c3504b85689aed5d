# SPDX-License-Identifier: GPL-2.0
# power-bench's host side: the story -> rt-app 1.0 conversion and nominal
# length (hand cases), and the metrics of pb-trace.awk and pb-report.awk on
# hand-made traces and runs, under the host's awk and busybox awk.
HOST_TESTS += $(BUILD)/tests/test_power_bench
PB_TEST_JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
PB_TEST_JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

$(BUILD)/tools/power-bench/rtapp_story.o: tools/power-bench/rtapp_story.c tools/power-bench/rtapp_story.h $(wildcard tools/sim/*.h core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/sim $(PB_TEST_JSONC_CFLAGS) -c $< -o $@

$(BUILD)/tests/test_power_bench: $(BUILD)/tools/power-bench/rtapp_story.o $(BUILD)/tools/sim/libspsim.a \
	tools/power-bench/pb-trace.awk tools/power-bench/pb-report.awk
$(BUILD)/tests/test_power_bench: HOST_CFLAGS += -Itools/sim -Itools/power-bench \
	$(PB_TEST_JSONC_CFLAGS) -DPB_TOP='"$(CURDIR)"'
$(BUILD)/tests/test_power_bench: TEST_LDLIBS := $(BUILD)/tools/power-bench/rtapp_story.o \
	$(BUILD)/tools/sim/libspsim.a $(BUILD)/libspcore.a $(PB_TEST_JSONC_LIBS) -lcmocka
