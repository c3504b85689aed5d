# SPDX-License-Identifier: GPL-2.0
# The snapshot: PELT-like decay, idle/awake group counters.
HOST_TESTS += $(BUILD)/tests/test_state
$(BUILD)/tests/test_state: TEST_LDLIBS += -lm
