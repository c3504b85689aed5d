// SPDX-License-Identifier: GPL-2.0
/*
 * sp_testidle: a cpuidle driver for the x86 test guest.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: a cpuidle driver for the x86 test guest
 *
 * The x86 qemu guest has no cpuidle driver (no ACPI _CST under TCG, and
 * haltpoll needs KVM), so the idle loop takes default_idle_call(): the
 * governor never runs, and 6.1's do_idle() keeps the tick at the first
 * idle entry after a task ran (cpuidle_idle_call() stops it only after a
 * wake-up that was the tick).  Each task period then costs the package a
 * second wake-up, the tick that follows it and finds nothing to do
 * (Documentation/placement.rst, "What wakes the packages").  A board
 * decides the tick through its governor instead.  This test-only module
 * gives the guest that: a board's x86 driver's polling state POLL
 * (CPUIDLE_FLAG_POLLING, index 0, cpuidle_poll_state_init()) and the four
 * states of sched_power's x86 model (C1, C1E, C3, C6 with their exit
 * latencies and target residencies), so that the menu governor picks a
 * state from its prediction and stops the tick when the prediction is
 * long.
 *
 * POLL spins in poll_idle() as on a board, so the CPU runs: sched_power
 * marks it polling in its model (em_defaults.c) and keeps its package
 * awake while it polls (cpuidle_hook.c).  Every other state enters as the
 * default idle does, sti; hlt: under TCG nothing is deeper or slower to
 * wake, only the numbers differ.
 *
 * The driver is registered for every possible CPU at load
 * (cpuidle_register()); each CPU's cpuidle device then holds a reference
 * on the module, so it stays until reboot.  It is not part of sched_power
 * and is never installed on a board.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuidle.h>
#include <linux/module.h>
#include <linux/sched/idle.h>
#include <asm/irqflags.h>

/* sti; hlt, as default_idle(); returns with interrupts enabled */
static __cpuidle int sp_testidle_enter(struct cpuidle_device *dev,
				       struct cpuidle_driver *drv, int index)
{
	if (current_clr_polling_and_test()) {
		raw_local_irq_enable();
		return index;
	}
	raw_safe_halt();
	return index;
}

#define SP_TESTIDLE_STATE(n, exit, target)			\
	{							\
		.name = n,					\
		.desc = "sti; hlt (sp_testidle)",		\
		.exit_latency = exit,				\
		.target_residency = target,			\
		.enter = sp_testidle_enter,			\
	}

static struct cpuidle_driver sp_testidle_driver = {
	.name = "sp_testidle",
	.owner = THIS_MODULE,
	.states = {
		{ /* 0: POLL, cpuidle_poll_state_init() */ },
		SP_TESTIDLE_STATE("C1", 2, 2),
		SP_TESTIDLE_STATE("C1E", 10, 20),
		SP_TESTIDLE_STATE("C3", 80, 211),
		SP_TESTIDLE_STATE("C6", 104, 345),
	},
	.state_count = 5,
	.safe_state_index = 1,
};

static int __init sp_testidle_init(void)
{
	int ret;

	if (cpuidle_get_driver()) {
		pr_info("a cpuidle driver is registered already\n");
		return -EBUSY;
	}
	cpuidle_poll_state_init(&sp_testidle_driver);
	ret = cpuidle_register(&sp_testidle_driver, NULL);
	if (ret)
		pr_err("cpuidle_register: %d\n", ret);
	return ret;
}

static void __exit sp_testidle_exit(void)
{
	cpuidle_unregister(&sp_testidle_driver);
}

module_init(sp_testidle_init);
module_exit(sp_testidle_exit);
MODULE_DESCRIPTION("cpuidle driver for sched_power's x86 test guest");
MODULE_LICENSE("GPL");
