# SPDX-License-Identifier: GPL-2.0
# Host micro-benchmarks: `make bench` prints one line per measurement, with
# its ratio to the target: ns and callgrind instructions per decision for 8,
# 64 and 256 CPUs with fresh utilisation stamps, the same with stamps up to
# 4 ms old (as the kernel's, those of the last idle entry or exit), the
# pipe-like wake-up (bench_place --pipe) and one decision of the pipe as the
# x86 guest saw it (--state tools/bench/pipe-guest.state), then instructions
# per idle event (bench_idle) at 4, 64 and 256 CPUs, into a shallow state,
# (--deep) into the deepest, and (--pipe) a pipe round trip's between two
# packages.  Lines starting with '#' say how the decisions came out.
BENCH_MODELS ?= $(sort $(wildcard models/*.model))
# tools/lib: the model loader and the callgrind run (bench_gate links them too).
BENCH_LIB := $(MODEL_FILE_OBJ) $(CALLGRIND_OBJ)

$(BUILD)/tools/bench/bench_place: tools/bench/bench_place.c $(BENCH_LIB) $(BUILD)/libspcore.a $(wildcard core/*.h) \
		tools/lib/xorshift.h tools/lib/mono_clock.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(filter-out -O%,$(HOST_CFLAGS)) -O2 -Itools/lib $< $(BENCH_LIB) $(BUILD)/libspcore.a -o $@

.PHONY: bench
bench: $(BUILD)/tools/bench/bench_place
	$(BUILD)/tools/bench/bench_place $(BENCH_MODELS)
	$(BUILD)/tools/bench/bench_place -a 4000 --pipe --state tools/bench/pipe-guest.state $(BENCH_MODELS)

# Where one decision's instructions go (tools/bench/bench-parts.sh): make
# bench's decisions (8, 64, 256 CPUs, pipe, pipe_heavy, pipe_guest) under
# callgrind, the output kept in build/bench-parts/, per part per decision
# (sp_place_fast, sp_place_fast_ub: the upper bound and its look, the energies of CFS's CPU and of
# the candidates, sp_place_scan, the rest), each total checked against make
# bench's instr_per_decision.
.PHONY: bench-parts
bench-parts: $(BUILD)/tools/bench/bench_place
	./tools/bench/bench-parts.sh $(BUILD)/tools/bench/bench_place $(BUILD)/bench-parts $(BENCH_MODELS)

# The idle probe's work (sp_acct_enter/exit) on the host: ns and instructions per event.
$(BUILD)/tools/bench/bench_idle: tools/bench/bench_idle.c $(BENCH_LIB) $(BUILD)/libspcore.a $(wildcard core/*.h) \
		tools/lib/mono_clock.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(filter-out -O%,$(HOST_CFLAGS)) -O2 -Itools/lib $< $(BENCH_LIB) $(BUILD)/libspcore.a -o $@

bench: bench-idle
.PHONY: bench-idle
bench-idle: $(BUILD)/tools/bench/bench_idle
	$(BUILD)/tools/bench/bench_idle models/x86-2pkg.model models/server-64.model models/server-256.model
	$(BUILD)/tools/bench/bench_idle --deep models/x86-2pkg.model models/server-64.model models/server-256.model
	$(BUILD)/tools/bench/bench_idle --pipe models/x86-2pkg.model models/server-64.model models/server-256.model

# The same events through the module's own core/sp_acct.o, as make module
# compiles it with the kernel's flags (x86-64 only; the guest runs this
# code): the instructions per event the probe's core part costs in the
# guest, where vm-overhead counts only totals.
#
# $(call bench_kobj_link,OUT,OBJ,SRC): link benchmark SRC against a copy of
# the module's object OBJ (debug info stripped), whose symbols then take
# precedence over libspcore.a's host-compiled ones.
define bench_kobj_link
	@mkdir -p $(dir $(1))
	objcopy --strip-debug $(2) $(1).$(notdir $(2))
	$(HOST_CC) $(filter-out -O%,$(HOST_CFLAGS)) -O2 -no-pie -fno-pie -Itools/lib $(3) \
		tools/bench/kstubs.S $(1).$(notdir $(2)) $(BENCH_LIB) $(BUILD)/libspcore.a -o $(1)
endef

BENCH_IDLE_KOBJ := $(BUILD)/tools/bench/bench_idle_kobj
.PHONY: bench-idle-kobj
bench-idle-kobj: module $(BENCH_LIB) $(BUILD)/libspcore.a
	$(call bench_kobj_link,$(BENCH_IDLE_KOBJ),core/sp_acct.o,tools/bench/bench_idle.c)
	$(BENCH_IDLE_KOBJ) models/x86-2pkg.model models/server-64.model models/server-256.model
	$(BENCH_IDLE_KOBJ) --deep models/x86-2pkg.model models/server-64.model models/server-256.model
	$(BENCH_IDLE_KOBJ) --pipe models/x86-2pkg.model models/server-64.model models/server-256.model

# make bench's decisions through the module's own core/sp_place.o, as make
# module compiles it with the kernel's flags (x86-64 only; the guest runs
# this code): the instructions per decision the hook's core part costs in
# the guest (the pipe_guest line is the x86 guest's own snapshot), where
# vm-overhead counts only totals.  The kernel's flags (no strict aliasing,
# no SSE) make it differ from make bench's host build.
BENCH_PLACE_KOBJ := $(BUILD)/tools/bench/bench_place_kobj
.PHONY: bench-place-kobj
bench-place-kobj: module $(BENCH_LIB) $(BUILD)/libspcore.a
	$(call bench_kobj_link,$(BENCH_PLACE_KOBJ),core/sp_place.o,tools/bench/bench_place.c)
	$(BENCH_PLACE_KOBJ) $(BENCH_MODELS)
	$(BENCH_PLACE_KOBJ) -a 4000 --pipe --state tools/bench/pipe-guest.state $(BENCH_MODELS)

# The fast decision against the exhaustive one on seeded random snapshots
# (place_equiv.c); EQUIV_N decisions over every model.  make check runs a
# short one (tests/check.sh).
EQUIV_N ?= 10000000
PLACE_DIGEST_OBJ := $(BUILD)/tools/bench/place_digest.o
$(PLACE_DIGEST_OBJ): tools/bench/place_digest.c tools/bench/place_digest.h $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/tools/bench/place_equiv: tools/bench/place_equiv.c $(MODEL_FILE_OBJ) $(PLACE_DIGEST_OBJ) \
		$(BUILD)/libspcore.a $(wildcard core/*.h) tools/lib/xorshift.h tools/bench/place_digest.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/lib $< $(MODEL_FILE_OBJ) $(PLACE_DIGEST_OBJ) $(BUILD)/libspcore.a -o $@

.PHONY: place-equiv
place-equiv: $(BUILD)/tools/bench/place_equiv
	$(BUILD)/tools/bench/place_equiv -n $(EQUIV_N) $(sort $(wildcard models/*.model))

# The decisions themselves (place_equiv --digest, place_digest.c): per model
# and mode, a digest of every output field of seeded random decisions,
# printed and compared with the committed tools/bench/place-digest.txt
# (the host test test_digest does the same).  A change of any decision
# fails until make place-digest-update rewrites the file, and the commit
# says why the decisions changed.
PLACE_DIGEST_FILE := tools/bench/place-digest.txt
.PHONY: place-digest place-digest-update
place-digest: $(BUILD)/tools/bench/place_equiv
	$(BUILD)/tools/bench/place_equiv --digest --check $(PLACE_DIGEST_FILE) $(sort $(wildcard models/*.model))

place-digest-update: $(BUILD)/tools/bench/place_equiv
	$(BUILD)/tools/bench/place_equiv --digest $(sort $(wildcard models/*.model)) >$(PLACE_DIGEST_FILE).tmp
	mv $(PLACE_DIGEST_FILE).tmp $(PLACE_DIGEST_FILE)

# The same comparison on every decision of every simulator story
# (sim_equiv.c: the simulator linked with sp_place() wrapped); the
# results.csv it writes equal make sim's.
SIM_EQUIV := $(BUILD)/tools/bench/sim_equiv
$(SIM_EQUIV): tools/bench/sim_equiv.c $(BUILD)/tools/sim/main.o $(BUILD)/tools/sim/libspsim.a \
		$(MODEL_FILE_OBJ) $(BUILD)/libspcore.a
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Wl,--wrap=sp_place $< $(BUILD)/tools/sim/main.o \
		$(BUILD)/tools/sim/libspsim.a $(MODEL_FILE_OBJ) $(BUILD)/libspcore.a $(JSONC_LIBS) -o $@

.PHONY: sim-equiv
sim-equiv: $(SIM_EQUIV)
	@for m in $(SIM_MODELS); do \
		d=$(BUILD)/sim-equiv/$$(basename $$m .model); mkdir -p $$d; \
		echo "# $$m"; \
		$(SIM_EQUIV) -m $$m --metrics --csv $$d/results.csv --txt $$d/results.txt \
			$(SIM_STORIES) >/dev/null || exit 1; \
	done

# The idle accounting against another revision's, event by event
# (acct_equiv.c): ACCT_EQUIV_N seeded random events per model, every field
# and readout compared after each.  ACCT_EQUIV_REV is the other tree (main).
ACCT_EQUIV_REV ?= main
ACCT_EQUIV_N ?= 200000
ACCT_EQUIV_DIR := $(BUILD)/tools/bench/acct-equiv
ACCT_EQUIV_SHIM = $(HOST_CC) $(filter-out -Icore,$(HOST_CFLAGS)) -c tools/bench/acct_equiv_shim.c

.PHONY: acct-equiv
acct-equiv: $(MODEL_FILE_OBJ) $(BUILD)/libspcore.a
	@rm -rf $(ACCT_EQUIV_DIR) && mkdir -p $(ACCT_EQUIV_DIR)/old
	git archive $(ACCT_EQUIV_REV) core | tar -x -C $(ACCT_EQUIV_DIR)/old
	$(ACCT_EQUIV_SHIM) -I$(ACCT_EQUIV_DIR)/old/core '-DSHIM(x)=old_##x' -o $(ACCT_EQUIV_DIR)/old.o
	$(ACCT_EQUIV_SHIM) -Icore '-DSHIM(x)=new_##x' -o $(ACCT_EQUIV_DIR)/new.o
	objcopy -G old_init -G old_event -G old_readout $(ACCT_EQUIV_DIR)/old.o
	objcopy -G new_init -G new_event -G new_readout $(ACCT_EQUIV_DIR)/new.o
	$(HOST_CC) $(HOST_CFLAGS) -Itools/lib tools/bench/acct_equiv.c $(ACCT_EQUIV_DIR)/old.o \
		$(ACCT_EQUIV_DIR)/new.o $(MODEL_FILE_OBJ) $(BUILD)/libspcore.a -o $(ACCT_EQUIV_DIR)/acct_equiv
	$(ACCT_EQUIV_DIR)/acct_equiv -n $(ACCT_EQUIV_N) $(sort $(wildcard models/*.model))
