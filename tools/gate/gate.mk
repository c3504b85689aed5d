# SPDX-License-Identifier: GPL-2.0
# The load-balancer gate's measurements in the x86 guest (tools/gate,
# Documentation/placement.rst "The load-balancer gate"):
#
#   make vm-gate-measure  power vs observe on two light periodic tasks
#                         (GATE_STORY, default two-light), GATE_REPS (8)
#                         interleaved repetitions, ratios with intervals
#   make vm-gate-nohz     what wakes the package the tasks do not use
#   make vm-gate-cost     instructions per nr_running event and per
#                         load_balance() call (qemu plugin)
#   make bench-gate       host: callgrind instructions per balance of the
#                         gate's predicate and per busy tick of the kick
#                         gate (bench_gate.c) on GATE_BENCH_MODELS
GATE_REPS ?= 8
GATE_STORY ?= tools/gate/two-light.json

.PHONY: vm-gate-measure vm-gate-nohz vm-gate-cost
vm-gate-measure: module guest-tools
	tools/gate/gate-measure -r $(GATE_REPS) $(GATE_STORY)

vm-gate-nohz: module guest-tools
	tools/gate/gate-nohz -r 3

vm-gate-cost: module guest-tools
	tools/gate/gate-cost

GATE_BENCH_MODELS ?= models/x86-2pkg.model models/server-64.model

$(BUILD)/tools/gate/bench_gate: tools/gate/bench_gate.c $(BENCH_LIB) $(BUILD)/libspcore.a $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(filter-out -O%,$(HOST_CFLAGS)) -O2 -Itools/lib $< $(BENCH_LIB) $(BUILD)/libspcore.a -o $@

.PHONY: bench-gate
bench-gate: $(BUILD)/tools/gate/bench_gate
	$(BUILD)/tools/gate/bench_gate $(GATE_BENCH_MODELS)
