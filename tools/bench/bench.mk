# SPDX-License-Identifier: GPL-2.0
# Host micro-benchmark of the placement decision: `make bench` prints, for
# 8, 64 and 256 CPUs, ns and callgrind instructions per sp_place() call.
BENCH_MODELS ?= $(sort $(wildcard models/*.model))

$(BUILD)/tools/bench/bench_place: tools/bench/bench_place.c $(BUILD)/libspcore.a $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(filter-out -O%,$(HOST_CFLAGS)) -O2 $< $(BUILD)/libspcore.a -o $@

.PHONY: bench
bench: $(BUILD)/tools/bench/bench_place
	$(BUILD)/tools/bench/bench_place $(BENCH_MODELS)

# The idle probe's work (sp_acct_enter/exit) on the host: ns per event.
$(BUILD)/tools/bench/bench_idle: tools/bench/bench_idle.c $(BUILD)/libspcore.a $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(filter-out -O%,$(HOST_CFLAGS)) -O2 $< $(BUILD)/libspcore.a -o $@

bench: bench-idle
.PHONY: bench-idle
bench-idle: $(BUILD)/tools/bench/bench_idle
	$(BUILD)/tools/bench/bench_idle models/x86-2pkg.model models/server-64.model models/server-256.model

# The fast decision against the exhaustive one on seeded random snapshots
# (place_equiv.c); EQUIV_N decisions over every model.  make check runs a
# short one (tests/check.sh).
EQUIV_N ?= 10000000
$(BUILD)/tools/bench/place_equiv: tools/bench/place_equiv.c $(BUILD)/libspcore.a $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $< $(BUILD)/libspcore.a -o $@

.PHONY: place-equiv
place-equiv: $(BUILD)/tools/bench/place_equiv
	$(BUILD)/tools/bench/place_equiv -n $(EQUIV_N) $(sort $(wildcard models/*.model))
