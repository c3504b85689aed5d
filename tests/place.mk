# SPDX-License-Identifier: GPL-2.0
# Placement: hand-computed sp_place() decisions on the 2-package and the
# big.LITTLE boards, modes, guards and out-of-range inputs.
HOST_TESTS += $(BUILD)/tests/test_place
$(BUILD)/tests/test_place: tools/lib/xorshift.h
$(BUILD)/tests/test_place: HOST_CFLAGS += -Itools/lib
