# SPDX-License-Identifier: GPL-2.0
# The load-balancer gate's predicate (core/sp_gate.c).
HOST_TESTS += $(BUILD)/tests/test_gate
