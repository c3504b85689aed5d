// SPDX-License-Identifier: GPL-2.0
/*
 * Redirecting a kernel function to a module wrapper with ftrace.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the ftrace redirect
 *
 * Linux has no loadable scheduling classes, so sched_power sits on a few
 * out-of-line functions of kernel/sched/fair.c.  A redirect is an
 * ftrace_ops with FTRACE_OPS_FL_IPMODIFY on one function: its callback
 * sets the saved instruction pointer to the module's wrapper, so every call
 * of the function runs the wrapper instead.  The wrapper calls the original
 * through sp_redirect.orig; that call passes the same ftrace site, and the
 * callback recognises it by its return address inside this module and
 * lets it through.  This is the mechanism livepatch uses.
 *
 * The wrapper must call the original with a real call, never a tail call:
 * a jump would return to the original's caller, outside this module, and
 * the callback would send the call to the wrapper again, for ever.
 *
 * The ops is dynamic (FTRACE_OPS_FL_DYNAMIC), so unregister_ftrace_function()
 * waits (RCU tasks) until no CPU is in the trampoline or the callback.  A
 * CPU may still be inside the wrapper when it returns; sp_redirect_unregister()
 * therefore ends with synchronize_rcu(), which covers wrappers that run with
 * preemption or interrupts disabled (the wake-up path, the load balancer's
 * softirq and its newidle path under the run-queue lock), so nothing of the
 * module runs once it returns.  Only one IPMODIFY ops may own a function: a
 * livepatch of the same function makes registration fail with -EBUSY.
 *
 * debugfs sched_power/redirects shows, per redirect asked to register at
 * least once, whether it is registered, how many registrations failed and
 * the last failure's errno.  debugfs sched_power/fail_redirect is for
 * tests: while it holds a redirected function's name, every registration
 * of that function fails with -EBUSY at the point where ftrace refuses a
 * second IPMODIFY user.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#include "sched_power.h"

#define SP_REDIRECT_NAME_LEN	64

/* Serialises the list of redirects and the injected failure. */
static DEFINE_MUTEX(sp_redirect_lock);
static LIST_HEAD(sp_redirect_list);
/* fail_redirect: the function whose registration fails, "" for none */
static char sp_redirect_fail[SP_REDIRECT_NAME_LEN];

/**
 * sp_redirect_lookup() - address of a kernel function by name
 * @name: the symbol
 *
 * kallsyms_lookup_name() is not exported; a kprobe registered disabled
 * resolves the name without ever being armed.  The offset sprint_symbol()
 * reports (an arch may place the probe past a landing pad) is taken off, so
 * the result is the entry an indirect call may target.
 *
 * Context: process context; allocates.
 *
 * Return: the function's entry address, or 0 if @name is not a function
 * that a kprobe can resolve (or no memory was left to ask).
 */
unsigned long sp_redirect_lookup(const char *name)
{
	struct sp_redirect_probe {
		struct kprobe kp;
		char sym[KSYM_SYMBOL_LEN];
	} *p;
	unsigned long addr = 0, off = 0;
	char *plus;

	/* a kprobe and a symbol line: too large for the stack */
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return 0;
	p->kp.symbol_name = name;
	p->kp.flags = KPROBE_FLAG_DISABLED;
	if (register_kprobe(&p->kp))
		goto out;
	addr = (unsigned long)p->kp.addr;
	unregister_kprobe(&p->kp);
	sprint_symbol(p->sym, addr);
	plus = strchr(p->sym, '+');
	if (!plus || strncmp(p->sym, name, plus - p->sym) || plus - p->sym != strlen(name) ||
	    sscanf(plus + 1, "0x%lx/", &off) != 1 || off > addr)
		addr = 0;	/* not @name's entry: nothing resolved */
out:
	kfree(p);
	return addr ? addr - off : 0;
}

static void notrace sp_redirect_ip(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *ops,
				   struct ftrace_regs *fregs)
{
	const struct sp_redirect *r = container_of(ops, struct sp_redirect, ops);

	/*
	 * The wrapper's own call of the original goes through.  Wrappers are
	 * core text, never __init: the core range alone says it.
	 */
	if (within_module_core(parent_ip, THIS_MODULE))
		return;
#if defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) && \
	KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE
	ftrace_regs_set_instruction_pointer(fregs, READ_ONCE(r->wrapper));
#elif defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
	ftrace_instruction_pointer_set(fregs, READ_ONCE(r->wrapper));
#else
	instruction_pointer_set(ftrace_get_regs(fregs), READ_ONCE(r->wrapper));
#endif
}

/*
 * -EBUSY if fail_redirect names @r's function, as ftrace refuses a second
 * IPMODIFY ops on one function; else 0.
 */
static int sp_redirect_fault(const struct sp_redirect *r)
{
	bool fail;

	mutex_lock(&sp_redirect_lock);
	fail = !strcmp(sp_redirect_fail, r->name);
	mutex_unlock(&sp_redirect_lock);
	if (!fail)
		return 0;
	pr_info("fail_redirect: registration of %s fails with -EBUSY\n", r->name);
	return -EBUSY;
}

/* Note a registration's outcome for debugfs redirects. */
static void sp_redirect_account(struct sp_redirect *r, int ret)
{
	mutex_lock(&sp_redirect_lock);
	if (!r->listed) {
		list_add_tail(&r->node, &sp_redirect_list);
		r->listed = true;
	}
	WRITE_ONCE(r->registered, !ret);
	if (ret) {
		WRITE_ONCE(r->failures, r->failures + 1);
		WRITE_ONCE(r->last_err, ret);
	}
	mutex_unlock(&sp_redirect_lock);
}

/**
 * sp_redirect_register() - send every call of a kernel function to a wrapper
 * @r: the redirect; ->names (NULL-terminated, tried in order: a function
 *     renamed across kernel versions) and ->wrapper set by the caller
 *
 * The first registration resolves the name (@r->orig then holds the
 * original's address, for the wrapper to call, and @r->name the name that
 * was found); a redirect unregistered and registered again, as mode=off and
 * back do, reuses it.
 *
 * Return: 0, -ENOENT if no name resolves, or ftrace's error (-EBUSY when
 * another IPMODIFY user such as a livepatch owns the function, or when
 * debugfs fail_redirect names it).
 */
int sp_redirect_register(struct sp_redirect *r)
{
	unsigned long addr = READ_ONCE(r->orig);
	const char *const *n;
	int ret;

	for (n = r->names; *n && !addr; n++) {
		addr = sp_redirect_lookup(*n);
		r->name = *n;
	}
	if (!addr) {
		pr_err("cannot resolve %s\n", r->names[0]);
		sp_redirect_account(r, -ENOENT);
		return -ENOENT;
	}
	if (!r->filtered) {
		r->ops.func = sp_redirect_ip;
		r->ops.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_PERMANENT |
#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
			       FTRACE_OPS_FL_SAVE_REGS |
#endif
			       FTRACE_OPS_FL_DYNAMIC;
		ret = ftrace_set_filter_ip(&r->ops, addr, 0, 0);
		if (ret) {
			pr_err("ftrace_set_filter_ip(%s): %d\n", r->name, ret);
			sp_redirect_account(r, ret);
			return ret;
		}
		r->filtered = true;
		WRITE_ONCE(r->orig, addr);
	}
	ret = sp_redirect_fault(r) ?: register_ftrace_function(&r->ops);
	if (ret)
		pr_err("register_ftrace_function(%s): %d (another IPMODIFY user, e.g. a livepatch?)\n",
		       r->name, ret);
	sp_redirect_account(r, ret);
	return ret;
}

/**
 * sp_redirect_unregister() - undo sp_redirect_register()
 * @r: a registered redirect
 *
 * Returns once no CPU runs the trampoline, the callback or the wrapper
 * (see the DOC block).  The filter stays, for the next registration.
 * Sleeps.
 */
void sp_redirect_unregister(struct sp_redirect *r)
{
	unregister_ftrace_function(&r->ops);
	WRITE_ONCE(r->registered, false);
	/* a CPU still in the wrapper runs with preemption disabled */
	synchronize_rcu();
}

/**
 * sp_redirect_release() - free the filter of a redirect not registered now
 * @r: the redirect, at module exit
 *
 * ftrace_free_filter() frees the hashes without resetting them, so it is
 * called once, when the ops will never be registered again.
 */
void sp_redirect_release(struct sp_redirect *r)
{
	if (r->filtered)
		ftrace_free_filter(&r->ops);
	r->filtered = false;
	mutex_lock(&sp_redirect_lock);
	if (r->listed)
		list_del(&r->node);
	r->listed = false;
	mutex_unlock(&sp_redirect_lock);
}

/* ---- debugfs: redirects, fail_redirect --------------------------------- */

static int sp_redirect_show(struct seq_file *sf, void *v)
{
	const struct sp_redirect *r;

	mutex_lock(&sp_redirect_lock);
	list_for_each_entry(r, &sp_redirect_list, node)
		seq_printf(sf, "%s registered %d failures %u last_error %d\n",
			   r->name, READ_ONCE(r->registered),
			   READ_ONCE(r->failures), READ_ONCE(r->last_err));
	mutex_unlock(&sp_redirect_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sp_redirect);

static ssize_t sp_redirect_fail_read(struct file *f, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char text[SP_REDIRECT_NAME_LEN + 1];
	int len;

	mutex_lock(&sp_redirect_lock);
	len = scnprintf(text, sizeof(text), "%s\n",
			sp_redirect_fail[0] ? sp_redirect_fail : "none");
	mutex_unlock(&sp_redirect_lock);
	return simple_read_from_buffer(ubuf, count, ppos, text, len);
}

/* A function's name, or "none"; one trailing newline allowed. */
static ssize_t sp_redirect_fail_write(struct file *f, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char text[SP_REDIRECT_NAME_LEN];
	size_t len = count;

	if (*ppos || !count || count >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, count))
		return -EFAULT;
	if (text[len - 1] == '\n')
		len--;
	text[len] = '\0';
	if (!len || strlen(text) != len || strchr(text, ' '))
		return -EINVAL;
	mutex_lock(&sp_redirect_lock);
	strscpy(sp_redirect_fail, strcmp(text, "none") ? text : "",
		sizeof(sp_redirect_fail));
	mutex_unlock(&sp_redirect_lock);
	return count;
}

static const struct file_operations sp_redirect_fail_fops = {
	.owner = THIS_MODULE,
	.read = sp_redirect_fail_read,
	.write = sp_redirect_fail_write,
	.llseek = default_llseek,
};

/**
 * sp_redirect_debugfs() - create debugfs redirects and fail_redirect
 * @root: sched_power's debugfs directory
 */
void sp_redirect_debugfs(struct dentry *root)
{
	debugfs_create_file("redirects", 0444, root, NULL, &sp_redirect_fops);
	debugfs_create_file("fail_redirect", 0600, root, NULL,
			    &sp_redirect_fail_fops);
}
