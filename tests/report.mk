# SPDX-License-Identifier: GPL-2.0
# sp-report's analysis on synthetic events, the reader's refusals, and the
# reader on a seed recording (fuzz/report-seeds/v0.3.dat).
HOST_TESTS += $(BUILD)/tests/test_report
$(BUILD)/tests/test_report: HOST_CFLAGS += -DSP_REPORT_SEEDS='"$(CURDIR)/fuzz/report-seeds"'

$(BUILD)/tests/test_report: tests/test_report.c $(BUILD)/tools/sp-report/libspreport.a \
		$(BUILD)/libspcore.a $(wildcard core/*.h tests/*.h tools/sp-report/*.h) \
		fuzz/report-seeds/v0.3.dat
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itests -Itools/sp-report $(REPORT_CFLAGS) $< \
		$(BUILD)/tools/sp-report/libspreport.a $(BUILD)/libspcore.a $(REPORT_LIBS) \
		$(TEST_LDLIBS) -o $@
