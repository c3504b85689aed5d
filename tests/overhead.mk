# SPDX-License-Identifier: GPL-2.0
# vm-overhead's statistics: median, bootstrap interval, "cannot tell" rule.
HOST_TESTS += $(BUILD)/tests/test_overhead
$(BUILD)/tests/test_overhead: tools/overhead/ovh_stats_lib.c tools/overhead/ovh_stats.h
$(BUILD)/tests/test_overhead: HOST_CFLAGS += -Itools/overhead
$(BUILD)/tests/test_overhead: TEST_LDLIBS := tools/overhead/ovh_stats_lib.c -lcmocka
