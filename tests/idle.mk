# SPDX-License-Identifier: GPL-2.0
# Idle accounting: verdicts, residency and energy from synthetic events.
HOST_TESTS += $(BUILD)/tests/test_idle
$(BUILD)/tests/test_idle: TEST_LDLIBS += -lpthread
