# SPDX-License-Identifier: GPL-2.0
# The simulator (Documentation/simulator.rst).
#
#   make sim          build build/tools/sim/sp_sim, run every story x policy
#                     on SIM_MODEL, print the table and sp-power's ratios,
#                     write build/sim/results.{txt,csv}
#   make sim-plots    the same, plus PNGs in build/sim/ (needs gnuplot)
#   make sim-bench    events/s, and the full set on the 256-CPU model
SIM_MODEL ?= models/x86-2pkg.model
SIM_STORIES := $(sort $(wildcard tools/sim/stories/*.json))
SIM_TIMELINE_STORY ?= mixed
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
SIM_LIB_SRCS := tools/sim/sim.c tools/sim/story.c tools/sim/policy.c \
		tools/sim/report.c tools/sim/bound.c
SIM_LIB_OBJS := $(patsubst tools/sim/%.c,$(BUILD)/tools/sim/%.o,$(SIM_LIB_SRCS))
SIM_HDRS := $(wildcard tools/sim/*.h core/*.h)
SIM := $(BUILD)/tools/sim/sp_sim

$(BUILD)/tools/sim/%.o: tools/sim/%.c $(SIM_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/sim $(JSONC_CFLAGS) -c $< -o $@

$(BUILD)/tools/sim/libspsim.a: $(SIM_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(SIM): $(BUILD)/tools/sim/main.o $(BUILD)/tools/sim/libspsim.a $(BUILD)/libspcore.a
	$(HOST_CC) $(HOST_CFLAGS) $^ $(JSONC_LIBS) -o $@

.PHONY: sim sim-plots sim-bench
sim: $(SIM)
	@mkdir -p $(BUILD)/sim
	$(SIM) -m $(SIM_MODEL) --csv $(BUILD)/sim/results.csv \
		--txt $(BUILD)/sim/results.txt $(SIM_STORIES)

sim-plots: $(SIM)
	@mkdir -p $(BUILD)/sim/plot
	$(SIM) -m $(SIM_MODEL) --csv $(BUILD)/sim/results.csv \
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
