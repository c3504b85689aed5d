# SPDX-License-Identifier: GPL-2.0
# sp-report: trace-cmd recordings of sched_power (Documentation/sp-report.rst).
#
#   make sp-report       build build/tools/sp-report/sp-report
#   make report-results  record in the VM, regenerate Documentation/sp-report/
#   make fuzz-report     the trace.dat reader under libFuzzer + ASan/UBSan
REPORT_PKGS := libtracecmd libtraceevent libtracefs
REPORT_CFLAGS := $(shell pkg-config --cflags $(REPORT_PKGS) 2>/dev/null || \
	echo -I/usr/include/trace-cmd -I/usr/include/traceevent -I/usr/include/tracefs)
REPORT_LIBS := $(shell pkg-config --libs $(REPORT_PKGS) 2>/dev/null || \
	echo -ltracecmd -ltracefs -ltraceevent)
REPORT_SRCS := tools/sp-report/read.c tools/sp-report/analyse.c tools/sp-report/replay.c \
	tools/sp-report/counts.c \
	tools/sp-report/print.c tools/sp-report/plot.c tools/sp-report/diff.c
REPORT_SRCS += tools/sp-report/util.c
REPORT_OBJS := $(patsubst tools/sp-report/%.c,$(BUILD)/tools/sp-report/%.o,$(REPORT_SRCS))
REPORT_HDRS := $(wildcard tools/sp-report/*.h core/*.h)
REPORT := $(BUILD)/tools/sp-report/sp-report
REPORT_DEFS := -DSP_REPORT_MODEL='"$(CURDIR)/models/x86-2pkg.model"' \
	-DSP_REPORT_PREAMBLE='"$(CURDIR)/tools/plot/sp.gp"'

$(BUILD)/tools/sp-report/%.o: tools/sp-report/%.c $(REPORT_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/lib $(REPORT_CFLAGS) $(REPORT_DEFS) -c $< -o $@

$(BUILD)/tools/sp-report/main.o: tools/lib/model_file.h

$(BUILD)/tools/sp-report/libspreport.a: $(REPORT_OBJS)
	rm -f $@ && ar rcs $@ $^

$(REPORT): $(BUILD)/tools/sp-report/main.o $(BUILD)/tools/sp-report/libspreport.a \
		$(MODEL_FILE_OBJ) $(BUILD)/libspcore.a
	$(HOST_CC) $(HOST_CFLAGS) $^ $(REPORT_LIBS) -o $@

.PHONY: sp-report
sp-report: $(REPORT)

# libFuzzer on the reader: FUZZ_REPORT_RUNS executions (default 200000,
# about 15 s here; make check runs the default),
# seeds in fuzz/report-seeds/, corpus in build/fuzz/report-corpus.
FUZZ_REPORT_RUNS ?= 200000
FUZZ_REPORT_BIN := $(BUILD)/fuzz/fuzz_report
FUZZ_REPORT_CORPUS := $(BUILD)/fuzz/report-corpus
FUZZ_REPORT_SRCS := fuzz/fuzz_report.c tools/sp-report/read.c tools/sp-report/analyse.c \
	tools/sp-report/counts.c \
	tools/sp-report/replay.c tools/sp-report/print.c tools/sp-report/diff.c
FUZZ_REPORT_SRCS += tools/sp-report/util.c

.PHONY: fuzz-report
$(FUZZ_REPORT_BIN): $(FUZZ_REPORT_SRCS) $(CORE_SRCS) $(REPORT_HDRS) tests/test_models.h \
		$(wildcard fuzz/report-seeds/*.dat)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itools/sp-report -Itests $(REPORT_CFLAGS) \
		-DSP_REPORT_SEEDS='"$(CURDIR)/fuzz/report-seeds"' $(FUZZ_REPORT_SRCS) \
		$(CORE_SRCS) $(REPORT_LIBS) -o $@

fuzz-report: $(FUZZ_REPORT_BIN)
	@mkdir -p $(FUZZ_REPORT_CORPUS)
	cp fuzz/report-seeds/*.dat $(FUZZ_REPORT_CORPUS)/
	LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/report.supp:print_suppressions=0 \
	$(FUZZ_REPORT_BIN) -runs=$(FUZZ_REPORT_RUNS) -max_len=262144 -print_final_stats=1 \
		-rss_limit_mb=4096 -timeout=20 -artifact_prefix=$(BUILD)/fuzz/ \
		$(FUZZ_FLAGS) $(FUZZ_REPORT_CORPUS) > $(BUILD)/fuzz/fuzz_report.log 2>&1; \
	rc=$$?; grep -E '^Done [0-9]+ runs|stat::number_of_executed_units|ERROR|SUMMARY' \
		$(BUILD)/fuzz/fuzz_report.log; \
	[ $$rc -eq 0 ] || { tail -n 40 $(BUILD)/fuzz/fuzz_report.log; exit $$rc; }

# Documentation/sp-report/ from a fresh VM recording (tools/sp-report/results.sh).
.PHONY: report-results
report-results: module guest-tools
	tools/sp-report/results.sh
