# SPDX-License-Identifier: GPL-2.0
# make stack-chain's parser (scripts/stack-chain.py) on hand-written
# -fcallgraph-info graphs (tests/data/stack-chain/).
HOST_TESTS += $(BUILD)/tests/test_stack_chain
$(BUILD)/tests/test_stack_chain: scripts/stack-chain.py $(wildcard tests/data/stack-chain/*.ci)
$(BUILD)/tests/test_stack_chain: HOST_CFLAGS += -DSC_TOP='"$(CURDIR)"'
