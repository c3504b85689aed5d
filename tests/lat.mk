# SPDX-License-Identifier: GPL-2.0
# Latency bounds (core/sp_lat.c): write parsing, floor, limits, per-CPU wish.
HOST_TESTS += $(BUILD)/tests/test_lat
