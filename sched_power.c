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
 * next may use it: the policy knobs' initial values, the energy model
 * (energy_model.c), the idle snapshot and its probes (cpuidle_hook.c), the
 * latency bounds and their device (latency.c), the OPP floor (opp_floor.c),
 * and only then the wake-up hook
 * (select_hook.c), from which point decisions run.  The user interface
 * (the sysfs directory /sys/kernel/sched_power and the debugfs directory
 * sched_power) is created last, so no file can be written before
 * everything behind it exists.  Exit removes that interface first (kernfs
 * and debugfs wait for every read or write in progress), then the hook,
 * and tears the parts down in the reverse order.
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

static const struct attribute_group *sp_groups[] = {
	&sp_policy_group,
	&sp_hook_group,
	&sp_stats_group,
	&sp_mfile_group,
	&sp_idle_group,
	&sp_energy_group,
	NULL,
};

static struct kobject *sp_kobj;
static struct dentry *sp_debugfs;

static int sp_ui_create(void)
{
	int ret;

	sp_kobj = kobject_create_and_add("sched_power", kernel_kobj);
	if (!sp_kobj)
		return -ENOMEM;
	ret = sysfs_create_groups(sp_kobj, sp_groups);
	if (ret) {
		kobject_put(sp_kobj);
		sp_kobj = NULL;
		sp_mfile_exit();
		return ret;
	}
	/* debugfs is optional: a board without it keeps the sysfs files */
	sp_debugfs = debugfs_create_dir("sched_power", NULL);
	sp_hook_debugfs(sp_debugfs);
	sp_idle_debugfs(sp_debugfs);
	sp_lat_debugfs(sp_debugfs);
	sp_floor_debugfs(sp_debugfs);
	return 0;
}

static void sp_ui_remove(void)
{
	debugfs_remove_recursive(sp_debugfs);
	sp_debugfs = NULL;
	sysfs_remove_groups(sp_kobj, sp_groups);
	kobject_put(sp_kobj);
	sp_kobj = NULL;
	sp_mfile_exit();
}

static int __init sp_init(void)
{
	int ret;

	ret = sp_policy_init(mode);
	if (ret)
		return ret;
	ret = sp_em_init();
	if (ret)
		return ret;
	ret = sp_idle_init();
	if (ret)
		goto err_em;
	ret = sp_lat_init();
	if (ret)
		goto err_idle;
	ret = sp_floor_init();
	if (ret)
		goto err_lat;
	ret = sp_hook_init();
	if (ret)
		goto err_floor;
	ret = sp_ui_create();
	if (ret)
		goto err_hook;
	pr_info("loaded, version %s, mode %s\n", SP_VERSION, mode);
	return 0;

err_hook:
	sp_hook_exit();
err_floor:
	sp_floor_exit();
err_lat:
	sp_lat_exit();
err_idle:
	sp_idle_exit();
err_em:
	sp_em_exit();
	return ret;
}

static void __exit sp_exit(void)
{
	sp_ui_remove();
	sp_hook_exit();
	sp_floor_exit();
	sp_lat_exit();
	sp_idle_exit();
	sp_em_exit();
	pr_info("unloaded\n");
}

module_init(sp_init);
module_exit(sp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Power-aware task placement: energy model, idle tracking, wake-up hook");
MODULE_VERSION(SP_VERSION);
MODULE_AUTHOR("sched_power developers");
