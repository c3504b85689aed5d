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
GATE_REPS ?= 8
GATE_STORY ?= tools/gate/two-light.json

.PHONY: vm-gate-measure vm-gate-nohz vm-gate-cost
vm-gate-measure: module guest-tools
	tools/gate/gate-measure -r $(GATE_REPS) $(GATE_STORY)

vm-gate-nohz: module guest-tools
	tools/gate/gate-nohz -r 3

vm-gate-cost: module guest-tools
	tools/gate/gate-cost
