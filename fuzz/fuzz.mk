# SPDX-License-Identifier: GPL-2.0
# make fuzz: libFuzzer on the model parser under ASan and UBSan.
#   FUZZ_RUNS   executions (default 1000000; CI runs the default)
#   FUZZ_CC     clang with libFuzzer (default clang-14)
# Seeds are the shipped models; the corpus grows in build/fuzz/corpus.
FUZZ_CC ?= clang-14
FUZZ_RUNS ?= 1000000
FUZZ_FLAGS ?=
FUZZ_CFLAGS := -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -Icore
FUZZ_BIN := $(BUILD)/fuzz/fuzz_model
FUZZ_CORPUS := $(BUILD)/fuzz/corpus

.PHONY: fuzz

$(FUZZ_BIN): fuzz/fuzz_model.c $(CORE_SRCS) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) fuzz/fuzz_model.c $(CORE_SRCS) -o $@

fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_CORPUS)
	cp models/*.model $(FUZZ_CORPUS)/
	$(FUZZ_BIN) -runs=$(FUZZ_RUNS) -dict=fuzz/model.dict -print_final_stats=1 \
		$(FUZZ_FLAGS) $(FUZZ_CORPUS) > $(BUILD)/fuzz/fuzz.log 2>&1; \
	rc=$$?; grep -E '^Done [0-9]+ runs|stat::number_of_executed_units|ERROR|SUMMARY' \
		$(BUILD)/fuzz/fuzz.log; \
	[ $$rc -eq 0 ] || { tail -n 40 $(BUILD)/fuzz/fuzz.log; exit $$rc; }
