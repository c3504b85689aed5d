# SPDX-License-Identifier: GPL-2.0
# make vm-overhead: the hook's cost under perf bench sched pipe and
# messaging in the VM, timed (bootstrap intervals) and counted in
# instructions by a qemu TCG plugin (Documentation/overhead.rst).
OVH_DIR := $(BUILD)/tools/overhead

$(OVH_DIR)/ovh-stats: tools/overhead/ovh_stats.c tools/overhead/ovh_stats_lib.c tools/overhead/ovh_stats.h \
		$(BOOT_CI_SRCS) $(BOOT_CI_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -Itools/overhead -Itools/lib tools/overhead/ovh_stats.c \
		tools/overhead/ovh_stats_lib.c $(BOOT_CI_SRCS) -lm -o $@

$(OVH_DIR)/sp_insn_plugin.so: tools/overhead/sp_insn_plugin.c
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -fPIC -shared $< -o $@

.PHONY: vm-overhead
vm-overhead: module guest-tools $(OVH_DIR)/ovh-stats $(OVH_DIR)/sp_insn_plugin.so
	tools/overhead/vm-overhead
