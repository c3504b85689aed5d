// SPDX-License-Identifier: GPL-2.0
/*
 * The live energy model: publication by RCU, the model
 * file, and the subscribers told of every change.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the live model
 *
 * At insmod the model is built from the kernel's tables (em_defaults.c) or,
 * with model_file=NAME, read through the firmware loader from the firmware
 * search path (/lib/firmware/NAME and the firmware_class.path= directory):
 * the kernel's sanctioned way for a module to read a file, with its ".."
 * checks.  A model text larger than 256 KiB fails insmod with -E2BIG, a bad
 * one with -EINVAL, and dmesg names the line and field.
 *
 * The model is published with rcu_assign_pointer() under sp_model_lock;
 * readers (the wake-up hook, the idle probes) rcu_dereference() one
 * complete, validated model and never see a half-written table.  A change
 * is announced on a notifier chain twice: SP_MODEL_PREPARE before the new
 * model is visible and SP_MODEL_CHANGED after every reader has moved to
 * it, so a subscriber that keeps state indexed by the model (the idle
 * hook's group counters) can stop using the old indices first and rebuild
 * for the new ones after.  The old model is freed only then.  Both calls
 * run under sp_model_lock, which also guards the subscriber list.
 */

/**
 * DOC: the model file in sysfs
 *
 * Reading /sys/kernel/sched_power/model returns sp_model_format() of the
 * published model: the same text, byte for byte, as was written (modulo
 * comments, blank lines and key order).  Writing it replaces the model.
 *
 * sysfs hands a write to the module in chunks of at most a page and never
 * says when the writer closes the file, so the text carries its own end:
 * it is staged per open file and parsed when its last line is "end" (a
 * comment may follow), which sp_model_format() always prints.  One write
 * of a whole model, dd with any block size and a shell loop writing line
 * by line all work.  A write to the same open file at another offset than
 * the staged length fails, and so does a 9th concurrent writer (-EBUSY).
 *
 * Every chunk is checked as it arrives: a first chunk of white space only
 * is refused; no NUL byte, the first line that
 * is not blank or a comment is the header, every line starts with a known
 * kind (sp_model_text_plausible()); anything else fails at once with
 * -EINVAL and drops the staging.  The complete text is parsed strictly
 * (sp_model_parse()) and must describe exactly nr_cpu_ids CPUs; on any
 * error the write that brought the "end" line fails with -EINVAL or
 * -E2BIG, dmesg names the line and field, and the old model stays.  A
 * text whose writer stops before "end" is never applied; it is dropped
 * (and dmesg says so) by the next write of that file at offset 0 or 60 s
 * after its last chunk.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/firmware.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "sched_power.h"

static char *model_file;
module_param(model_file, charp, 0444);
MODULE_PARM_DESC(model_file, "model text to load at insmod, a name in the firmware search path (e.g. sched_power/board.model)");

#define SP_STAGE_MAX		8	/* concurrent writers of `model` */
#define SP_STAGE_TIMEOUT	(60 * HZ)

static struct sp_model __rcu *sp_model_ptr;
/* Serialises writers; also guards the text, the staging and the source. */
static DEFINE_MUTEX(sp_model_lock);
static char *sp_model_text;		/* sp_model_format() of the published model */
static size_t sp_model_text_len;
static char sp_model_src[64];
/*
 * The subscribers of model changes.  A raw chain guarded by sp_model_lock,
 * not a blocking chain with its own rwsem: a subscriber may hold its own
 * lock from SP_MODEL_PREPARE to SP_MODEL_CHANGED (the idle hook does), so
 * the only lock order is sp_model_lock, then the subscriber's.
 */
static RAW_NOTIFIER_HEAD(sp_model_chain);

/* A model text being written through one open file of `model`. */
struct sp_stage {
	struct list_head node;
	const struct file *file;
	char *buf;
	size_t len, size;
	unsigned long last;		/* jiffies of the last chunk */
};

static LIST_HEAD(sp_stages);
static unsigned int sp_nr_stages;

const struct sp_model *sp_em_model(void)
{
	return rcu_dereference_check(sp_model_ptr, rcu_read_lock_any_held());
}

int sp_em_subscribe(struct notifier_block *nb)
{
	int ret;

	mutex_lock(&sp_model_lock);
	ret = raw_notifier_chain_register(&sp_model_chain, nb);
	mutex_unlock(&sp_model_lock);
	return ret;
}

void sp_em_unsubscribe(struct notifier_block *nb)
{
	mutex_lock(&sp_model_lock);
	raw_notifier_chain_unregister(&sp_model_chain, nb);
	mutex_unlock(&sp_model_lock);
}

/* ---- publication ------------------------------------------------------ */

/* Publish @m (already validated); takes ownership of it. */
static int sp_publish(struct sp_model *m, const char *src)
{
	size_t len = sp_model_format(m, NULL, 0);
	char *text = kvmalloc(len + 1, GFP_KERNEL);
	struct sp_model *old;

	lockdep_assert_held(&sp_model_lock);
	if (!text) {
		kvfree(m);
		return -ENOMEM;
	}
	sp_model_format(m, text, len + 1);
	old = rcu_dereference_protected(sp_model_ptr, lockdep_is_held(&sp_model_lock));
	if (old)
		raw_notifier_call_chain(&sp_model_chain, SP_MODEL_PREPARE, m);
	rcu_assign_pointer(sp_model_ptr, m);
	synchronize_rcu();
	if (old)
		raw_notifier_call_chain(&sp_model_chain, SP_MODEL_CHANGED, m);
	kvfree(old);
	kvfree(sp_model_text);
	sp_model_text = text;
	sp_model_text_len = len;
	strscpy(sp_model_src, src, sizeof(sp_model_src));
	return 0;
}

/* Parse, check against this system and publish @text; old model on error. */
static int sp_apply_text(const char *text, size_t len, const char *how, const char *src)
{
	struct sp_parse_error err;
	struct sp_model *m;
	int ret;

	m = kvzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	ret = sp_model_parse(text, len, m, &err);
	if (ret) {
		if (err.cpu >= 0)
			pr_err("%s model rejected (%d): line %d field '%s': %s (cpu %d)\n",
			       how, ret, err.line, err.field, err.msg, err.cpu);
		else
			pr_err("%s model rejected (%d): line %d field '%s': %s\n",
			       how, ret, err.line, err.field, err.msg);
		kvfree(m);
		return ret;
	}
	if (m->nr_cpus != nr_cpu_ids) {
		pr_err("%s model rejected (%d): line %u field 'cpus': model has %u CPUs, nr_cpu_ids is %u\n",
		       how, -EINVAL, m->src_line, m->nr_cpus, nr_cpu_ids);
		kvfree(m);
		return -EINVAL;
	}
	return sp_publish(m, src);
}

/* model_file=NAME through the firmware loader. */
static int sp_load_file(const char *name)
{
	const struct firmware *fw;
	int ret;

	ret = request_firmware_direct(&fw, name, NULL);
	if (ret) {
		pr_err("model_file=%s: not found in the firmware search path (%d)\n",
		       name, ret);
		return ret;
	}
	if (fw->size > SP_MODEL_TEXT_MAX) {
		pr_err("model_file=%s rejected (%d): %zu bytes, more than %u\n", name,
		       -E2BIG, fw->size, SP_MODEL_TEXT_MAX);
		ret = -E2BIG;
	} else {
		ret = sp_apply_text(fw->data, fw->size, "model_file",
				    "opp=file idle=file topology=file");
	}
	release_firmware(fw);
	return ret;
}

/* ---- staging of sysfs writes ------------------------------------------ */

static void sp_stage_drop(struct sp_stage *st, const char *why)
{
	if (why)
		pr_info("model write: %zu staged bytes dropped: %s\n", st->len, why);
	list_del(&st->node);
	kvfree(st->buf);
	kfree(st);
	sp_nr_stages--;
}

static void sp_stage_expire(void)
{
	struct sp_stage *st, *tmp;

	list_for_each_entry_safe(st, tmp, &sp_stages, node)
		if (time_after(jiffies, st->last + SP_STAGE_TIMEOUT))
			sp_stage_drop(st, "no end line within 60 s");
}

static struct sp_stage *sp_stage_find(const struct file *f)
{
	struct sp_stage *st;

	list_for_each_entry(st, &sp_stages, node)
		if (st->file == f)
			return st;
	return NULL;
}

static struct sp_stage *sp_stage_new(const struct file *f)
{
	struct sp_stage *st;

	if (sp_nr_stages >= SP_STAGE_MAX)
		return ERR_PTR(-EBUSY);
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return ERR_PTR(-ENOMEM);
	st->file = f;
	list_add(&st->node, &sp_stages);
	sp_nr_stages++;
	return st;
}

/* Room for @need bytes in @st's buffer, growing it by doubling. */
static int sp_stage_reserve(struct sp_stage *st, size_t need)
{
	size_t size = st->size ? st->size : PAGE_SIZE;
	char *buf;

	if (need <= st->size)
		return 0;
	while (size < need)
		size *= 2;
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, st->buf, st->len);
	kvfree(st->buf);
	st->buf = buf;
	st->size = size;
	return 0;
}

/* Is the last non-blank line of @s "end", possibly followed by a comment? */
static bool sp_ends_with_end(const char *s, size_t len)
{
	size_t start;

	while (len && isspace(s[len - 1]))
		len--;
	for (start = len; start && s[start - 1] != '\n'; start--)
		;
	while (start < len && (s[start] == ' ' || s[start] == '\t'))
		start++;
	if (len - start < 3 || memcmp(s + start, "end", 3))
		return false;
	start += 3;
	return start == len || s[start] == ' ' || s[start] == '\t' || s[start] == '#';
}

/* Append a chunk at @pos to @f's staging; returns the staging or an error. */
static struct sp_stage *sp_stage_chunk(const struct file *f, const char *buf,
				       loff_t pos, size_t count)
{
	struct sp_stage *st = sp_stage_find(f);
	size_t i;

	for (i = 0; !pos && i < count && isspace(buf[i]); i++)
		;
	if (!pos && i == count) {
		pr_err("model write rejected (%d): only white space\n", -EINVAL);
		return ERR_PTR(-EINVAL);
	}
	if (!pos && st)
		sp_stage_drop(st, "rewritten from offset 0");
	if (!pos) {
		st = sp_stage_new(f);
	} else if (!st || pos != st->len) {
		pr_err("model write rejected: chunk at offset %lld, expected %zu\n",
		       pos, st ? st->len : 0);
		if (st)
			sp_stage_drop(st, NULL);
		return ERR_PTR(-EINVAL);
	}
	if (IS_ERR(st))
		return st;
	if (st->len + count > SP_MODEL_TEXT_MAX) {
		pr_err("model write rejected (%d): longer than %u bytes\n", -E2BIG,
		       SP_MODEL_TEXT_MAX);
		sp_stage_drop(st, NULL);
		return ERR_PTR(-E2BIG);
	}
	if (sp_stage_reserve(st, st->len + count)) {
		sp_stage_drop(st, NULL);
		return ERR_PTR(-ENOMEM);
	}
	memcpy(st->buf + st->len, buf, count);
	st->len += count;
	st->last = jiffies;
	if (!sp_model_text_plausible(st->buf, st->len)) {
		pr_err("model write rejected (%d): not a model text (NUL byte, unknown kind, or no header first)\n",
		       -EINVAL);
		sp_stage_drop(st, NULL);
		return ERR_PTR(-EINVAL);
	}
	return st;
}

static ssize_t sp_model_write_locked(const struct file *f, const char *buf,
				     loff_t pos, size_t count)
{
	struct sp_stage *st;
	int ret;

	sp_stage_expire();
	st = sp_stage_chunk(f, buf, pos, count);
	if (IS_ERR(st))
		return PTR_ERR(st);
	if (!sp_ends_with_end(st->buf, st->len))
		return count;
	ret = sp_apply_text(st->buf, st->len, "sysfs",
			    "opp=sysfs idle=sysfs topology=sysfs");
	sp_stage_drop(st, NULL);
	return ret ? ret : count;
}

/* ---- sysfs ------------------------------------------------------------ */

static ssize_t model_read(struct file *f, struct kobject *kobj, struct bin_attribute *a,
			  char *buf, loff_t pos, size_t count)
{
	ssize_t n = 0;

	mutex_lock(&sp_model_lock);
	if (pos >= 0 && pos < sp_model_text_len) {
		n = min_t(size_t, count, sp_model_text_len - pos);
		memcpy(buf, sp_model_text + pos, n);
	}
	mutex_unlock(&sp_model_lock);
	return n;
}

static ssize_t model_write(struct file *f, struct kobject *kobj, struct bin_attribute *a,
			   char *buf, loff_t pos, size_t count)
{
	ssize_t ret;

	mutex_lock(&sp_model_lock);
	ret = sp_model_write_locked(f, buf, pos, count);
	mutex_unlock(&sp_model_lock);
	return ret;
}

static struct bin_attribute sp_model_attr = {
	.attr = { .name = "model", .mode = 0644 },
	.read = model_read,
	.write = model_write,
};

static ssize_t model_source_show(struct kobject *kobj, struct kobj_attribute *attr,
				 char *buf)
{
	ssize_t n;

	mutex_lock(&sp_model_lock);
	n = sysfs_emit(buf, "%s\n", sp_model_src);
	mutex_unlock(&sp_model_lock);
	return n;
}

static struct kobj_attribute sp_model_source_attr = __ATTR_RO(model_source);

static struct attribute *sp_model_attrs[] = {
	&sp_model_source_attr.attr,
	NULL,
};

static struct bin_attribute *sp_model_bin_attrs[] = {
	&sp_model_attr,
	NULL,
};

const struct attribute_group sp_model_group = {
	.attrs = sp_model_attrs,
	.bin_attrs = sp_model_bin_attrs,
};

/* ---- init and exit ---------------------------------------------------- */

static int sp_em_publish_default(void)
{
	char src[sizeof(sp_model_src)];
	struct sp_model *m = kvzalloc(sizeof(*m), GFP_KERNEL);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = sp_emdef_build(m, src, sizeof(src));
	if (ret) {
		kvfree(m);
		return ret;
	}
	return sp_publish(m, src);
}

int sp_em_init(void)
{
	const struct sp_model *m;
	int ret;

	if (nr_cpu_ids > SP_MAX_CPUS) {
		pr_err("nr_cpu_ids %u exceeds the model's %u CPUs\n", nr_cpu_ids, SP_MAX_CPUS);
		return -E2BIG;
	}
	mutex_lock(&sp_model_lock);
	ret = model_file ? sp_load_file(model_file) : sp_em_publish_default();
	if (!ret) {
		m = rcu_dereference_protected(sp_model_ptr, lockdep_is_held(&sp_model_lock));
		pr_info("model: %u CPUs, %u pds, %u levels, %u groups; %s\n", m->nr_cpus,
			m->nr_pds, m->nr_levels, m->nr_groups, sp_model_src);
	}
	mutex_unlock(&sp_model_lock);
	if (ret)
		sp_em_exit();
	return ret;
}

/* Unpublish and free everything (exit, or a failed init). */
void sp_em_exit(void)
{
	struct sp_stage *st, *tmp;
	struct sp_model *old;

	mutex_lock(&sp_model_lock);
	old = rcu_dereference_protected(sp_model_ptr, lockdep_is_held(&sp_model_lock));
	RCU_INIT_POINTER(sp_model_ptr, NULL);
	list_for_each_entry_safe(st, tmp, &sp_stages, node)
		sp_stage_drop(st, NULL);
	kvfree(sp_model_text);
	sp_model_text = NULL;
	sp_model_text_len = 0;
	mutex_unlock(&sp_model_lock);
	synchronize_rcu();
	kvfree(old);
}
