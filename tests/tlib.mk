# SPDX-License-Identifier: GPL-2.0
# tools/lib: the benchmarks' callgrind run against a stand-in valgrind, and
# the model loader's message.  (model_file.mk is read after this file.)
HOST_TESTS += $(BUILD)/tests/test_tlib
$(BUILD)/tests/test_tlib: $(CALLGRIND_OBJ) $(BUILD)/tools/lib/model_file.o $(wildcard tools/lib/*.h)
$(BUILD)/tests/test_tlib: HOST_CFLAGS += -Itools/lib
$(BUILD)/tests/test_tlib: TEST_LDLIBS := $(CALLGRIND_OBJ) $(BUILD)/tools/lib/model_file.o $(BUILD)/libspcore.a -lcmocka
