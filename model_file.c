// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs file /sys/kernel/sched_power/model: a model text written in
 * chunks, and read in passes that each see one model.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the model file in sysfs
 *
 * Reading /sys/kernel/sched_power/model returns the text of the published
 * model (sp_model_format(): the same text, byte for byte, as was written,
 * modulo comments, blank lines and key order).  Writing it replaces the
 * model.  sysfs calls the module once per read(2) or write(2), with at most
 * a page each, and never says when the file is closed.  Two things follow.
 *
 * A text written in chunks carries its own end: the word "end" opening a
 * line (sp_model_stream_feed(), core/sp_model_stream.c).  Every write(2)
 * then does one of three things.  It fails (EINVAL, E2BIG, EBUSY, ENOMEM)
 * and nothing of its text stays applied.  It applies the text: the write
 * that brings the "d" of "end" parses the whole text and publishes it
 * before it returns, or fails with the parser's error (dmesg names line and
 * field).  Or it stages the text and returns its length: any write before
 * the end word, and after it any write of blank space and comments only
 * (the final newline in a write of its own, with dd bs=1).  A write after
 * the end word that holds anything else fails with EINVAL and takes the
 * text back: the model it replaced is published again, unless another
 * writer's has been published since, which then stays.  So whatever the
 * block size, a text is left applied only if every one of its writes
 * succeeded; and a text with anything but blanks and comments after "end"
 * is refused whole.  Bytes that cannot start a model are refused by the
 * write that brings them: a NUL, a line whose first word is no kind (a
 * high-bit byte where a word starts), a first line that is not the header,
 * and a first write of nothing but blanks and newlines.  Writes must follow
 * each other at increasing offsets; a write at offset 0 starts a new text.
 *
 * To tell when a writer or reader has closed the file, the module pins the
 * struct file of every open file that read or wrote (get_file()) and keeps
 * what belongs to it: a writer's staged text, a reader's snapshot.  When
 * the module's own reference is the last one (file_count() == 1), every
 * descriptor of that open file has been closed: its state is freed, and a
 * staged text that never got its end word is dropped, with a dmesg line.
 * This is checked on every read and write of the file, and once a second
 * while any file is pinned (on a deferrable timer when only readers are).
 * Holding the reference also keeps the struct file from being reused for
 * another open while its state exists.  At most 8 writers may have a text
 * staged or applied and still open at once (a 9th gets EBUSY); writers
 * that have closed never count.
 *
 * A read at offset 0 takes a snapshot: a reference to the published text
 * (sp_em_text_get(), shared, not copied).  Further reads of the same open
 * file read that snapshot, so one pass from offset 0 to the end sees one
 * model, with any read size, while models are written meanwhile: what
 * seq_file gives a file whose text is generated at its first read.  Up to
 * 256 open files may hold a snapshot at once (the model is world-readable);
 * beyond that the one used least recently loses it, and its next read takes
 * a new one: only then can a pass mix two models.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "sched_power.h"

#define SP_MFILE_WRITERS	8	/* open files with a text staged or applied */
#define SP_MFILE_READERS	256	/* open files holding only a snapshot */
#define SP_MFILE_REAP_DELAY	HZ	/* how soon a closed file is let go */

/* A model text written through one open file. */
struct sp_mfile_stage {
	struct sp_model_stream stream;
	char *buf;			/* the text so far, until applied */
	size_t size;
	struct sp_em_text *applied;	/* what it published, or NULL */
	struct sp_em_text *before;	/* what was published before it */
};

/* What the model file keeps for one open file. */
struct sp_mfile_open {
	struct list_head node;		/* in sp_mfile_opens, last used first */
	struct file *file;		/* pinned by get_file() */
	struct sp_em_text *snap;	/* a reader's snapshot, or NULL */
	struct sp_mfile_stage *stage;	/* a writer's text, or NULL */
};

/* Guards the open files' states; taken before the model's own lock. */
static DEFINE_MUTEX(sp_mfile_lock);
static LIST_HEAD(sp_mfile_opens);
static unsigned int sp_mfile_nr_opens, sp_mfile_nr_writers;
static bool sp_mfile_dying;		/* sp_mfile_exit() has begun */

/*
 * Closed files are let go at every read and write, and by these: every
 * second while a writer is pinned (its dropped text gets its dmesg line
 * soon), and on a deferrable timer, which wakes no idle CPU, while only
 * readers are.
 */
static void sp_mfile_reap_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(sp_mfile_reaper, sp_mfile_reap_work);
static DECLARE_DEFERRABLE_WORK(sp_mfile_idle_reaper, sp_mfile_reap_work);

/* ---- open files -------------------------------------------------------- */

static void sp_mfile_stage_free(struct sp_mfile_open *o)
{
	struct sp_mfile_stage *st = o->stage;

	lockdep_assert_held(&sp_mfile_lock);
	if (!st)
		return;
	kvfree(st->buf);
	sp_em_text_put(st->applied);
	sp_em_text_put(st->before);
	kfree(st);
	o->stage = NULL;
	sp_mfile_nr_writers--;
}

/* Forget @o and unpin its file; called with sp_mfile_lock held. */
static void sp_mfile_open_free(struct sp_mfile_open *o)
{
	lockdep_assert_held(&sp_mfile_lock);
	sp_mfile_stage_free(o);
	sp_em_text_put(o->snap);
	list_del(&o->node);
	sp_mfile_nr_opens--;
	fput(o->file);
	kfree(o);
}

/* Free @o once it holds neither a snapshot nor a text. */
static void sp_mfile_open_tidy(struct sp_mfile_open *o)
{
	lockdep_assert_held(&sp_mfile_lock);
	if (!o->snap && !o->stage)
		sp_mfile_open_free(o);
}

/* Let go of the files whose every descriptor has been closed. */
static void sp_mfile_reap(void)
{
	struct sp_mfile_open *o, *tmp;

	lockdep_assert_held(&sp_mfile_lock);
	list_for_each_entry_safe(o, tmp, &sp_mfile_opens, node) {
		if (file_count(o->file) > 1)
			continue;
		if (o->stage && !o->stage->applied)
			pr_info("model write: %u bytes without an end line dropped: the writer closed the file\n",
				o->stage->stream.len);
		sp_mfile_open_free(o);
	}
}

/* Reap again in a second, on the timer that fits what is pinned. */
static void sp_mfile_arm(void)
{
	lockdep_assert_held(&sp_mfile_lock);
	if (sp_mfile_dying)
		return;
	if (sp_mfile_nr_writers)
		schedule_delayed_work(&sp_mfile_reaper, SP_MFILE_REAP_DELAY);
	else if (sp_mfile_nr_opens)
		schedule_delayed_work(&sp_mfile_idle_reaper, SP_MFILE_REAP_DELAY);
}

static void sp_mfile_reap_work(struct work_struct *work)
{
	mutex_lock(&sp_mfile_lock);
	sp_mfile_reap();
	sp_mfile_arm();
	mutex_unlock(&sp_mfile_lock);
}

/* The state of @f, most recently used first from now on; NULL if none. */
static struct sp_mfile_open *sp_mfile_find(const struct file *f)
{
	struct sp_mfile_open *o;

	lockdep_assert_held(&sp_mfile_lock);
	list_for_each_entry(o, &sp_mfile_opens, node) {
		if (o->file == f) {
			list_move(&o->node, &sp_mfile_opens);
			return o;
		}
	}
	return NULL;
}

/* Make room for one more reader: drop the least recently used snapshot. */
static void sp_mfile_evict_reader(void)
{
	struct sp_mfile_open *o;

	lockdep_assert_held(&sp_mfile_lock);
	list_for_each_entry_reverse(o, &sp_mfile_opens, node) {
		if (!o->stage) {
			sp_mfile_open_free(o);
			return;
		}
	}
}

/* A new, empty state for @f, with the file pinned. */
static struct sp_mfile_open *sp_mfile_open_new(struct file *f)
{
	struct sp_mfile_open *o;

	lockdep_assert_held(&sp_mfile_lock);
	if (sp_mfile_nr_opens - sp_mfile_nr_writers >= SP_MFILE_READERS)
		sp_mfile_evict_reader();
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return NULL;
	o->file = get_file(f);
	list_add(&o->node, &sp_mfile_opens);
	sp_mfile_nr_opens++;
	sp_mfile_arm();
	return o;
}

/* ---- writing ----------------------------------------------------------- */

/*
 * Start a text at offset 0 of @f.  A text the file began before is dropped
 * if it had not reached its end word, and stays applied if it had.
 */
static struct sp_mfile_open *sp_mfile_stage_new(struct file *f)
{
	struct sp_mfile_open *o = sp_mfile_find(f);

	lockdep_assert_held(&sp_mfile_lock);
	if (o && o->stage && !o->stage->applied)
		pr_info("model write: %u staged bytes dropped: rewritten from offset 0\n",
			o->stage->stream.len);
	if (o)
		sp_mfile_stage_free(o);
	if (sp_mfile_nr_writers >= SP_MFILE_WRITERS) {
		if (o)
			sp_mfile_open_tidy(o);
		return ERR_PTR(-EBUSY);
	}
	if (!o)
		o = sp_mfile_open_new(f);
	if (!o)
		return ERR_PTR(-ENOMEM);
	o->stage = kzalloc(sizeof(*o->stage), GFP_KERNEL);
	if (!o->stage) {
		sp_mfile_open_tidy(o);
		return ERR_PTR(-ENOMEM);
	}
	sp_mfile_nr_writers++;
	sp_mfile_arm();
	sp_model_stream_init(&o->stage->stream);
	return o;
}

/* Room for @need bytes in @st's buffer, which holds @len; grown by doubling. */
static int sp_mfile_reserve(struct sp_mfile_stage *st, size_t len, size_t need)
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
	if (st->buf)
		memcpy(buf, st->buf, len);
	kvfree(st->buf);
	st->buf = buf;
	st->size = size;
	return 0;
}

/* Parse and publish the text of @st, whose end word has arrived. */
static int sp_mfile_apply(struct sp_mfile_stage *st)
{
	struct sp_em_text *before = sp_em_text_get();
	int ret;

	ret = sp_em_apply_text(st->buf, st->stream.len, "sysfs",
			       "opp=sysfs idle=sysfs topology=sysfs", &st->applied);
	if (ret) {
		sp_em_text_put(before);
		return ret;
	}
	st->before = before;
	kvfree(st->buf);
	st->buf = NULL;
	st->size = 0;
	return 0;
}

/* Append @count bytes at the end of @o's text; apply it at its end word. */
static int sp_mfile_stage_add(struct sp_mfile_open *o, const char *buf,
			      size_t count)
{
	struct sp_mfile_stage *st = o->stage;
	u32 off = st->stream.len;
	int ret;

	ret = sp_model_stream_feed(&st->stream, buf, count);
	if (ret) {
		pr_err("sysfs model rejected (%d): line %u, byte %u: %s\n", ret,
		       st->stream.line, st->stream.err_off, st->stream.msg);
		return ret;
	}
	if (!off && !st->stream.written) {
		pr_err("sysfs model rejected (%d): only blank space\n", -EINVAL);
		return -EINVAL;
	}
	if (st->applied)
		return 0;
	ret = sp_mfile_reserve(st, off, st->stream.len);
	if (ret)
		return ret;
	memcpy(st->buf + off, buf, count);
	if (!sp_model_stream_ended(&st->stream))
		return 0;
	return sp_mfile_apply(st);
}

/* A write of @o's text failed: drop the text, and take it back if applied. */
static void sp_mfile_stage_fail(struct sp_mfile_open *o)
{
	struct sp_mfile_stage *st = o->stage;
	int ret;

	lockdep_assert_held(&sp_mfile_lock);
	if (st->applied) {
		ret = sp_em_restore_text(st->applied, st->before);
		if (!ret)
			pr_err("sysfs model: the text applied at its end line is taken back; the model before it is published again\n");
		else if (ret == -ESTALE)
			pr_err("sysfs model: the text applied at its end line is taken back; another model was written since and stays\n");
		else
			pr_err("sysfs model: the text applied at its end line could not be taken back (%d)\n",
			       ret);
	}
	sp_mfile_stage_free(o);
	sp_mfile_open_tidy(o);
}

static ssize_t sp_mfile_write_locked(struct file *f, const char *buf,
				     loff_t pos, size_t count)
{
	struct sp_mfile_open *o;
	int ret;

	lockdep_assert_held(&sp_mfile_lock);
	sp_mfile_reap();
	if (!pos) {
		o = sp_mfile_stage_new(f);
		if (IS_ERR(o)) {
			if (PTR_ERR(o) == -EBUSY)
				pr_err("model write rejected (%d): %u writers have a text open\n",
				       -EBUSY, SP_MFILE_WRITERS);
			return PTR_ERR(o);
		}
	} else {
		o = sp_mfile_find(f);
		if (!o || !o->stage || pos != o->stage->stream.len) {
			pr_err("model write rejected (%d): a write at offset %lld, where this file's text has %u bytes\n",
			       -EINVAL, pos, o && o->stage ? o->stage->stream.len : 0);
			if (o && o->stage)
				sp_mfile_stage_fail(o);
			return -EINVAL;
		}
	}
	ret = sp_mfile_stage_add(o, buf, count);
	if (ret) {
		sp_mfile_stage_fail(o);
		return ret;
	}
	return count;
}

/* ---- reading ----------------------------------------------------------- */

static ssize_t sp_mfile_read_locked(struct file *f, char *buf, loff_t pos,
				    size_t count)
{
	struct sp_mfile_open *o;
	struct sp_em_text *t;

	lockdep_assert_held(&sp_mfile_lock);
	sp_mfile_reap();
	o = sp_mfile_find(f);
	if (!o || !o->snap || !pos) {
		t = sp_em_text_get();
		if (!t)
			return -ENODEV;
		if (!o)
			o = sp_mfile_open_new(f);
		if (!o) {
			sp_em_text_put(t);
			return -ENOMEM;
		}
		sp_em_text_put(o->snap);
		o->snap = t;
	}
	t = o->snap;
	if (pos < 0 || pos >= t->len)
		return 0;
	count = min_t(size_t, count, t->len - pos);
	memcpy(buf, t->buf + pos, count);
	return count;
}

/* ---- sysfs ------------------------------------------------------------- */

static ssize_t sp_mfile_read(struct file *f, struct kobject *kobj,
			     struct bin_attribute *a, char *buf, loff_t pos,
			     size_t count)
{
	ssize_t n;

	mutex_lock(&sp_mfile_lock);
	n = sp_mfile_read_locked(f, buf, pos, count);
	mutex_unlock(&sp_mfile_lock);
	return n;
}

static ssize_t sp_mfile_write(struct file *f, struct kobject *kobj,
			      struct bin_attribute *a, char *buf, loff_t pos,
			      size_t count)
{
	ssize_t ret;

	mutex_lock(&sp_mfile_lock);
	ret = sp_mfile_write_locked(f, buf, pos, count);
	mutex_unlock(&sp_mfile_lock);
	return ret;
}

static struct bin_attribute sp_mfile_attr = {
	.attr = { .name = "model", .mode = 0644 },
	.read = sp_mfile_read,
	.write = sp_mfile_write,
};

static ssize_t sp_mfile_source_show(struct kobject *kobj, struct kobj_attribute *attr,
				    char *buf)
{
	struct sp_em_text *t = sp_em_text_get();
	ssize_t n;

	if (!t)
		return -ENODEV;
	n = sysfs_emit(buf, "%s\n", t->src);
	sp_em_text_put(t);
	return n;
}

static struct kobj_attribute sp_mfile_source_attr =
	__ATTR(model_source, 0444, sp_mfile_source_show, NULL);

static struct attribute *sp_mfile_attrs[] = {
	&sp_mfile_source_attr.attr,
	NULL,
};

static struct bin_attribute *sp_mfile_bin_attrs[] = {
	&sp_mfile_attr,
	NULL,
};

const struct attribute_group sp_mfile_group = {
	.attrs = sp_mfile_attrs,
	.bin_attrs = sp_mfile_bin_attrs,
};

/**
 * sp_mfile_exit() - let go of every open file of the model file
 *
 * Call after the sysfs files are removed (no read or write can start).
 * Staged texts are dropped; applied ones stay.
 */
void sp_mfile_exit(void)
{
	struct sp_mfile_open *o, *tmp;

	/* neither reaper may arm the other once this is set */
	mutex_lock(&sp_mfile_lock);
	sp_mfile_dying = true;
	mutex_unlock(&sp_mfile_lock);
	cancel_delayed_work_sync(&sp_mfile_reaper);
	cancel_delayed_work_sync(&sp_mfile_idle_reaper);
	mutex_lock(&sp_mfile_lock);
	list_for_each_entry_safe(o, tmp, &sp_mfile_opens, node)
		sp_mfile_open_free(o);
	mutex_unlock(&sp_mfile_lock);
}
