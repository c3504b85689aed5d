# SPDX-License-Identifier: GPL-2.0
# The placement core's decisions against the committed digest
# (tools/bench/place-digest.txt; make place-digest): place_equiv --digest
# runs on every model in models/; and the digest's own rules by hand.
# (tools/bench/bench.mk, which builds both, is read after this file.)
HOST_TESTS += $(BUILD)/tests/test_digest
$(BUILD)/tests/test_digest: $(BUILD)/tools/bench/place_digest.o $(BUILD)/tools/bench/place_equiv tools/bench/place_digest.h
$(BUILD)/tests/test_digest: HOST_CFLAGS += -Itools/bench -DPD_TOP='"$(CURDIR)"' \
	-DPD_TOOL='"$(abspath $(BUILD))/tools/bench/place_equiv"'
$(BUILD)/tests/test_digest: TEST_LDLIBS := $(BUILD)/tools/bench/place_digest.o $(BUILD)/libspcore.a -lcmocka
