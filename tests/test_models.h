/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_models.h - model texts the host tests share.  x86_2pkg is a fixed
 * board for hand-computed cases: the 2-package shape of the qemu guest with
 * models/x86-2pkg.model's OPPs, but only two idle states (C1, and a C6 of
 * 80/240 us) and a package with a 300 us exit of its own.
 */
#ifndef SP_TEST_MODELS_H
#define SP_TEST_MODELS_H

static const char x86_2pkg[] =
	"sched_power_model version=1 cpus=4\n"
	"level name=package\n"
	"pd id=0 cpus=0-1\n"
	"opp pd=0 khz=800000 cap=256 uw=270000\n"
	"opp pd=0 khz=1600000 cap=512 uw=800000\n"
	"opp pd=0 khz=2400000 cap=768 uw=1670000\n"
	"opp pd=0 khz=3200000 cap=1024 uw=3200000\n"
	"idle pd=0 name=C1 uw=150000 exit_us=2 target_us=2 wake_uj=0\n"
	"idle pd=0 name=C6 uw=5000 exit_us=80 target_us=240 wake_uj=40\n"
	"pd id=1 cpus=2-3\n"
	"opp pd=1 khz=800000 cap=256 uw=270000\n"
	"opp pd=1 khz=1600000 cap=512 uw=800000\n"
	"opp pd=1 khz=2400000 cap=768 uw=1670000\n"
	"opp pd=1 khz=3200000 cap=1024 uw=3200000\n"
	"idle pd=1 name=C1 uw=150000 exit_us=2 target_us=2 wake_uj=0\n"
	"idle pd=1 name=C6 uw=5000 exit_us=80 target_us=240 wake_uj=40\n"
	"group level=package id=0 cpus=0-1 active_uw=2000000 idle_uw=100000 wake_uj=600 exit_us=300\n"
	"group level=package id=1 cpus=2-3 active_uw=2000000 idle_uw=100000 wake_uj=600 exit_us=300\n"
	"end\n";

/* The big.LITTLE phone of models/phone-biglittle.model. */
static const char phone[] =
	"sched_power_model version=1 cpus=8\n"
	"level name=cluster\n"
	"level name=package\n"
	"pd id=0 cpus=0-3\n"
	"opp pd=0 khz=500000 cap=100 uw=25000\n"
	"opp pd=0 khz=1000000 cap=200 uw=60000\n"
	"opp pd=0 khz=1500000 cap=300 uw=120000\n"
	"opp pd=0 khz=1800000 cap=360 uw=170000\n"
	"idle pd=0 name=WFI uw=10000 exit_us=1 target_us=1 wake_uj=0\n"
	"idle pd=0 name=cpu-off uw=1000 exit_us=150 target_us=800 wake_uj=20\n"
	"pd id=1 cpus=4-7\n"
	"opp pd=1 khz=800000 cap=290 uw=170000\n"
	"opp pd=1 khz=1400000 cap=510 uw=380000\n"
	"opp pd=1 khz=2000000 cap=730 uw=720000\n"
	"opp pd=1 khz=2400000 cap=870 uw=1100000\n"
	"opp pd=1 khz=2800000 cap=1024 uw=1650000\n"
	"idle pd=1 name=WFI uw=25000 exit_us=1 target_us=1 wake_uj=0\n"
	"idle pd=1 name=cpu-off uw=2000 exit_us=300 target_us=1500 wake_uj=60\n"
	"group level=cluster id=0 cpus=0-3 active_uw=30000 idle_uw=2000 wake_uj=80 exit_us=400\n"
	"group level=cluster id=1 cpus=4-7 active_uw=120000 idle_uw=5000 wake_uj=250 exit_us=800\n"
	"group level=package id=0 cpus=0-7 active_uw=300000 idle_uw=20000 wake_uj=150 exit_us=500\n"
	"end\n";

#endif /* SP_TEST_MODELS_H */
