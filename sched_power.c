// SPDX-License-Identifier: GPL-2.0
/*
 * Module init and exit: power-aware wake-up placement
 * layered on CFS.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: module life cycle
 *
 * Init builds the parts in dependency order, each one complete before the
 * next may use it: the knobs' initial values, the energy model
 * (energy_model.c), the idle snapshot and its probes (cpuidle_hook.c), the
 * latency bounds (latency.c), the OPP floor (opp_floor.c), and only then
 * the wake-up hook (select_hook.c), from which point decisions run, and
 * the load-balancer gate (balance_hook.c), which registers itself whenever
 * the knobs want it.  The
 * user interface (the sysfs directory /sys/kernel/sched_power and the
 * debugfs directory sched_power) comes next, so no file can be written
 * before everything behind it exists, and /dev/sched_power_latency last:
 * an open() of it holds the module, so no step after it may fail.  Exit
 * removes the device and that interface first (kernfs and debugfs wait
 * for every read or write in progress), then the gate and the hook, and
 * tears the parts down in the reverse order.  The test-only parameter
 * fail_init_step=N fails step N (1-9, in that order) before it runs, so
 * that selftests/test_latency.sh can check every unwinding path.
 */
#define pr_fmt(fmt) "sched_power: " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/sysfs.h>

#include "sched_power.h"

#define CREATE_TRACE_POINTS
#include "sched_power_trace.h"

static char *mode = "observe";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "initial mode: off, observe, power, balanced, performance");

static int fail_init_step;
module_param(fail_init_step, int, 0444);
MODULE_PARM_DESC(fail_init_step, "test only: fail init step N (1-9) before it runs; 0 = none");

/* -ECANCELED if fail_init_step names @step, else 0. */
static int sp_main_fail(int step)
{
	if (step != fail_init_step)
		return 0;
	pr_info("fail_init_step=%d: init step %d fails\n", step, step);
	return -ECANCELED;
}

static const struct attribute_group *sp_main_groups[] = {
	&sp_knob_group,
	&sp_stat_group,
	&sp_mfile_group,
	&sp_idlestat_idle_group,
	&sp_idlestat_energy_group,
	NULL,
};

static struct kobject *sp_main_kobj;
static struct dentry *sp_main_debugfs;

static int sp_main_ui_create(void)
{
	int ret;

	sp_main_kobj = kobject_create_and_add("sched_power", kernel_kobj);
	if (!sp_main_kobj)
		return -ENOMEM;
	ret = sysfs_create_groups(sp_main_kobj, sp_main_groups);
	if (ret) {
		kobject_put(sp_main_kobj);
		sp_main_kobj = NULL;
		sp_mfile_exit();
		return ret;
	}
	/* debugfs is optional: a board without it keeps the sysfs files */
	sp_main_debugfs = debugfs_create_dir("sched_power", NULL);
	sp_stat_debugfs(sp_main_debugfs);
	sp_idlestat_debugfs(sp_main_debugfs);
	sp_lat_debugfs(sp_main_debugfs);
	sp_floor_debugfs(sp_main_debugfs);
	sp_redirect_debugfs(sp_main_debugfs);
	return 0;
}

static void sp_main_ui_remove(void)
{
	debugfs_remove_recursive(sp_main_debugfs);
	sp_main_debugfs = NULL;
	sysfs_remove_groups(sp_main_kobj, sp_main_groups);
	kobject_put(sp_main_kobj);
	sp_main_kobj = NULL;
	sp_mfile_exit();
}

static int __init sp_main_init(void)
{
	int ret;

	ret = sp_main_fail(1) ?: sp_knob_init(mode);
	if (ret)
		return ret;
	ret = sp_main_fail(2) ?: sp_em_init();
	if (ret)
		return ret;
	ret = sp_main_fail(3) ?: sp_cpuidle_init();
	if (ret)
		goto err_em;
	ret = sp_main_fail(4) ?: sp_lat_init();
	if (ret)
		goto err_idle;
	ret = sp_main_fail(5) ?: sp_floor_init();
	if (ret)
		goto err_lat;
	sp_stat_init();
	ret = sp_main_fail(6) ?: sp_select_init();
	if (ret)
		goto err_floor;
	ret = sp_main_fail(7) ?: sp_balance_init();
	if (ret)
		goto err_hook;
	ret = sp_main_fail(8) ?: sp_main_ui_create();
	if (ret)
		goto err_gate;
	ret = sp_main_fail(9) ?: sp_lat_dev_register();
	if (ret)
		goto err_ui;
	pr_info("loaded, version %s, mode %s\n", SP_VERSION, mode);
	return 0;

err_ui:
	sp_main_ui_remove();
err_gate:
	sp_balance_exit();
err_hook:
	sp_select_exit();
err_floor:
	sp_floor_exit();
err_lat:
	sp_lat_exit();
err_idle:
	sp_cpuidle_exit();
err_em:
	sp_em_exit();
	return ret;
}

static void __exit sp_main_exit(void)
{
	sp_lat_dev_unregister();
	sp_main_ui_remove();
	sp_balance_exit();
	sp_select_exit();
	sp_floor_exit();
	sp_lat_exit();
	sp_cpuidle_exit();
	sp_em_exit();
	pr_info("unloaded\n");
}

module_init(sp_main_init);
module_exit(sp_main_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Power-aware task placement: energy model, idle tracking, wake-up hook");
MODULE_VERSION(SP_VERSION);
MODULE_AUTHOR("sched_power developers");
