// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_stream.c - a model text read as it arrives, chunk by chunk.
 */

/**
 * DOC: a model text in chunks
 *
 * The sysfs file receives a model in write(2) calls of any size and never
 * learns when its writer closes the file, so the text itself says where it
 * ends: at the word "end" that opens a line.  sp_model_stream_feed() reads
 * each chunk as it arrives, byte by byte with a few bytes of state, and
 * settles three things before the parser sees the whole text:
 *
 *  - whether the text can still be a model: no NUL byte; the first word of
 *    every line a kind, or while it is incomplete the start of one; the
 *    first such line the header.  Anything else is refused at the byte that
 *    brings it.
 *  - whether the word "end" has arrived (sp_model_stream_ended()).  It
 *    counts as soon as its "d" is there, even as the last byte fed: a text
 *    may end "end" with no newline, and a writer may send the newline in a
 *    write of its own.  Should the next byte extend the word ("ending"), the
 *    word is no kind and the text is refused.
 *  - whether anything but blank space and comments follows "end": refused
 *    as "text after end", which is exactly what the parser refuses there.
 *
 * The bytes are classified as the parser classifies them: blanks are space,
 * tab and CR, a line ends at LF, a comment runs from a '#' that begins a
 * token to the end of its line and may hold any byte but NUL, and every
 * other byte, high-bit ones included, is part of a word.  So a text the
 * parser accepts is never refused here, and the verdicts after a chunk do
 * not depend on how the bytes before it were split into chunks.
 */
#include "sp_model_int.h"

enum sp_stream_at {
	SP_AT_LINE,		/* before the line's first word */
	SP_AT_WORD,		/* inside the line's first word */
	SP_AT_REST,		/* after it, before the LF */
	SP_AT_COMMENT,		/* inside a comment */
};

#define SP_KINDS_ALL	((u8)((1u << SP_K_NR) - 1))

void sp_model_stream_init(struct sp_model_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->line = 1;
}

static int sp_stream_refuse(struct sp_model_stream *s, const char *msg)
{
	s->msg = msg;
	s->err = -EINVAL;
	s->err_off = s->len;
	return -EINVAL;
}

/* The kind a complete first word of @len bytes is, or SP_K_NR. */
static u32 sp_stream_kind(const struct sp_model_stream *s)
{
	u32 k;

	for (k = 0; k < SP_K_NR; k++)
		if ((s->kinds & (1u << k)) &&
		    strlen(sp_model_kind_name((enum sp_kind_id)k)) == s->word_len)
			return k;
	return SP_K_NR;
}

/* One more byte @c of the line's first word. */
static int sp_stream_word_byte(struct sp_model_stream *s, unsigned char c)
{
	u8 kinds = 0;
	u32 k;

	for (k = 0; k < SP_K_NR; k++) {
		const char *name = sp_model_kind_name((enum sp_kind_id)k);

		if ((s->kinds & (1u << k)) && strlen(name) > s->word_len &&
		    (unsigned char)name[s->word_len] == c)
			kinds |= (u8)(1u << k);
	}
	if (!kinds)
		return sp_stream_refuse(s, "unknown line kind");
	if (!s->header && !(kinds & (1u << SP_K_HEADER)))
		return sp_stream_refuse(s, "first line must be sched_power_model");
	s->kinds = kinds;
	s->word_len++;
	return 0;
}

/* The line's first word ended (at a blank or LF). */
static int sp_stream_word_done(struct sp_model_stream *s)
{
	u32 k = sp_stream_kind(s);

	if (k == SP_K_NR)
		return sp_stream_refuse(s, "unknown line kind");
	if (k == SP_K_HEADER)
		s->header = true;
	if (k == SP_K_END)
		s->ended = true;
	s->at = SP_AT_REST;
	return 0;
}

static int sp_stream_byte(struct sp_model_stream *s, unsigned char c)
{
	if (!c)
		return sp_stream_refuse(s, "NUL byte");
	if (!sp_model_is_blank(c) && c != '\n')
		s->written = true;
	switch (s->at) {
	case SP_AT_LINE:
		if (sp_model_is_blank(c) || c == '\n')
			return 0;
		if (c == '#') {
			s->at = SP_AT_COMMENT;
			return 0;
		}
		if (s->ended)
			return sp_stream_refuse(s, "text after end");
		s->at = SP_AT_WORD;
		s->word_len = 0;
		s->kinds = SP_KINDS_ALL;
		return sp_stream_word_byte(s, c);
	case SP_AT_WORD:
		if (sp_model_is_blank(c) || c == '\n')
			return sp_stream_word_done(s);
		return sp_stream_word_byte(s, c);
	case SP_AT_REST:
		if (!s->ended || sp_model_is_blank(c) || c == '\n')
			return 0;
		if (c == '#') {
			s->at = SP_AT_COMMENT;
			return 0;
		}
		return sp_stream_refuse(s, "text after end");
	default:
		return 0;
	}
}

int sp_model_stream_feed(struct sp_model_stream *s, const char *buf, size_t len)
{
	size_t i;
	int ret;

	if (s->err)
		return s->err;
	if (len > SP_MODEL_TEXT_MAX - s->len) {
		s->msg = "text longer than 256 KiB";
		s->err = -E2BIG;
		s->err_off = SP_MODEL_TEXT_MAX;
		return -E2BIG;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		ret = sp_stream_byte(s, c);
		if (ret)
			return ret;
		if (c == '\n') {
			s->line++;
			s->at = SP_AT_LINE;
		}
		s->len++;
	}
	return 0;
}

bool sp_model_stream_ended(const struct sp_model_stream *s)
{
	return s->ended || (s->at == SP_AT_WORD && s->kinds == (1u << SP_K_END) &&
			    s->word_len == 3);
}
