// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs the placement decision reads.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the knobs
 *
 * /sys/kernel/sched_power/ holds one value per file: mode, margin_pct,
 * overutil_pct, window_us, latency_us, wake_types, opp_floor,
 * balance_gate and kick_gate
 * (Documentation/ABI/testing/sysfs-kernel-sched_power gives values and
 * units).  The wake-up hook reads them with READ_ONCE(); each field is
 * written whole, so a decision sees every knob either before or after a
 * write, never torn.
 *
 * Writes are parsed strictly: the whole buffer must be one value,
 * optionally followed by one newline.  Anything else (empty, blanks, a NUL
 * byte, a sign, several values, a number out of range) fails with -EINVAL
 * and changes nothing.  A value split over several write() calls (dd
 * bs=1) cannot be told from a short one by its first chunk, so the first
 * chunk is applied, and the next chunk of the same open file restores the
 * value from before and fails with -EINVAL: a partial write leaves the
 * knob as it was.  "The same open file" is a token the first chunk leaves
 * in the file's kernfs open-file record, which every open gets afresh.
 *
 * A valid value is stored, then published to the knobs' subscribers
 * (sp_knob_subscribe()), which register or remove what the new value asks
 * for: the ftrace redirects of the wake-up hook and the balancer gate, the
 * idle and migration probes.  A subscriber that cannot (the redirect's
 * function is owned by a livepatch or another IPMODIFY ftrace user:
 * -EBUSY; no memory: -ENOMEM) refuses the write: the subscribers that
 * have applied it are asked to undo it, the knob gets its value back, and
 * the write fails with the subscriber's errno.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kernfs.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "sched_power.h"

#define SP_KNOB_MAX_LEN		64
#define SP_WAKE_ALL		(BIT(SP_WAKE_NR) - 1)

/* read by sp_knob_snapshot() in sched_power.h; written here only */
struct sp_knobs sp_knob_values = {
	.mode = SP_MODE_OBSERVE,
	.margin_pct = 5,
	.overutil_pct = 80,
	.window_us = 4000,
	.latency_us = 0,
};

u32 sp_knob_wake_mask = SP_WAKE_ALL;	/* read by sp_knob_wants() */
static u32 sp_knob_floor = 1;	/* power mode floors each domain's OPP */
static u32 sp_knob_gate = 1;	/* 1: power/balanced modes gate the balancer */
static u32 sp_knob_kick = 1;	/* 1: ... and the busy ticks' idle-balance kicks */

static BLOCKING_NOTIFIER_HEAD(sp_knob_chain);

/**
 * sp_knob_subscribe() - be told of every knob write
 * @nb: the subscriber
 *
 * A write of any knob is published on a blocking notifier chain after the
 * new value is visible, in the writer's process context, under the knobs'
 * lock: the subscribers act on one write at a time, in the order they
 * subscribed, so a write's last subscriber has acted before the next
 * write's first one starts (the idle probes restart their snapshot only
 * while the wake-up hook is off).  A subscriber must not write a knob.
 * Register during init, unregister during exit.
 *
 * The chain is called with blocking_notifier_call_chain_robust().  Each
 * subscriber gets SP_KNOB_APPLY and brings what it owns in line with the
 * knobs; it may refuse the write with notifier_from_errno(), and must
 * then leave its own state as it was.  The subscribers before the one that
 * refused then get SP_KNOB_ROLLBACK, with the knob's value from before
 * the write back in place (the knobs' own first subscriber restores it),
 * and bring their state in line with it; a rollback is not refused.  The
 * write then fails with the refusal's errno.
 *
 * Return: the notifier chain's result (0).
 */
int sp_knob_subscribe(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&sp_knob_chain, nb);
}

/**
 * sp_knob_unsubscribe() - stop being told of knob writes
 * @nb: a subscriber of sp_knob_subscribe()
 */
void sp_knob_unsubscribe(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&sp_knob_chain, nb);
}

/**
 * sp_knob_mode() - the mode in force
 *
 * Return: enum sp_mode; any context.
 */
u32 sp_knob_mode(void)
{
	return READ_ONCE(sp_knob_values.mode);
}

/**
 * sp_knob_floor_on() - is the opp_floor knob set?
 *
 * Return: true if it is 1; any context.
 */
bool sp_knob_floor_on(void)
{
	return READ_ONCE(sp_knob_floor);
}

/**
 * sp_knob_balance_gate_on() - is the balance_gate knob 1?
 *
 * Return: true if the load-balancer gate may act (in power and balanced
 * mode only: sp_gate_begin() checks the mode).
 */
bool sp_knob_balance_gate_on(void)
{
	return READ_ONCE(sp_knob_gate);
}

/**
 * sp_knob_kick_gate_on() - is the kick_gate knob 1?
 *
 * Return: true if the kick gate may act (with balance_gate 1, in power and
 * balanced mode only).
 */
bool sp_knob_kick_gate_on(void)
{
	return READ_ONCE(sp_knob_kick);
}

/*
 * Serialises knob writes, the subscribers' calls, and the "previous value"
 * and token kept for partial writes.  A writer waits for it interruptibly:
 * a subscriber may wait for RCU grace periods or text patching.
 */
static DEFINE_MUTEX(sp_knob_lock);

/* A write in flight: the knob and its value before the write. */
struct sp_knob_write {
	u32 *field;
	u32 prev;
};

/*
 * First on the chain: the rollback of a refused write starts here, so the
 * subscribers that undo the write read the knobs as they were before it.
 */
static int sp_knob_restore(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	const struct sp_knob_write *w = data;

	if (action == SP_KNOB_ROLLBACK)
		WRITE_ONCE(*w->field, w->prev);
	return NOTIFY_OK;
}

static struct notifier_block sp_knob_restore_nb = {
	.notifier_call = sp_knob_restore,
	.priority = INT_MAX,
};

/*
 * Store @v in @field and publish it.  Return: 0, or the errno of the
 * subscriber that refused it, with @field and every subscriber as before.
 */
static int sp_knob_publish(u32 *field, u32 v)
{
	struct sp_knob_write w = { .field = field, .prev = READ_ONCE(*field) };
	int ret;

	lockdep_assert_held(&sp_knob_lock);
	WRITE_ONCE(*field, v);
	ret = blocking_notifier_call_chain_robust(&sp_knob_chain, SP_KNOB_APPLY,
						  SP_KNOB_ROLLBACK, &w);
	return notifier_to_errno(ret);
}

/**
 * sp_knob_answer() - a subscriber's answer to a knob write
 * @refuse: the write asked for what failed (an apply), so it is refused
 * @ret: 0, or the errno of what the subscriber could not do
 * @what: what it could not do, for the log
 * @then: what follows when the write is not refused, for the log
 *
 * Return: NOTIFY_OK, or @ret as the chain's refusal if @refuse.
 */
int sp_knob_answer(bool refuse, int ret, const char *what, const char *then)
{
	if (!ret)
		return NOTIFY_OK;
	pr_warn_ratelimited("%s (%d): %s\n", what, ret,
			    refuse ? "knob write refused" : then);
	return refuse ? notifier_from_errno(ret) : NOTIFY_OK;
}

/* ---- strict parsing ---------------------------------------------------- */

/*
 * Copy @count bytes of @buf into @out without the one trailing newline
 * allowed; -EINVAL if empty, too long or holding a NUL byte.
 */
static int sp_knob_text(const char *buf, size_t count, char *out)
{
	if (count && buf[count - 1] == '\n')
		count--;
	if (!count || count >= SP_KNOB_MAX_LEN || memchr(buf, '\0', count))
		return -EINVAL;
	memcpy(out, buf, count);
	out[count] = '\0';
	return 0;
}

/* Plain decimal digits only, within [min, max]. */
static int sp_knob_digits(const char *s, u32 min, u32 max, u32 *v)
{
	u64 x = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		x = x * 10 + (*s - '0');
		if (x > max)
			return -EINVAL;
	}
	if (x < min)
		return -EINVAL;
	*v = x;
	return 0;
}

static int sp_knob_mode_of(const char *s, u32 *v)
{
	u32 i;

	for (i = 0; i < SP_MODE_NR; i++) {
		if (!strcmp(s, sp_mode_names[i])) {
			*v = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* A space-separated set of wake types, each once, or exactly "none". */
static int sp_knob_wake_of(char *s, u32 *v)
{
	char *tok;
	u32 mask = 0, i;

	if (!strcmp(s, "none")) {
		*v = 0;
		return 0;
	}
	while ((tok = strsep(&s, " ")) != NULL) {
		for (i = 0; i < SP_WAKE_NR; i++)
			if (!strcmp(tok, sp_wake_names[i]))
				break;
		if (i == SP_WAKE_NR || (mask & BIT(i)))
			return -EINVAL;
		mask |= BIT(i);
	}
	*v = mask;
	return 0;
}

/* ---- the knob files ---------------------------------------------------- */

struct sp_knob {
	struct bin_attribute attr;
	u32 *field;
	u32 min, max;
	int (*parse)(char *s, u32 *v, const struct sp_knob *k);
	int (*show)(char *buf, size_t size, u32 v);
	/* the last complete write: its open file's token, what it replaced */
	unsigned long last_token;
	u32 last_prev, last_set;
};

/* the last token handed out, under sp_knob_lock */
static unsigned long sp_knob_tokens;

/*
 * sp_knob_open_file() - the kernfs open file behind @f
 *
 * kernfs gives each open of a sysfs file its own zeroed struct
 * kernfs_open_file (as the private data of the seq_file it always
 * instantiates), and sysfs leaves its published priv field to the file's
 * owner.  A write at offset 0 stamps it with a fresh token, so that a
 * later chunk matches its first chunk's open file only, never a file
 * opened later at a reused address.
 */
static struct kernfs_open_file *sp_knob_open_file(struct file *f)
{
	struct seq_file *sf = f->private_data;

	return sf->private;
}

static int sp_knob_parse_u32(char *s, u32 *v, const struct sp_knob *k)
{
	return sp_knob_digits(s, k->min, k->max, v);
}

static int sp_knob_parse_mode(char *s, u32 *v, const struct sp_knob *k)
{
	return sp_knob_mode_of(s, v);
}

static int sp_knob_parse_wake(char *s, u32 *v, const struct sp_knob *k)
{
	return sp_knob_wake_of(s, v);
}

static int sp_knob_show_u32(char *buf, size_t size, u32 v)
{
	return scnprintf(buf, size, "%u\n", v);
}

static int sp_knob_show_mode(char *buf, size_t size, u32 cur)
{
	int n = 0;
	u32 i;

	for (i = 0; i < SP_MODE_NR; i++)
		n += scnprintf(buf + n, size - n, i == cur ? "[%s]%s" : "%s%s",
			       sp_mode_names[i], i + 1 < SP_MODE_NR ? " " : "\n");
	return n;
}

static int sp_knob_show_wake(char *buf, size_t size, u32 mask)
{
	int n = 0;
	u32 i;

	for (i = 0; i < SP_WAKE_NR; i++)
		if (mask & BIT(i))
			n += scnprintf(buf + n, size - n, "%s%s", n ? " " : "",
				       sp_wake_names[i]);
	if (!n)
		n = scnprintf(buf, size, "none");
	return n + scnprintf(buf + n, size - n, "\n");
}

static ssize_t sp_knob_attr_read(struct file *f, struct kobject *kobj,
				 struct bin_attribute *a, char *buf, loff_t pos,
			    size_t count)
{
	const struct sp_knob *k = container_of(a, struct sp_knob, attr);
	char text[SP_KNOB_MAX_LEN];
	int len = k->show(text, sizeof(text), READ_ONCE(*k->field));

	if (pos < 0 || pos >= len)
		return 0;
	count = min_t(size_t, count, len - pos);
	memcpy(buf, text + pos, count);
	return count;
}

static ssize_t sp_knob_attr_write(struct file *f, struct kobject *kobj,
				  struct bin_attribute *a, char *buf, loff_t pos,
			     size_t count)
{
	struct sp_knob *k = container_of(a, struct sp_knob, attr);
	struct kernfs_open_file *of = sp_knob_open_file(f);
	char text[SP_KNOB_MAX_LEN];
	u32 v, prev;
	int ret;

	if (mutex_lock_interruptible(&sp_knob_lock))
		return -ERESTARTSYS;
	if (pos) {
		/*
		 * A later chunk of one write undoes its first chunk.  A chunk
		 * of another open file leaves the token alone: the first
		 * chunk it names still waits for its own later chunk.  If a
		 * subscriber refuses the undo, the first chunk's value stays
		 * and the chunk fails with the refusal's errno.
		 */
		ret = 0;
		if (k->last_token && of->priv == (void *)k->last_token) {
			k->last_token = 0;
			if (READ_ONCE(*k->field) == k->last_set)
				ret = sp_knob_publish(k->field, k->last_prev);
		}
		ret = ret ?: -EINVAL;
		goto out;
	}
	ret = sp_knob_text(buf, count, text);
	if (!ret)
		ret = k->parse(text, &v, k);
	if (ret)
		goto out;
	prev = READ_ONCE(*k->field);
	ret = sp_knob_publish(k->field, v);
	if (ret)
		goto out;
	if (!++sp_knob_tokens)		/* 0 stands for no write */
		sp_knob_tokens = 1;
	k->last_token = sp_knob_tokens;
	of->priv = (void *)k->last_token;
	k->last_prev = prev;
	k->last_set = v;
	ret = count;
out:
	mutex_unlock(&sp_knob_lock);
	return ret;
}

#define SP_KNOB(_name, _field, _min, _max, _parse, _show)		\
static struct sp_knob sp_knob_file_##_name = {				\
	.attr = {							\
		.attr = { .name = #_name, .mode = 0644 },		\
		.read = sp_knob_attr_read,					\
		.write = sp_knob_attr_write,					\
	},								\
	.field = &(_field),						\
	.min = (_min),							\
	.max = (_max),							\
	.parse = (_parse),						\
	.show = (_show),						\
}

#define SP_U32_KNOB(_name, _field, _min, _max)				\
	SP_KNOB(_name, _field, _min, _max, sp_knob_parse_u32, sp_knob_show_u32)

SP_KNOB(mode, sp_knob_values.mode, 0, SP_MODE_NR - 1, sp_knob_parse_mode, sp_knob_show_mode);
SP_KNOB(wake_types, sp_knob_wake_mask, 0, SP_WAKE_ALL, sp_knob_parse_wake,
	sp_knob_show_wake);
SP_U32_KNOB(margin_pct, sp_knob_values.margin_pct, 0, 100);
SP_U32_KNOB(overutil_pct, sp_knob_values.overutil_pct, 1, 100);
SP_U32_KNOB(window_us, sp_knob_values.window_us, 100, 1000000);
SP_U32_KNOB(latency_us, sp_knob_values.latency_us, 0, 10000000);
SP_U32_KNOB(opp_floor, sp_knob_floor, 0, 1);
SP_U32_KNOB(balance_gate, sp_knob_gate, 0, 1);
SP_U32_KNOB(kick_gate, sp_knob_kick, 0, 1);

static ssize_t version_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%s\n", SP_VERSION);
}

static struct kobj_attribute sp_knob_version_attr = __ATTR_RO(version);

static struct attribute *sp_knob_attrs[] = {
	&sp_knob_version_attr.attr,
	NULL,
};

static struct bin_attribute *sp_knob_bin_attrs[] = {
	&sp_knob_file_mode.attr,
	&sp_knob_file_wake_types.attr,
	&sp_knob_file_margin_pct.attr,
	&sp_knob_file_overutil_pct.attr,
	&sp_knob_file_window_us.attr,
	&sp_knob_file_latency_us.attr,
	&sp_knob_file_opp_floor.attr,
	&sp_knob_file_balance_gate.attr,
	&sp_knob_file_kick_gate.attr,
	NULL,
};

const struct attribute_group sp_knob_group = {
	.attrs = sp_knob_attrs,
	.bin_attrs = sp_knob_bin_attrs,
};

/**
 * sp_knob_init() - the initial mode from the mode= module parameter, and
 * the chain's first subscriber, which restores a refused write's knob
 * @mode_param: the parameter's text
 *
 * Return: 0, or -EINVAL (and a message) if it names no mode.
 */
int sp_knob_init(const char *mode_param)
{
	char text[SP_KNOB_MAX_LEN];
	u32 m;

	if (sp_knob_text(mode_param, strlen(mode_param), text) ||
	    sp_knob_mode_of(text, &m)) {
		pr_err("bad mode=%s (one of off observe power balanced performance)\n",
		       mode_param);
		return -EINVAL;
	}
	WRITE_ONCE(sp_knob_values.mode, m);
	/* before every other subscriber: none exists yet */
	return blocking_notifier_chain_register(&sp_knob_chain, &sp_knob_restore_nb);
}
