# SPDX-License-Identifier: GPL-2.0
# The simulator (tools/sim/libspsim.a): hand-computed runs, cfs and the
# balancer by hand, the gate, the bound by hand, bound <= oracle <=
# oracle-lat <= every policy within its bounds, oracle-lat <= oracle-lat-su.
HOST_TESTS += $(BUILD)/tests/test_sim
SIM_TEST_JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
SIM_TEST_JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
$(BUILD)/tests/test_sim: $(BUILD)/tools/sim/libspsim.a $(BUILD)/tools/lib/model_file.o \
	$(wildcard tools/sim/*.h tools/lib/*.h)
$(BUILD)/tests/test_sim: HOST_CFLAGS += -Itools/sim -Itools/lib $(SIM_TEST_JSONC_CFLAGS)
$(BUILD)/tests/test_sim: TEST_LDLIBS := $(BUILD)/tools/sim/libspsim.a \
	$(BUILD)/tools/lib/model_file.o $(BUILD)/libspcore.a $(SIM_TEST_JSONC_LIBS) -lcmocka
