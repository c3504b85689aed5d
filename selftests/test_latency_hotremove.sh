# SPDX-License-Identifier: GPL-2.0
# A physical CPU hot-remove under a resume-latency request (issue 22 item
# 7): a root process with a bound ran on CPU 3 and sleeps there, so CPU 3
# carries sched_power's request; the guest ejects CPU 3 (ACPI), which
# destroys the CPU device's requests.  Later QoS passes (another bound,
# the holder's exit, unload) must leave the dead request alone: no
# WARN "called for unknown object", no failed request.  Destructive (CPU 3
# is gone afterwards), and qemu's single-threaded TCG aborts when a vCPU
# is removed, so it runs only alone: `make vm-lat-hotremove`
# (SP_LAT_HOTREMOVE=1, multi-threaded TCG).
EJECT=/sys/bus/acpi/devices/LNXCPU:03/eject
LT=$DBG/latency
if [ "${SP_LAT_HOTREMOVE:-0}" != 1 ]; then
	tap_skip "latency_hotremove: a CPU hot-removed under a request" "destructive: make vm-lat-hotremove"
elif [ ! -e $EJECT ]; then
	tap_skip "latency_hotremove: a CPU hot-removed under a request" "no $EJECT"
else
	req3() { awk '$2 == "cpu" && $3 == 3 { print $5 }' $LT; }
	/sp/sp_lat ranon 3 300 60 >/tmp/hr_ran 2>&1 &
	hp=$!
	w=0; while ! grep -q ran= /tmp/hr_ran && [ $w -lt 200 ]; do sleep 0.1; w=$((w + 1)); done
	# the request comes with the next QoS pass (a delayed work, rate-gated):
	# wait for it up to 5 s, as a loaded host can delay the guest's work
	before=$(req3); w=0
	while [ "$before" != 300 ] && [ $w -lt 50 ]; do sleep 0.1; before=$(req3); w=$((w + 1)); done
	dmesg -c >>/tmp/dmesg.run
	# the eject returns before the CPU is gone (ACPI's hotplug work takes
	# it offline and removes it): wait for that, up to 20 s
	cpu3_gone() { [ ! -e /sys/devices/system/cpu/cpu3 ]; }
	sp_uptime_ms; t0=$UPTIME_MS
	echo 1 >$EJECT; erc=$?
	gone=no; SP_POLL_TRIES=200 sp_poll cpu3_gone && gone=yes
	sp_uptime_ms; tg=$((UPTIME_MS - t0))
	/sp/sp-latency --bound-us 200 -- /sp/sp_lat sleeper 20 1
	kill $hp; wait $hp 2>/dev/null
	# the holder's exit drops the request at the next QoS pass (delayed, rate-gated)
	req3_none() { [ "$(req3)" = -1 ]; }
	sp_poll req3_none
	after=$(req3)
	sp_out=$(dmesg | grep -E "$DMESG_BAD|unknown object|resume-latency request" | head -n 5)
	echo "# CPU 3 request before the eject: $before us (after $w polls of 0.1 s); eject rc=$erc, cpu3 gone: $gone (after $tg ms); after: $after"
	if [ "$before" = 300 ] && [ $erc -eq 0 ] && [ $gone = yes ] && [ "$after" = -1 ] && [ -z "$sp_out" ]; then
		tap_ok "latency_hotremove: CPU 3 removed under a 300 us request; later passes leave it alone, no WARN"
	else
		tap_fail "latency_hotremove: CPU 3 removed under a request" "before=$before erc=$erc gone=$gone after=$after" "$sp_out"
	fi
fi
