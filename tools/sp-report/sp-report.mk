# SPDX-License-Identifier: GPL-2.0
# sp-report: trace-cmd recordings of sched_power (Documentation/sp-report.rst).
#
#   make sp-report       build build/tools/sp-report/sp-report
#   make report-results  record in the VM, regenerate Documentation/sp-report/
#   make fuzz-report     the trace.dat reader under libFuzzer + ASan/UBSan
#   make fuzz-events     the analysis on any event stream, libFuzzer + ASan/UBSan
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

# libFuzzer on the reader (fuzz/fuzz_report.c): the seed recordings of
# fuzz/report-seeds/ with their records' payloads rewritten, read through
# libtracecmd; headers and page structure stay the seeds' (the libraries
# crash on mutated ones, Documentation/sp-report.rst "What is fuzzed").
# FUZZ_REPORT_RUNS executions (default 1500, about 20 s here: libtracecmd
# parses the headers and the analysis runs twice on each input; make check
# runs the default).  -detect_leaks=0: libtracecmd leaks on every open
# (report.supp), so libFuzzer's per-input leak check would re-run and scan
# every input, halving the rate; LeakSanitizer still checks at exit, with
# report.supp.  The corpus (build/fuzz/report-corpus) starts afresh on
# every run, from one input per seed written by the harness
# (FUZZ_REPORT_SEED_OUT): a corpus kept from earlier runs would be re-run
# first, at about 90 inputs a second, and the run would grow without bound.
FUZZ_REPORT_RUNS ?= 1500
FUZZ_REPORT_BIN := $(BUILD)/fuzz/fuzz_report
FUZZ_REPORT_CORPUS := $(BUILD)/fuzz/report-corpus
FUZZ_SP_REPORT_SRCS := tools/sp-report/read.c tools/sp-report/analyse.c \
	tools/sp-report/counts.c tools/sp-report/replay.c tools/sp-report/print.c \
	tools/sp-report/diff.c tools/sp-report/util.c
FUZZ_REPORT_LSAN := LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/report.supp:print_suppressions=0

.PHONY: fuzz-report fuzz-events
$(FUZZ_REPORT_BIN): fuzz/fuzz_report.c fuzz/fuzz_rep.h $(FUZZ_SP_REPORT_SRCS) $(CORE_SRCS) $(REPORT_HDRS) \
		tests/test_models.h $(wildcard fuzz/report-seeds/*.dat)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itools/sp-report -Itests $(REPORT_CFLAGS) \
		-DSP_REPORT_SEEDS='"$(CURDIR)/fuzz/report-seeds"' fuzz/fuzz_report.c \
		$(FUZZ_SP_REPORT_SRCS) $(CORE_SRCS) $(REPORT_LIBS) -o $@

# fuzz_log NAME: the summary of build/fuzz/NAME.log, all of it on failure
fuzz_log = rc=$$?; grep -E '^Done [0-9]+ runs|stat::number_of_executed_units|INITED|DONE|ERROR|SUMMARY' \
		$(BUILD)/fuzz/$(1).log; \
	[ $$rc -eq 0 ] || { tail -n 40 $(BUILD)/fuzz/$(1).log; exit $$rc; }

fuzz-report: $(FUZZ_REPORT_BIN)
	rm -rf $(FUZZ_REPORT_CORPUS) && mkdir -p $(FUZZ_REPORT_CORPUS)
	FUZZ_REPORT_SEED_OUT=$(FUZZ_REPORT_CORPUS) $(FUZZ_REPORT_BIN)
	$(FUZZ_REPORT_LSAN) $(FUZZ_REPORT_BIN) -runs=$(FUZZ_REPORT_RUNS) -max_len=32768 \
		-detect_leaks=0 -print_final_stats=1 -rss_limit_mb=4096 -timeout=20 \
		-artifact_prefix=$(BUILD)/fuzz/ $(FUZZ_FLAGS) $(FUZZ_REPORT_CORPUS) \
		> $(BUILD)/fuzz/fuzz_report.log 2>&1; \
	$(call fuzz_log,fuzz_report)

# libFuzzer on the analysis without a file (fuzz/fuzz_events.c): any stream
# of decoded events, FUZZ_EVENTS_RUNS executions (default 20000, about 32 s
# here; make check runs the default), from an empty corpus each run
# (build/fuzz/events-corpus), for the same reason.  -len_control=0: inputs
# of up to 1024 bytes (tens of events) from the start; libFuzzer's default
# kept them under 22 bytes, less than one decision, for all 20000 runs.
FUZZ_EVENTS_RUNS ?= 20000
FUZZ_EVENTS_BIN := $(BUILD)/fuzz/fuzz_events
FUZZ_EVENTS_CORPUS := $(BUILD)/fuzz/events-corpus

$(FUZZ_EVENTS_BIN): fuzz/fuzz_events.c fuzz/fuzz_rep.h $(FUZZ_SP_REPORT_SRCS) $(CORE_SRCS) $(REPORT_HDRS) \
		tests/test_models.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itools/sp-report -Itests $(REPORT_CFLAGS) fuzz/fuzz_events.c \
		$(FUZZ_SP_REPORT_SRCS) $(CORE_SRCS) $(REPORT_LIBS) -o $@

fuzz-events: $(FUZZ_EVENTS_BIN)
	rm -rf $(FUZZ_EVENTS_CORPUS) && mkdir -p $(FUZZ_EVENTS_CORPUS)
	$(FUZZ_EVENTS_BIN) -runs=$(FUZZ_EVENTS_RUNS) -max_len=1024 -len_control=0 -print_final_stats=1 \
		-rss_limit_mb=2048 -timeout=20 -artifact_prefix=$(BUILD)/fuzz/ \
		$(FUZZ_FLAGS) $(FUZZ_EVENTS_CORPUS) > $(BUILD)/fuzz/fuzz_events.log 2>&1; \
	$(call fuzz_log,fuzz_events)

# Documentation/sp-report/ from a fresh VM recording (tools/sp-report/results.sh).
.PHONY: report-results
report-results: module guest-tools
	tools/sp-report/results.sh
