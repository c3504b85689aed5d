// SPDX-License-Identifier: GPL-2.0
/*
 * The live energy model: publication by RCU, the text of the published
 * model, the subscribers told of every change, and model_file= at insmod.
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
 * one with -EINVAL, and dmesg names the line and field.  Later models come
 * as text through the sysfs file (model_file.c), which calls
 * sp_em_apply_text().
 *
 * The model is published with rcu_assign_pointer() under sp_em_lock;
 * readers (the wake-up hook, the idle probes) rcu_dereference() one
 * complete, validated model and never see a half-written table.  A change
 * is announced on a notifier chain twice: SP_MODEL_PREPARE before the new
 * model is visible and SP_MODEL_CHANGED after every reader has moved to
 * it, so a subscriber that keeps state indexed by the model (the idle
 * hook's group counters) can stop using the old indices first and rebuild
 * for the new ones after.  The old model is freed only then.  Both calls
 * run under sp_em_lock, which also guards the subscriber list.
 *
 * With the model, its text is published: sp_model_format() of it and where
 * it came from (model_source: "opp=file idle=file topology=file" after
 * model_file=, "opp=sysfs ..." after a write of the sysfs file), in one
 * reference-counted, immutable struct sp_em_text.  A reader of the sysfs
 * file keeps the text it started on (sp_em_text_get()) while the model
 * changes under it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/firmware.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "sched_power.h"

static char *model_file;
module_param(model_file, charp, 0444);
MODULE_PARM_DESC(model_file, "model text to load at insmod, a name in the firmware search path (e.g. sched_power/board.model)");

struct sp_model __rcu *sp_em_ptr;	/* read by sp_em_model() */
/* Serialises publication; guards the published text and the subscribers. */
static DEFINE_MUTEX(sp_em_lock);
static struct sp_em_text *sp_em_cur_text;
/*
 * The subscribers of model changes.  A raw chain guarded by sp_em_lock, not
 * a blocking chain with its own rwsem: a subscriber may hold its own lock
 * from SP_MODEL_PREPARE to SP_MODEL_CHANGED (the idle hook does), so the
 * only lock order is sp_em_lock, then the subscriber's.
 */
static RAW_NOTIFIER_HEAD(sp_em_chain);

/**
 * sp_em_subscribe() - be told of every model change
 * @nb: its callback gets SP_MODEL_PREPARE, then SP_MODEL_CHANGED, with the
 *	new model, in process context under sp_em_lock (which also guards the
 *	chain); it must not write the model nor subscribe
 *
 * At SP_MODEL_PREPARE no reader sees the new model yet; at
 * SP_MODEL_CHANGED every reader has moved to it and the old one is not
 * yet freed.  Register during init, unregister during exit.
 *
 * Return: 0, or -EEXIST if @nb is registered already.
 */
int sp_em_subscribe(struct notifier_block *nb)
{
	int ret;

	mutex_lock(&sp_em_lock);
	ret = raw_notifier_chain_register(&sp_em_chain, nb);
	mutex_unlock(&sp_em_lock);
	return ret;
}

/**
 * sp_em_unsubscribe() - no longer be told of model changes
 * @nb: as given to sp_em_subscribe(); one never registered is ignored
 */
void sp_em_unsubscribe(struct notifier_block *nb)
{
	mutex_lock(&sp_em_lock);
	raw_notifier_chain_unregister(&sp_em_chain, nb);
	mutex_unlock(&sp_em_lock);
}

/* ---- the published text ----------------------------------------------- */

static void sp_em_text_release(struct kref *ref)
{
	kvfree(container_of(ref, struct sp_em_text, ref));
}

/**
 * sp_em_text_get() - the text of the published model
 *
 * Return: a reference to the published model's text, to drop with
 * sp_em_text_put(), or NULL before sp_em_init() and after sp_em_exit().
 * Process context.
 */
struct sp_em_text *sp_em_text_get(void)
{
	struct sp_em_text *t;

	mutex_lock(&sp_em_lock);
	t = sp_em_cur_text;
	if (t)
		kref_get(&t->ref);
	mutex_unlock(&sp_em_lock);
	return t;
}

/**
 * sp_em_text_put() - drop a reference from sp_em_text_get()
 * @t: the text, or NULL
 */
void sp_em_text_put(struct sp_em_text *t)
{
	if (t)
		kref_put(&t->ref, sp_em_text_release);
}

static struct sp_em_text *sp_em_text_new(const struct sp_model *m, const char *src)
{
	size_t len = sp_model_format(m, NULL, 0);
	struct sp_em_text *t = kvmalloc(struct_size(t, buf, len + 1), GFP_KERNEL);

	if (!t)
		return NULL;
	kref_init(&t->ref);
	t->len = len;
	strscpy(t->src, src, sizeof(t->src));
	sp_model_format(m, t->buf, len + 1);
	return t;
}

/* ---- publication ------------------------------------------------------ */

/* Publish @m (already validated); takes ownership of it. */
static int sp_em_publish(struct sp_model *m, const char *src)
{
	struct sp_em_text *text = sp_em_text_new(m, src);
	struct sp_model *old;

	lockdep_assert_held(&sp_em_lock);
	if (!text) {
		kvfree(m);
		return -ENOMEM;
	}
	old = rcu_dereference_protected(sp_em_ptr, lockdep_is_held(&sp_em_lock));
	if (old)
		raw_notifier_call_chain(&sp_em_chain, SP_MODEL_PREPARE, m);
	rcu_assign_pointer(sp_em_ptr, m);
	synchronize_rcu();
	if (old)
		raw_notifier_call_chain(&sp_em_chain, SP_MODEL_CHANGED, m);
	kvfree(old);
	sp_em_text_put(sp_em_cur_text);
	sp_em_cur_text = text;
	return 0;
}

/* Parse @text and check it against this system; the model, or an ERR_PTR. */
static struct sp_model *sp_em_parse(const char *text, size_t len, const char *how)
{
	struct sp_parse_error err;
	struct sp_model *m;
	int ret;

	m = kvzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return ERR_PTR(-ENOMEM);
	ret = sp_model_parse(text, len, m, &err);
	if (ret) {
		if (err.cpu >= 0)
			pr_err("%s model rejected (%d): line %d field '%s': %s (cpu %d)\n",
			       how, ret, err.line, err.field, err.msg, err.cpu);
		else
			pr_err("%s model rejected (%d): line %d field '%s': %s\n",
			       how, ret, err.line, err.field, err.msg);
	} else if (m->nr_cpus != nr_cpu_ids) {
		pr_err("%s model rejected (%d): line %u field 'cpus': model has %u CPUs, nr_cpu_ids is %u\n",
		       how, -EINVAL, m->src_line, m->nr_cpus, nr_cpu_ids);
		ret = -EINVAL;
	}
	if (ret) {
		kvfree(m);
		return ERR_PTR(ret);
	}
	return m;
}

/**
 * sp_em_apply_text() - parse a model text and publish it
 * @text: the model text (Documentation/model-format.rst)
 * @len: its length in bytes
 * @how: who sends it, for dmesg ("sysfs", "model_file")
 * @src: what model_source says afterwards
 * @published: if not NULL, set to a reference to the text published
 *
 * The text is parsed completely and must describe exactly nr_cpu_ids CPUs;
 * on error dmesg names the line and field and the published model stays.
 * Process context; sleeps (until every reader has left the old model).
 *
 * Return: 0, -EINVAL, -E2BIG or -ENOMEM.
 */
int sp_em_apply_text(const char *text, size_t len, const char *how,
		     const char *src, struct sp_em_text **published)
{
	struct sp_model *m = sp_em_parse(text, len, how);
	int ret;

	if (IS_ERR(m))
		return PTR_ERR(m);
	mutex_lock(&sp_em_lock);
	ret = sp_em_publish(m, src);
	if (!ret && published) {
		kref_get(&sp_em_cur_text->ref);
		*published = sp_em_cur_text;
	}
	mutex_unlock(&sp_em_lock);
	return ret;
}

/**
 * sp_em_restore_text() - publish an earlier model again, if nothing changed
 * @cur: the text that must still be the published one
 * @prev: the text of the model to publish again
 *
 * Takes back a model that turned out to be unwanted (model_file.c: text
 * after its end line), unless another model has been published since.
 * Process context; sleeps.
 *
 * Return: 0 when @prev's model is published again, -ESTALE when the
 * published text is no longer @cur (nothing done), -ENOMEM.
 */
int sp_em_restore_text(const struct sp_em_text *cur, const struct sp_em_text *prev)
{
	struct sp_model *m = sp_em_parse(prev->buf, prev->len, "restored");
	int ret = -ESTALE;

	if (IS_ERR(m))
		return PTR_ERR(m);
	mutex_lock(&sp_em_lock);
	if (sp_em_cur_text == cur)
		ret = sp_em_publish(m, prev->src);
	else
		kvfree(m);
	mutex_unlock(&sp_em_lock);
	return ret;
}

/* ---- init and exit ---------------------------------------------------- */

/* model_file=NAME through the firmware loader. */
static int sp_em_load_file(const char *name)
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
		ret = sp_em_apply_text(fw->data, fw->size, "model_file",
				       "opp=file idle=file topology=file", NULL);
	}
	release_firmware(fw);
	return ret;
}

static int sp_em_publish_default(void)
{
	char src[sizeof(sp_em_cur_text->src)];
	struct sp_model *m = kvzalloc(sizeof(*m), GFP_KERNEL);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = sp_emdef_build(m, src, sizeof(src));
	if (ret) {
		kvfree(m);
		return ret;
	}
	mutex_lock(&sp_em_lock);
	ret = sp_em_publish(m, src);
	mutex_unlock(&sp_em_lock);
	return ret;
}

/**
 * sp_em_init() - publish the first model: model_file= or the default
 *
 * Return: 0, or the error of the model that could not be published (dmesg
 * says why); nothing is left published then.
 */
int sp_em_init(void)
{
	const struct sp_model *m;
	int ret;

	if (nr_cpu_ids > SP_MAX_CPUS) {
		pr_err("nr_cpu_ids %u exceeds the model's %u CPUs\n", nr_cpu_ids, SP_MAX_CPUS);
		return -E2BIG;
	}
	ret = model_file ? sp_em_load_file(model_file) : sp_em_publish_default();
	if (ret) {
		sp_em_exit();
		return ret;
	}
	mutex_lock(&sp_em_lock);
	m = rcu_dereference_protected(sp_em_ptr, lockdep_is_held(&sp_em_lock));
	pr_info("model: %u CPUs, %u pds, %u levels, %u groups; %s\n", m->nr_cpus,
		m->nr_pds, m->nr_levels, m->nr_groups, sp_em_cur_text->src);
	mutex_unlock(&sp_em_lock);
	return 0;
}

/**
 * sp_em_exit() - unpublish and free the model and its text
 *
 * At exit, after every user of the model has stopped, or on a failed init.
 * Texts still referenced (sp_em_text_get()) are freed by their last put.
 */
void sp_em_exit(void)
{
	struct sp_model *old;

	mutex_lock(&sp_em_lock);
	old = rcu_dereference_protected(sp_em_ptr, lockdep_is_held(&sp_em_lock));
	RCU_INIT_POINTER(sp_em_ptr, NULL);
	sp_em_text_put(sp_em_cur_text);
	sp_em_cur_text = NULL;
	mutex_unlock(&sp_em_lock);
	synchronize_rcu();
	kvfree(old);
}
