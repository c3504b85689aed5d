# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by tests/check.sh and scripts/check-newer.sh (bash).
# phase NAME: prints how long the previous phase took ("# phase NAME took
# N s"), then times NAME; phase with no argument ends the last one.
phase_name='' phase_t0=$(date +%s)
phase() {
	local now
	now=$(date +%s)
	[ -z "$phase_name" ] || echo "# phase $phase_name took $((now - phase_t0)) s"
	phase_name=${1:-} phase_t0=$now
}
