# SPDX-License-Identifier: GPL-2.0
# The simulator (Documentation/simulator.rst) and the results page.
#
#   make sim          build build/tools/sim/sp_sim, run every story x policy
#                     (with the oracles and the bound) on each of SIM_MODELS,
#                     print the tables and write build/sim/MODEL/results.{txt,csv}
#                     (x86-2pkg's also to build/sim/results.{txt,csv})
#   make sim SIM_MODEL=models/server-256.model   one model only
#   make sim-plots    x86-2pkg's plot data and PNGs in build/sim/ (needs gnuplot)
#   make sim-bench    events/s, and the full set on the 256-CPU model
#   make sim-validate the cfs validation at 16 CPUs from the saved guest
#                     traces (tools/sim/validate/cfs16.sh; a new guest run:
#                     tools/sim/validate/cfs16.sh STORY.json)
#   make results      regenerate Documentation/results.md (tools/results/results.sh)
#   make heldout      issue 19's targets on HELDOUT_N seeded random stories
#                     (HELDOUT_SEED) on HELDOUT_MODELS, HELDOUT_JOBS models at a
#                     time (tools/sim/heldout/heldout.sh; the stories in
#                     build/heldout/stories)
#   make results-data save the VM runs' CSVs into Documentation/data/
SIM_MODELS ?= models/x86-2pkg.model models/phone-biglittle.model \
	      models/server-64.model models/server-256.model
ifneq ($(SIM_MODEL),)
SIM_RUN_MODELS := $(SIM_MODEL)
else
SIM_RUN_MODELS := $(SIM_MODELS)
endif
SIM_PLOT_MODEL ?= models/x86-2pkg.model
SIM_STORIES := $(sort $(wildcard tools/sim/stories/*.json))
SIM_TIMELINE_STORY ?= mixed
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
SIM_LIB_SRCS := tools/sim/sim.c tools/sim/evq.c tools/sim/rq.c tools/sim/opp.c tools/sim/hw.c \
		tools/sim/topo.c tools/sim/cfs.c tools/sim/balance.c tools/sim/policy.c \
		tools/sim/story.c tools/sim/report.c tools/sim/bound.c tools/sim/oracle.c
SIM_LIB_OBJS := $(patsubst tools/sim/%.c,$(BUILD)/tools/sim/%.o,$(SIM_LIB_SRCS))
SIM_HDRS := $(wildcard tools/sim/*.h core/*.h) tools/lib/xorshift.h tools/lib/mono_clock.h
SIM := $(BUILD)/tools/sim/sp_sim

$(BUILD)/tools/sim/%.o: tools/sim/%.c $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/sim -Itools/lib $(JSONC_CFLAGS) -c $< -o $@

$(BUILD)/tools/sim/libspsim.a: $(SIM_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(SIM): $(BUILD)/tools/sim/main.o $(BUILD)/tools/sim/libspsim.a $(MODEL_FILE_OBJ) \
		$(BUILD)/libspcore.a
	$(HOST_CC) $(HOST_CFLAGS) $^ $(JSONC_LIBS) -o $@

.PHONY: sim sim-plots sim-bench sim-validate results
sim: $(SIM)
	@for m in $(SIM_RUN_MODELS); do \
		d=$(BUILD)/sim/$$(basename $$m .model); mkdir -p $$d; \
		$(SIM) -m $$m --metrics --csv $$d/results.csv --txt $$d/results.txt \
			$(SIM_STORIES) || exit 1; echo; \
		if [ "$$m" = models/x86-2pkg.model ]; then \
			cp $$d/results.csv $$d/results.txt $(BUILD)/sim/; fi; \
	done

sim-plots: $(SIM)
	@mkdir -p $(BUILD)/sim/plot
	$(SIM) -m $(SIM_PLOT_MODEL) --csv $(BUILD)/sim/results.csv \
		--txt $(BUILD)/sim/results.txt --plotdata $(BUILD)/sim/plot \
		--timeline $(BUILD)/sim/plot/timeline.dat \
		--timeline-story $(SIM_TIMELINE_STORY) $(SIM_STORIES) >/dev/null
	@if command -v gnuplot >/dev/null; then \
		tools/sim/plots.sh $(BUILD)/sim/plot $(BUILD)/sim $(SIM_MODEL) && \
		ls $(BUILD)/sim/*.png; \
	else echo "sim-plots: gnuplot not found, wrote data only ($(BUILD)/sim/plot)"; fi

sim-bench: $(SIM)
	$(SIM) --bench -m models/x86-2pkg.model $(SIM_STORIES) >/dev/null
	$(SIM) --bench -m models/server-256.model $(SIM_STORIES) >/dev/null

sim-validate: $(SIM) $(BUILD)/guest/pb-story
	@for s in server16 server16-busy; do echo "== $$s"; \
		tools/sim/validate/cfs16.sh --trace Documentation/data/cfs16-$$s.trace.gz \
			tools/sim/validate/$$s.json || exit 1; done

# sp_storygen, the held-out stories' generator (below)
STORYGEN := $(BUILD)/tools/sim/sp_storygen

results: $(SIM) $(STORYGEN)
	SIM=$(SIM) STORYGEN=$(STORYGEN) BUILD=$(BUILD) tools/results/results.sh Documentation/results.md

# Keep the VM runs' CSVs with the sources (make results falls back to them,
# so a fresh clone regenerates every section): power-bench (x86 and arm64,
# with their runs files: every run's line, the guest's EAS evidence; what
# power-bench --report reads again) and overhead.
.PHONY: results-data
results-data:
	@mkdir -p Documentation/data
	@for f in power-bench/results.csv:power-bench.csv power-bench/runs.txt:power-bench.runs \
		power-bench-arm64/results.csv:power-bench-arm64.csv \
		power-bench-arm64/runs.txt:power-bench-arm64.runs \
		power-bench-arm64-cfs/results.csv:power-bench-arm64-cfs.csv \
		power-bench-arm64-cfs/runs.txt:power-bench-arm64-cfs.runs \
		power-bench-x86-freq/results.csv:power-bench-x86-freq.csv \
		power-bench-x86-freq/runs.txt:power-bench-x86-freq.runs overhead/results.csv:overhead.csv \
		overhead/mix.csv:overhead-mix.csv; do \
		src=$(BUILD)/$${f%%:*}; dst=Documentation/data/$${f#*:}; \
		if [ -s $$src ]; then cp $$src $$dst && echo "results-data: $$src -> $$dst"; \
		else echo "results-data: no $$src (run its make target first)"; fi; \
	done
	@if ls $(BUILD)/pb-yardstick/*.runs >/dev/null 2>&1; then \
		mkdir -p Documentation/data/power-bench-yardstick && \
		cp $(BUILD)/pb-yardstick/*.runs Documentation/data/power-bench-yardstick/ && \
		echo "results-data: $(BUILD)/pb-yardstick/*.runs -> Documentation/data/power-bench-yardstick/"; \
	else echo "results-data: no $(BUILD)/pb-yardstick/*.runs (make pb-yardstick)"; fi

# Held-out stories (Documentation/simulator.rst): sp_storygen writes them,
# heldout.sh runs and judges them; nothing of it is committed.
HELDOUT_N ?= 100
HELDOUT_SEED ?= 1
HELDOUT_JOBS ?= 2
HELDOUT_MODELS ?= $(SIM_MODELS) models/arm64-biglittle.model
# the models whose smallest capacity sets the stories' budgets: the same
# stories whatever HELDOUT_MODELS runs
HELDOUT_GEN_MODELS ?= $(SIM_MODELS) models/arm64-biglittle.model

$(STORYGEN): tools/sim/heldout/story_gen.c tools/lib/xorshift.h $(MODEL_FILE_OBJ) $(BUILD)/libspcore.a
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/lib $< $(MODEL_FILE_OBJ) $(BUILD)/libspcore.a -o $@

# per model, sp-power's passes summed over HELDOUT_SEEDS (heldout-sum.sh)
HELDOUT_SEEDS ?= 1 2
.PHONY: heldout-sum
heldout-sum:
	tools/sim/heldout/heldout-sum.sh $(HELDOUT_SEEDS)

.PHONY: heldout
heldout: $(SIM) $(STORYGEN)
	HELDOUT_GEN_MODELS="$(HELDOUT_GEN_MODELS)" \
	tools/sim/heldout/heldout.sh $(SIM) $(STORYGEN) $(BUILD)/heldout $(HELDOUT_N) $(HELDOUT_SEED) \
		$(HELDOUT_JOBS) $(HELDOUT_MODELS)
