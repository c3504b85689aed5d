# SPDX-License-Identifier: GPL-2.0
#
# pb-meter.sh - power-bench's energy meters, sourced by pb-run.sh (POSIX sh,
# busybox in the guest).  Every meter gives one reading per counter, taken
# before and after a run; meter_delta turns two readings into microjoules.
#
#   rapl    /sys/class/powercap/intel-rapl:N/energy_uj (package domains,
#           not their subzones), wrapping at max_energy_range_uj
#   hwmon   /sys/class/hwmon/hwmonN/energyM_input (uJ, 64-bit, no wrap)
#   meter   an external meter: PB_METER names a command that prints the uJ
#           used since its last call (the call before a run starts it)
#
# PB_SYSFS (default /sys) is the sysfs root, so that the host tests read
# fake trees (tests/test_power_bench.c).

PB_SYSFS=${PB_SYSFS:-/sys}

# rapl_read: "VALUE MAX" per package domain.
rapl_read() {
	for z in "$PB_SYSFS"/class/powercap/intel-rapl:*; do
		case ${z##*/} in *:*:*) continue ;; esac
		[ -r "$z/energy_uj" ] || continue
		echo "$(cat "$z/energy_uj") $(cat "$z/max_energy_range_uj" 2>/dev/null || echo 0)"
	done
}

# hwmon_read: "VALUE 0" per energy counter (0: it does not wrap).
hwmon_read() {
	for f in "$PB_SYSFS"/class/hwmon/hwmon*/energy*_input "$PB_SYSFS"/class/hwmon/hwmon*/device/energy*_input; do
		[ -r "$f" ] || continue
		v=$(cat "$f" 2>/dev/null) || continue
		case $v in '' | *[!0-9]*) continue ;; esac
		echo "$v 0"
	done
}

# meter_read SRC: the reading of source SRC (rapl, hwmon), empty if none.
meter_read() {
	case $1 in
	rapl) rapl_read ;;
	hwmon) hwmon_read ;;
	esac
}

# meter_delta BEFORE AFTER: uJ summed over counters, wrap-corrected where a
# maximum is known; "-" if there are no counters, or their number changed,
# or one went backwards without a maximum.
meter_delta() {
	[ -n "$1" ] && [ -n "$2" ] || { echo -; return; }
	printf '%s\n%s\n' "$1" "$2" | awk -v nb="$(echo "$1" | wc -l)" -v na="$(echo "$2" | wc -l)" '
		{ v[NR] = $1; m[NR] = $2 }
		END {
			if (nb != na) { print "-"; exit }
			for (i = 1; i <= nb; i++) {
				d = v[i + nb] - v[i]
				if (d < 0 && m[i] > 0) d += m[i]
				if (d < 0) { print "-"; exit }
				s += d
			}
			printf "%.0f\n", s
		}'
}

# meters_present: the sources this machine has, in order of preference.
meters_present() {
	[ -z "$(rapl_read)" ] || echo rapl
	[ -z "$(hwmon_read)" ] || echo hwmon
}

# meter_cmd: the external meter's reading, uJ since its last call; "-" if
# it fails or prints no number.
meter_cmd() {
	v=$(sh -c "$PB_METER" 2>/dev/null | head -n 1 | tr -d ' \t\r')
	case $v in '' | *[!0-9.]*) echo - ;; *) echo "$v" ;; esac
}
