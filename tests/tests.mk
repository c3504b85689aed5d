# SPDX-License-Identifier: GPL-2.0
# Host unit tests: every tests/<area>.mk appends its cmocka binaries to
# HOST_TESTS.  Build rule shared by all: tests/test_X.c -> build/tests/test_X.
TEST_LDLIBS := -lcmocka

$(BUILD)/tests/%: tests/%.c $(BUILD)/libspcore.a $(wildcard core/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itests $< $(BUILD)/libspcore.a $(TEST_LDLIBS) -o $@

-include $(filter-out tests/tests.mk,$(wildcard tests/*.mk))
