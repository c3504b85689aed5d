# SPDX-License-Identifier: GPL-2.0
# Latency bounds (core/sp_bound.c): write parsing, floor, admission, which
# CPUs a bound holds.
HOST_TESTS += $(BUILD)/tests/test_bound

# Issue 22 item 7: CPU 3 hot-removed (ACPI eject) under a resume-latency
# request.  Destructive, and qemu removes a vCPU only under multi-threaded
# TCG: a VM run of its own, selftests/test_latency_hotremove.sh alone.
vm-lat-hotremove: module guest-tools
	SP_VM_TCG=multi SP_LAT_HOTREMOVE=1 SP_VM_ENV=SP_LAT_HOTREMOVE \
		SP_TESTS=latency_hotremove ./selftests/vm-run.sh --tests
.PHONY: vm-lat-hotremove
