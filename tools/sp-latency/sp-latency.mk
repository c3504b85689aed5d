# SPDX-License-Identifier: GPL-2.0
# sp-latency: run a command under a latency bound; list the bounds in force.
# Host build in build/tools/sp-latency/, static copy for the VM guest.
SP_LATENCY := $(BUILD)/tools/sp-latency/sp-latency
SP_LATENCY_SRC := tools/sp-latency/sp-latency.c uapi/sched_power_latency.h

$(SP_LATENCY): $(SP_LATENCY_SRC)
	@mkdir -p $(dir $@)
	$(HOST_CC) -O2 -Wall -Wextra -Werror -Iuapi $< -o $@

$(BUILD)/guest/sp-latency: $(SP_LATENCY_SRC)
	@mkdir -p $(dir $@)
	$(HOST_CC) -O2 -Wall -Wextra -Werror -static -Iuapi $< -o $@

# selftests/sp_lat.c: the latency selftests' scenarios (threads, userns, BPF LSM).
GUEST_TOOLS += $(BUILD)/guest/sp-latency $(BUILD)/guest/sp_lat
$(BUILD)/guest/sp_lat: uapi/sched_power_latency.h
sp-latency: $(SP_LATENCY)
.PHONY: sp-latency
