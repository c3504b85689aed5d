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
 * each chunk as it arrives, keeping a few bytes of state (where in its line
 * the text is, and the line's first word so far, at most 18 bytes), and
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
 * parser accepts is never refused here.  A first word is checked when it
 * ends and at the end of every chunk, and refused at its first byte that no
 * kind has there, so the verdict, the offset refused and the state after a
 * chunk do not depend on how the bytes before it were split into chunks
 * (make fuzz checks it).  Keys and values are left to the parser: inside
 * them, and inside comments, only a NUL or the LF matters, and the chunk is
 * searched for those with memchr().
 */
#include "sp_model_int.h"

enum sp_model_stream_at {
	SP_AT_LINE,		/* before the line's first word */
	SP_AT_WORD,		/* inside the line's first word */
	SP_AT_REST,		/* after it, before the LF */
	SP_AT_COMMENT,		/* inside a comment */
};

void sp_model_stream_init(struct sp_model_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->line = 1;
}

/* Refuse the text at offset @off (the stream stays refused). */
static int sp_model_stream_refuse_at(struct sp_model_stream *s, u32 off, const char *msg)
{
	s->msg = msg;
	s->err = -EINVAL;
	s->err_off = off;
	s->len = off;
	return -EINVAL;
}

static int sp_model_stream_refuse(struct sp_model_stream *s, const char *msg)
{
	return sp_model_stream_refuse_at(s, s->len, msg);
}

/* How many leading bytes of the word so far @name shares. */
static u32 sp_model_stream_common(const struct sp_model_stream *s, const char *name)
{
	u32 i;

	for (i = 0; i < s->word_len && name[i]; i++)
		if ((unsigned char)name[i] != (unsigned char)s->word[i])
			break;
	return i;
}

/*
 * Can the line's first word so far still become a kind (the header, before
 * the header has been seen)?  If not, refuse it at its first byte that no
 * such kind has there: where a byte-by-byte check would have stopped.
 */
static int sp_model_stream_word_check(struct sp_model_stream *s)
{
	u32 k, n, any = 0, header = 0, stop;

	for (k = 0; k < SP_K_NR; k++) {
		n = sp_model_stream_common(s, sp_model_kind_name((enum sp_kind_id)k));
		if (n > any)
			any = n;
		if (k == SP_K_HEADER)
			header = n;
	}
	stop = s->header || header > any ? any : header;
	if (stop >= s->word_len)
		return 0;
	/* what a check at any other chunk boundary would have left */
	memset(s->word + stop, 0, sizeof(s->word) - stop);
	s->word_len = (u8)stop;
	return sp_model_stream_refuse_at(s, s->word_off + stop, stop == any ?
				   "unknown line kind" :
				   "first line must be sched_power_model");
}

/* The kind the complete first word is, or SP_K_NR. */
static u32 sp_model_stream_kind(const struct sp_model_stream *s)
{
	u32 k;

	for (k = 0; k < SP_K_NR; k++) {
		const char *name = sp_model_kind_name((enum sp_kind_id)k);

		if (strlen(name) == s->word_len && !memcmp(name, s->word, s->word_len))
			return k;
	}
	return SP_K_NR;
}

/* The line's first word ended (at a blank or LF). */
static int sp_model_stream_word_done(struct sp_model_stream *s)
{
	u32 k;

	if (sp_model_stream_word_check(s))
		return s->err;
	k = sp_model_stream_kind(s);
	if (k == SP_K_NR)
		return sp_model_stream_refuse(s, "unknown line kind");
	if (k == SP_K_HEADER)
		s->header = true;
	if (k == SP_K_END)
		s->ended = true;
	s->at = SP_AT_REST;
	return 0;
}

/* One more byte @c of the line's first word; checked when it may matter. */
static int sp_model_stream_word_byte(struct sp_model_stream *s, unsigned char c)
{
	if (!c) {
		if (sp_model_stream_word_check(s))
			return s->err;
		return sp_model_stream_refuse(s, "NUL byte");
	}
	s->word[s->word_len++] = (char)c;
	if (s->word_len == sizeof(s->word))
		return sp_model_stream_word_check(s);
	return 0;
}

static int sp_model_stream_byte(struct sp_model_stream *s, unsigned char c)
{
	if (s->at == SP_AT_WORD) {
		if (sp_model_is_blank(c) || c == '\n')
			return sp_model_stream_word_done(s);
		return sp_model_stream_word_byte(s, c);
	}
	if (!c)
		return sp_model_stream_refuse(s, "NUL byte");
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
			return sp_model_stream_refuse(s, "text after end");
		s->at = SP_AT_WORD;
		s->word_len = 0;
		s->word_off = s->len;
		return sp_model_stream_word_byte(s, c);
	case SP_AT_REST:
		if (!s->ended || sp_model_is_blank(c) || c == '\n')
			return 0;
		if (c == '#') {
			s->at = SP_AT_COMMENT;
			return 0;
		}
		return sp_model_stream_refuse(s, "text after end");
	default:
		return 0;
	}
}

/*
 * Inside a comment, or in a line's keys and values before "end", only a NUL
 * or the LF matter: skip to the LF (not past it) at memchr() speed.
 */
static size_t sp_model_stream_skip(struct sp_model_stream *s, const char *buf, size_t len)
{
	const char *lf, *nul;
	size_t n;

	if (s->at != SP_AT_COMMENT && (s->at != SP_AT_REST || s->ended))
		return 0;
	lf = memchr(buf, '\n', len);
	n = lf ? (size_t)(lf - buf) : len;
	nul = memchr(buf, '\0', n);
	if (nul) {
		s->len += (u32)(nul - buf);
		sp_model_stream_refuse(s, "NUL byte");
		return (size_t)(nul - buf);
	}
	s->len += (u32)n;
	return n;
}

int sp_model_stream_feed(struct sp_model_stream *s, const char *buf, size_t len)
{
	size_t room = SP_MODEL_TEXT_MAX - s->len, end = len < room ? len : room;
	size_t i;

	for (i = 0; i < end && !s->err; i++) {
		i += sp_model_stream_skip(s, buf + i, end - i);
		if (i == end || s->err)
			break;
		if (sp_model_stream_byte(s, buf[i]))
			break;
		if (buf[i] == '\n') {
			s->line++;
			s->at = SP_AT_LINE;
		}
		s->len++;
	}
	if (!s->err && s->at == SP_AT_WORD)
		sp_model_stream_word_check(s);
	if (!s->err && len > room) {
		s->msg = "text longer than 256 KiB";
		s->err = -E2BIG;
		s->err_off = SP_MODEL_TEXT_MAX;
	}
	return s->err;
}

bool sp_model_stream_ended(const struct sp_model_stream *s)
{
	return s->ended || (s->at == SP_AT_WORD && s->word_len == 3 &&
			    !memcmp(s->word, sp_model_kind_name(SP_K_END), 3));
}
