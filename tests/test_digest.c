// SPDX-License-Identifier: GPL-2.0
/*
 * The placement core's decisions against the committed digest
 * (tools/bench/place-digest.txt: place_equiv --digest, make place-digest),
 * and the digest itself: every output field of a decision counts in it,
 * the CPU digest counts only the CPU's fields, and each kind of difference
 * fails with the way to regenerate the file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "place_digest.h"

/* place_equiv --digest's output (stdout and stderr) and exit status */
static char run_out[65536];
static int run_rc = -1;

static int run_digest(void **state)
{
	char cmd[1024];
	size_t n;
	FILE *p;
	int rc;

	snprintf(cmd, sizeof(cmd), "cd %s && %s --digest --check %s models/*.model 2>&1",
		 PD_TOP, PD_TOOL, PLACE_DIGEST_FILE);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(run_out, 1, sizeof(run_out) - 1, p);
	run_out[n] = 0;
	rc = pclose(p);
	run_rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
	return 0;
}

/* The run's lines that start with @prefix, one after the other. */
static void lines_with(const char *prefix, char *buf, size_t len)
{
	const char *line = run_out;
	size_t at = 0;

	buf[0] = 0;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) + 1 : strlen(line);

		if (!strncmp(line, prefix, strlen(prefix)) && at + n < len) {
			memcpy(buf + at, line, n);
			at += n;
			buf[at] = 0;
		}
		line = end ? end + 1 : NULL;
	}
}

/*
 * The decisions made now are those of the committed file, for every model
 * in models/ and every mode.
 */
static void test_decisions_match_committed_digest(void **state)
{
	static char said[16384];

	lines_with("place-digest:", said, sizeof(said));
	if (run_rc != 0 || said[0]) {
		/* whole, where fail_msg() would cut it */
		fprintf(stderr, "%s", said[0] ? said : run_out);
		fflush(stderr);
		fail_msg("place_equiv --digest --check %s exited %d", PLACE_DIGEST_FILE, run_rc);
	}
}

/* The seeded decisions reach every reason, over the models and modes. */
static void test_every_reason_covered(void **state)
{
	unsigned long count[SP_R_NR] = { 0 };
	const char *at = run_out;
	u32 r;

	while ((at = strstr(at, "#   "))) {
		for (r = 0; r < SP_R_NR; r++) {
			char key[64];
			const char *v, *eol = strchr(at, '\n');

			snprintf(key, sizeof(key), " %s=", sp_reason_names[r]);
			v = strstr(at, key);
			if (v && (!eol || v < eol))
				count[r] += strtoul(v + strlen(key), NULL, 10);
		}
		at += 4;
	}
	for (r = 0; r < SP_R_NR; r++)
		if (!count[r])
			fail_msg("no decision with reason %s in:\n%s", sp_reason_names[r], run_out);
}

#define FIELD(f, in_cpu) { #f, offsetof(struct sp_decision, f), \
			   sizeof(((struct sp_decision *)0)->f), in_cpu }

/* Every field of struct sp_decision, in its order, and whether cpu= counts it. */
static const struct {
	const char *name;
	size_t off, size;
	bool in_cpu;
} fields[] = {
	FIELD(cpu, true), FIELD(ret_cpu, true), FIELD(util, false),
	FIELD(prev_cpu, false), FIELD(cfs_cpu, false), FIELD(wake, false),
	FIELD(mode, false), FIELD(reason, false), FIELD(override, true),
	FIELD(applied, false), FIELD(nr_candidates, false), FIELD(cfs_nj, false),
	FIELD(chosen_nj, false), FIELD(terms.busy_nj, false),
	FIELD(terms.pstate_nj, false), FIELD(terms.idle_nj, false),
	FIELD(terms.wake_nj, false), FIELD(terms.static_nj, false),
	FIELD(terms.future_nj, false), FIELD(terms.total_nj, false),
	FIELD(terms.opp_before, false), FIELD(terms.opp_after, false),
	FIELD(terms.groups_woken, false), FIELD(lat_bound_us, false),
	FIELD(wake_lat_us, false), FIELD(lat_miss, false), FIELD(queued, false),
	FIELD(queue_us, false), FIELD(slower, false),
};

static void digest_one(const struct sp_decision *d, struct place_digest *pd)
{
	place_digest_init(pd);
	place_digest_add(pd, d);
}

/*
 * A change of any one field changes all=, of cpu, ret_cpu or override
 * cpu= too; applied, which only the caller sets, changes neither.
 */
static void test_every_field_counts(void **state)
{
	struct place_digest base, pd;
	struct sp_decision d;
	size_t i;

	memset(&d, 0, sizeof(d));
	d.cpu = 3;
	d.cfs_cpu = 1;
	d.cfs_nj = 1000;
	digest_one(&d, &base);
	for (i = 0; i < SP_ARRAY_SIZE(fields); i++) {
		struct sp_decision x = d;
		bool caller = !strcmp(fields[i].name, "applied");

		/* one byte of the field, whichever the host's byte order: 0 <-> 1 for a bool */
		((unsigned char *)&x + fields[i].off)[0] ^= 1;
		digest_one(&x, &pd);
		if (caller ? pd.all != base.all : pd.all == base.all)
			fail_msg("%s: all=%016llx with the field changed, %016llx without",
				 fields[i].name, (unsigned long long)pd.all,
				 (unsigned long long)base.all);
		if (fields[i].in_cpu ? pd.cpu == base.cpu : pd.cpu != base.cpu)
			fail_msg("%s: cpu=%016llx with the field changed, %016llx without",
				 fields[i].name, (unsigned long long)pd.cpu,
				 (unsigned long long)base.cpu);
	}
}

/*
 * fields[] is the whole struct: between two fields, and after the last,
 * no more than padding (less than the next one's size, at most 7 bytes).
 * A field added to struct sp_decision lands here until it is listed, and
 * hashed by place_digest_add() (unless it fits in padding, which the
 * review of that change has to see).
 */
static void test_fields_cover_struct(void **state)
{
	size_t i, end = 0;

	for (i = 0; i < SP_ARRAY_SIZE(fields); i++) {
		size_t align = fields[i].size < 8 ? fields[i].size : 8;

		assert_true(fields[i].off >= end);
		if (fields[i].off - end >= align)
			fail_msg("%zu bytes before %s: a field not hashed?",
				 fields[i].off - end, fields[i].name);
		end = fields[i].off + fields[i].size;
	}
	if (sizeof(struct sp_decision) - end >= 8)
		fail_msg("%zu bytes after the last field: a field not hashed?",
			 sizeof(struct sp_decision) - end);
}

static char said[4096];

/* place_digest_check() of @actual against @expected; what it said in said[]. */
static int check(const char *expected, const char *actual)
{
	FILE *f = fmemopen(said, sizeof(said), "w");
	int bad;

	assert_non_null(f);
	bad = place_digest_check(f, "digest.txt", expected, actual);
	fclose(f);
	return bad;
}

#define L_POWER	"digest model=a mode=power n=10 cpu=00000000000000aa all=00000000000000bb\n"
#define L_OBS	"digest model=a mode=observe n=10 cpu=00000000000000cc all=00000000000000dd\n"
/* each one field off L_POWER's or L_OBS' */
#define L_OBS_CPU	"digest model=a mode=observe n=10 cpu=00000000000000c0 all=00000000000000dd\n"
#define L_POWER_ALL	"digest model=a mode=power n=10 cpu=00000000000000aa all=00000000000000b0\n"
#define L_POWER_N	"digest model=a mode=power n=11 cpu=00000000000000aa all=00000000000000bb\n"

static void says_how_to_regenerate(void)
{
	assert_non_null(strstr(said, "make place-digest-update"));
	assert_non_null(strstr(said, "commit message"));
}

/* The same lines, in any order, with other lines between: no difference. */
static void test_check_same(void **state)
{
	assert_int_equal(check("# header\n" L_POWER L_OBS, L_OBS "#   reasons\n" L_POWER), 0);
	assert_string_equal(said, "");
}

static void test_check_cpu_changed(void **state)
{
	assert_int_equal(check(L_POWER L_OBS, L_POWER L_OBS_CPU), 1);
	assert_non_null(strstr(said, "model=a mode=observe: the CPUs chosen changed"));
	says_how_to_regenerate();
}

static void test_check_only_all_changed(void **state)
{
	assert_int_equal(check(L_POWER, L_POWER_ALL), 1);
	assert_non_null(strstr(said, "model=a mode=power: the same CPUs, but an energy"));
	says_how_to_regenerate();
}

static void test_check_lines_missing(void **state)
{
	assert_int_equal(check(L_POWER L_OBS, L_POWER), 1);
	assert_non_null(strstr(said, "model=a mode=observe: in digest.txt, not in this run"));
	says_how_to_regenerate();
	assert_int_equal(check(L_POWER, L_POWER L_OBS), 1);
	assert_non_null(strstr(said, "model=a mode=observe: in this run, not in digest.txt"));
	assert_int_equal(check(L_POWER, L_POWER_N), 1);
	assert_non_null(strstr(said, "n=11, digest.txt has n=10"));
	assert_int_equal(check("", L_POWER), 2);
	assert_non_null(strstr(said, "no digest lines in digest.txt"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decisions_match_committed_digest),
		cmocka_unit_test(test_every_reason_covered),
		cmocka_unit_test(test_every_field_counts),
		cmocka_unit_test(test_fields_cover_struct),
		cmocka_unit_test(test_check_same),
		cmocka_unit_test(test_check_cpu_changed),
		cmocka_unit_test(test_check_only_all_changed),
		cmocka_unit_test(test_check_lines_missing),
	};

	return cmocka_run_group_tests(tests, run_digest, NULL);
}
