# SPDX-License-Identifier: GPL-2.0
# Energy model and estimate: parser/formatter tests, hand-computed estimates.
HOST_TESTS += $(BUILD)/tests/test_model $(BUILD)/tests/test_energy
