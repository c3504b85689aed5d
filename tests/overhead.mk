# SPDX-License-Identifier: GPL-2.0
# The tools' statistics (tools/lib/boot_ci.c) and vm-overhead's "cannot tell" rule.
HOST_TESTS += $(BUILD)/tests/test_overhead
$(BUILD)/tests/test_overhead: tools/overhead/ovh_stats_lib.c tools/overhead/ovh_stats.h \
	$(BOOT_CI_SRCS) $(BOOT_CI_HDRS)
$(BUILD)/tests/test_overhead: HOST_CFLAGS += -Itools/overhead -Itools/lib
$(BUILD)/tests/test_overhead: TEST_LDLIBS := tools/overhead/ovh_stats_lib.c $(BOOT_CI_SRCS) -lcmocka -lm
