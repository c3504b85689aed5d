# SPDX-License-Identifier: GPL-2.0
# Guest helpers for the test cpufreq driver sp_testfreq.ko
# (Documentation/testfreq.rst), sourced by guest-run.sh and test_freq.sh
# (busybox ash).  vm-run.sh puts the driver at $TF_KO when it was built for
# the guest's kernel (make testfreq, make arm64-testfreq).

TF_KO=/sp/sp_testfreq.ko
TF_CPUFREQ=/sys/devices/system/cpu/cpufreq
TF_VERBOSE=/sys/kernel/debug/sched/verbose

# tf_loaded: is sp_testfreq the cpufreq driver now?
tf_loaded() {
	grep -q '^sp_testfreq ' /proc/modules
}

# tf_asym: do the CPUs have unequal capacities (big.LITTLE)?
tf_asym() {
	[ "$(cat /sys/devices/system/cpu/cpu*/cpu_capacity 2>/dev/null | sort -u | wc -l)" -gt 1 ]
}

# tf_load [PARAMS]: insmod the driver.  On a big.LITTLE board the scheduler's
# verbose debug is on while the sched domains are rebuilt (the governor
# change queues the rebuild), so that dmesg says whether EAS started; the
# wait ends at the message or after 5 s.  Status of insmod, its error in
# /tmp/tf_insmod.err.
tf_load() {
	v=""
	tf_asym && [ -f $TF_VERBOSE ] && v=$(cat $TF_VERBOSE) && echo Y >$TF_VERBOSE
	insmod $TF_KO "$@" 2>/tmp/tf_insmod.err
	rc=$?
	if [ -n "$v" ]; then
		i=0
		while [ $i -lt 50 ] && ! dmesg | grep -q 'sched_energy_set: starting EAS'; do
			sleep 0.1
			i=$((i + 1))
		done
		echo "$v" >$TF_VERBOSE
	fi
	return $rc
}

# tf_unload: rmmod the driver (busybox rmmod can meet EAGAIN: retried).
tf_unload() {
	i=0
	while ! rmmod sp_testfreq 2>/tmp/tf_rmmod.err; do
		i=$((i + 1))
		[ $i -lt 20 ] || return 1
		sleep 0.1
	done
}

# tf_policies: the policy directories, one per line.
tf_policies() {
	ls -d $TF_CPUFREQ/policy[0-9]* 2>/dev/null
}

# tf_pol_of CPU: the policy directory CPU belongs to.
tf_pol_of() {
	for p in $(tf_policies); do
		for c in $(tf_cpus "$(cat "$p/related_cpus")"); do
			[ "$c" = "$1" ] && echo "$p" && return 0
		done
	done
	return 1
}

# tf_cpus "0-2 4": the CPUs of a list (ranges expanded), space-separated.
tf_cpus() {
	echo "$1" | tr ',' ' ' | tr ' ' '\n' | awk -F- 'NF { if (NF == 1) print $1; else for (c = $1; c <= $2; c++) print c }' | tr '\n' ' '
}

# tf_floor_khz CPU: sched_power's floor for CPU (debugfs opp_floor), 0 if none.
tf_floor_khz() {
	awk -v c="cpu$1" '$1 == c { print $3; f = 1 } END { if (!f) print 0 }' $DBG/opp_floor 2>/dev/null
}

# tf_online CPU 0|1: hotplug, status of the write.
tf_online() {
	( echo "$2" >/sys/devices/system/cpu/cpu$1/online ) 2>/dev/null
}

# tf_eas_missing: the first condition of kernel/sched/topology.c's
# build_perf_domains() (6.1) that this board fails, or nothing.
tf_eas_missing() {
	[ "$(cat /proc/sys/kernel/sched_energy_aware 2>/dev/null)" = 1 ] ||
		{ echo "kernel.sched_energy_aware is not 1"; return; }
	tf_asym || { echo "no asymmetric CPU capacities (all cpu_capacity equal)"; return; }
	if cat /sys/devices/system/cpu/cpu*/topology/thread_siblings_list | grep -q '[,-]'; then
		echo "SMT siblings (EAS does not handle SMT)"; return
	fi
	tf_loaded || [ -n "$(tf_policies)" ] || { echo "no cpufreq driver (frequency invariance, schedutil)"; return; }
	n=0 ps=0
	for p in $(tf_policies); do
		g=$(cat "$p/scaling_governor")
		[ "$g" = schedutil ] || { echo "${p##*/} governor is $g, not schedutil"; return; }
		c=$(tf_cpus "$(cat "$p/related_cpus")"); c=${c%% *}
		[ -d /sys/kernel/debug/energy_model/cpu$c ] ||
			{ echo "no Energy Model for ${p##*/} (debugfs energy_model/cpu$c)"; return; }
		n=$((n + 1))
		ps=$((ps + $(ls -d /sys/kernel/debug/energy_model/cpu$c/ps:* | wc -l)))
	done
	[ $((n * (ps + $(nproc)))) -le 2048 ] ||
		{ echo "EM complexity $((n * (ps + $(nproc)))) above 2048"; return; }
}

# The x86 guest's test cpuidle driver sp_testidle.ko, which vm-run.sh puts
# at $TI_KO when it was built for the guest's kernel (make testfreq).  It is
# loaded for a whole boot (SP_TESTIDLE=1): every CPU's cpuidle device holds
# a reference on it, so it cannot be unloaded.
TI_KO=/sp/sp_testidle.ko
TI_CPUIDLE=/sys/devices/system/cpu/cpuidle

# ti_driver, ti_governor: cpuidle's current driver and governor.
ti_driver() {
	cat $TI_CPUIDLE/current_driver 2>/dev/null || echo none
}

ti_governor() {
	cat $TI_CPUIDLE/current_governor_ro 2>/dev/null || cat $TI_CPUIDLE/current_governor 2>/dev/null
}

# ti_boot: load it if SP_TESTIDLE=1; TI_STATE says what happened (empty:
# not asked for, "ok: ..." or "failed: ...").
ti_boot() {
	TI_STATE=
	[ "${SP_TESTIDLE:-0}" = 1 ] || return 0
	# the boot's own messages apart: guest-run.sh judges what follows
	dmesg -c >/tmp/dmesg.preti 2>/dev/null
	if [ ! -f $TI_KO ]; then
		TI_STATE="failed: no $TI_KO (make testfreq, for the x86 guest's kernel)"
	elif ! insmod $TI_KO 2>/tmp/ti_insmod.err; then
		TI_STATE="failed: $(cat /tmp/ti_insmod.err)"
	elif [ "$(ti_driver)" != sp_testidle ]; then
		TI_STATE="failed: cpuidle's driver is $(ti_driver)"
	else
		TI_STATE="ok: driver sp_testidle, governor $(ti_governor), $(ls -d /sys/devices/system/cpu/cpu0/cpuidle/state* | wc -l) states"
	fi
	echo "# sp_testidle: $TI_STATE"
}
