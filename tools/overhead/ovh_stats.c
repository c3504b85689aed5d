// SPDX-License-Identifier: GPL-2.0
/*
 * ovh_stats.c - the table of make vm-overhead from the guest's run lines.
 *
 * Copyright (C) 2026 sched_power developers
 *
 *   ovh-stats [--csv OUT.csv] RUNS...
 *
 * RUNS hold lines of two kinds (other lines are ignored):
 *   ovh-run round=R config=C workload=W us=T calls=N      (timed run)
 *   ovh-insn round=R config=C workload=W ops=O total=T calls=N ext=E inner=I
 *                                                         (plugin counts)
 * Timed runs: per round, the ratio of each configuration's time to the
 * not_loaded time of the same round and workload; the median of those
 * ratios and its bootstrap 95 % interval; "cannot tell" when the interval
 * reaches more than 2 % from the median.  Instruction counts: medians over
 * rounds of instructions per operation (every vCPU), hook calls per
 * operation and instructions per select_task_rq_fair call, entry to return;
 * the hook's share is a configuration's per-call count minus not_loaded's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovh_stats.h"

#define MAX_CFG		16
#define MAX_ROUNDS	64
#define NWL		2
#define BASE		"not_loaded"

static const char *const wl_names[NWL] = { "pipe", "messaging" };

struct cell {
	double us[MAX_ROUNDS + 1];	/* index = round; 0 = none */
	double ins_total[MAX_ROUNDS + 1], ins_ops[MAX_ROUNDS + 1];
	double ins_calls[MAX_ROUNDS + 1], ins_ext[MAX_ROUNDS + 1];
	double ins_inner[MAX_ROUNDS + 1], ins_mod_other[MAX_ROUNDS + 1];
	double calls[MAX_ROUNDS + 1];	/* timed run's hook calls, -1 unknown */
	unsigned char has_us[MAX_ROUNDS + 1], has_ins[MAX_ROUNDS + 1];
};

static char cfg_names[MAX_CFG][64];
static int ncfg;
static struct cell cells[MAX_CFG][NWL];

static int cfg_index(const char *name)
{
	int i;

	for (i = 0; i < ncfg; i++)
		if (!strcmp(cfg_names[i], name))
			return i;
	if (ncfg == MAX_CFG)
		return -1;
	snprintf(cfg_names[ncfg], sizeof(cfg_names[0]), "%s", name);
	return ncfg++;
}

static int wl_index(const char *name)
{
	int i;

	for (i = 0; i < NWL; i++)
		if (!strcmp(wl_names[i], name))
			return i;
	return -1;
}

/* Value of key=VALUE in line, as text; NULL if absent. */
static const char *field(const char *line, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " \t\r\n");

			if (n >= len)
				n = len - 1;
			memcpy(buf, p + kl + 1, n);
			buf[n] = 0;
			return buf;
		}
		p += kl;
	}
	return NULL;
}

static int read_runs(const char *path)
{
	char line[1024], cfg[64], wl[64], rd[32], v[64];
	FILE *f = fopen(path, "r");
	int bad = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		int ins = !strncmp(line, "ovh-insn ", 9);
		struct cell *c;
		int ci, wi, r;

		if (!ins && strncmp(line, "ovh-run ", 8))
			continue;
		if (!field(line, "config", cfg, sizeof(cfg)) || !field(line, "workload", wl, sizeof(wl)) ||
		    !field(line, "round", rd, sizeof(rd))) {
			bad++;
			continue;
		}
		r = atoi(rd);
		ci = cfg_index(cfg);
		wi = wl_index(wl);
		if (ci < 0 || wi < 0 || r < 1 || r > MAX_ROUNDS) {
			bad++;
			continue;
		}
		c = &cells[ci][wi];
		if (!ins) {
			if (!field(line, "us", v, sizeof(v)) || atof(v) <= 0) {
				bad++;
				continue;
			}
			c->us[r] = atof(v);
			c->calls[r] = field(line, "calls", v, sizeof(v)) && v[0] != '-' ? atof(v) : -1;
			c->has_us[r] = 1;
			continue;
		}
		if (!field(line, "ops", v, sizeof(v)) || atof(v) <= 0) {
			bad++;
			continue;
		}
		c->ins_ops[r] = atof(v);
		c->ins_total[r] = field(line, "total", v, sizeof(v)) ? atof(v) : 0;
		c->ins_calls[r] = field(line, "calls", v, sizeof(v)) ? atof(v) : 0;
		c->ins_ext[r] = field(line, "ext", v, sizeof(v)) ? atof(v) : 0;
		c->ins_inner[r] = field(line, "inner", v, sizeof(v)) ? atof(v) : 0;
		c->ins_mod_other[r] = field(line, "mod_other", v, sizeof(v)) ? atof(v) : 0;
		c->has_ins[r] = 1;
	}
	fclose(f);
	if (bad)
		fprintf(stderr, "ovh-stats: %s: %d malformed run lines ignored\n", path, bad);
	return 0;
}

struct row {
	int rounds;
	struct boot_ci ci;
	enum ovh_verdict verdict;
	int ins_rounds;
	double ins_per_op, ins_ratio, calls_per_op, ext_per_call, inner_per_call;
	double hook_per_call;
	double mod_other_per_op;	/* module code outside the calls: other probes */
};

/* Where a too-wide interval lies against the +-2 % goal band. */
static const char *side_note(const struct boot_ci *ci)
{
	if (ci->lo > 1 + OVH_TOL)
		return " >1.02";
	if (ci->hi < 1 - OVH_TOL)
		return " <0.98";
	return "";
}

/* Per-round time ratios of cell c to base b, then the interval. */
static void time_row(const struct cell *c, const struct cell *b, struct row *row)
{
	double ratios[MAX_ROUNDS];
	int r, n = 0;

	for (r = 1; r <= MAX_ROUNDS; r++)
		if (c->has_us[r] && b->has_us[r])
			ratios[n++] = c->us[r] / b->us[r];
	row->rounds = n;
	if (n && !boot_ci(ratios, n, OVH_BOOT_RESAMPLES, 0x5eed + n, &row->ci))
		row->verdict = ovh_judge(&row->ci, OVH_TOL);
	else
		row->rounds = 0;
}

/* Medians over rounds of the plugin's counts. */
static void insn_row(const struct cell *c, struct row *row)
{
	double op[MAX_ROUNDS], cpo[MAX_ROUNDS], ext[MAX_ROUNDS], inner[MAX_ROUNDS];
	double mod[MAX_ROUNDS];
	int r, n = 0, ni = 0;

	for (r = 1; r <= MAX_ROUNDS; r++) {
		if (!c->has_ins[r])
			continue;
		op[n] = c->ins_total[r] / c->ins_ops[r];
		cpo[n] = c->ins_calls[r] / c->ins_ops[r];
		mod[n] = c->ins_mod_other[r] / c->ins_ops[r];
		ext[n] = c->ins_calls[r] ? c->ins_ext[r] / c->ins_calls[r] : 0;
		if (c->ins_inner[r] > 0)
			inner[ni++] = c->ins_inner[r] / c->ins_calls[r];
		n++;
	}
	row->ins_rounds = n;
	if (!n)
		return;
	row->ins_per_op = boot_median(op, n);
	row->calls_per_op = boot_median(cpo, n);
	row->ext_per_call = boot_median(ext, n);
	row->inner_per_call = ni ? boot_median(inner, ni) : 0;
	row->mod_other_per_op = boot_median(mod, n);
}

int main(int argc, char **argv)
{
	const char *csv_path = NULL;
	struct row rows[MAX_CFG][NWL];
	FILE *csv = NULL;
	int i, w, base;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv_path = argv[++i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: ovh-stats [--csv OUT.csv] RUNS...\n");
			return 2;
		} else if (read_runs(argv[i])) {
			return 1;
		}
	}
	base = -1;
	for (i = 0; i < ncfg; i++)
		if (!strcmp(cfg_names[i], BASE))
			base = i;
	if (base < 0) {
		fprintf(stderr, "ovh-stats: no %s runs: nothing to compare with\n", BASE);
		return 1;
	}
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < ncfg; i++)
		for (w = 0; w < NWL; w++) {
			time_row(&cells[i][w], &cells[base][w], &rows[i][w]);
			insn_row(&cells[i][w], &rows[i][w]);
		}
	for (i = 0; i < ncfg; i++)
		for (w = 0; w < NWL; w++) {
			struct row *r = &rows[i][w], *b = &rows[base][w];

			if (r->ins_rounds && b->ins_rounds) {
				r->ins_ratio = r->ins_per_op / b->ins_per_op;
				r->hook_per_call = i == base ? 0 : r->ext_per_call - b->ext_per_call;
			}
		}

	printf("# time: median over rounds of (config / not_loaded, same round), bootstrap 95 %% interval;\n");
	printf("# \"cannot tell\" when the interval reaches beyond +-2 %% of the median; \">1.02\": even so,\n");
	printf("# the whole interval lies above 1.02 (\"<0.98\": below 0.98).\n");
	printf("# insn: qemu plugin counts, median over rounds; per op = every vCPU's instructions / ops;\n");
	printf("# srf/call = select_task_rq_fair entry to return, hook included; hook/call = that minus not_loaded's;\n");
	printf("# mod/op = the module's code run outside those calls (its idle and frequency probes) per op;\n");
	printf("# messaging: op = one run\n");
	printf("%-10s %-12s %3s  %-36s %3s %12s %7s %9s %9s %9s %9s\n", "workload", "config", "n",
	       "time ratio [95% CI]", "n", "insn/op", "ratio", "calls/op", "srf/call", "hook/call",
	       "mod/op");
	for (w = 0; w < NWL; w++)
		for (i = 0; i < ncfg; i++) {
			const struct row *r = &rows[i][w];
			char t[64];

			if (!r->rounds && !r->ins_rounds)
				continue;
			if (!r->rounds)
				snprintf(t, sizeof(t), "not run");
			else if (r->verdict == OVH_CANNOT_TELL)
				snprintf(t, sizeof(t), "cannot tell [%.3f, %.3f]%s", r->ci.lo, r->ci.hi,
					 side_note(&r->ci));
			else
				snprintf(t, sizeof(t), "%.3f [%.3f, %.3f]", r->ci.est, r->ci.lo, r->ci.hi);
			printf("%-10s %-12s %3d  %-36s %3d %12.0f %7.3f %9.2f %9.0f %9.0f %9.0f\n",
			       wl_names[w], cfg_names[i], r->rounds, t, r->ins_rounds, r->ins_per_op,
			       r->ins_ratio, r->calls_per_op, r->ext_per_call, r->hook_per_call,
			       r->mod_other_per_op);
		}
	if (!csv_path)
		return 0;
	csv = fopen(csv_path, "w");
	if (!csv) {
		perror(csv_path);
		return 1;
	}
	fprintf(csv, "workload,config,rounds,time_ratio,time_ci_lo,time_ci_hi,time_verdict,insn_rounds,insns_per_op,insn_ratio,hook_calls_per_op,srf_insns_per_call,hook_insns_per_call,inner_insns_per_call,mod_other_insns_per_op\n");
	for (w = 0; w < NWL; w++)
		for (i = 0; i < ncfg; i++) {
			const struct row *r = &rows[i][w];

			if (!r->rounds && !r->ins_rounds)
				continue;
			fprintf(csv, "%s,%s,%d,", wl_names[w], cfg_names[i], r->rounds);
			if (r->rounds)
				fprintf(csv, "%.4f,%.4f,%.4f,%s,", r->ci.est, r->ci.lo, r->ci.hi,
					ovh_verdict_name(r->verdict));
			else
				fprintf(csv, ",,,not_run,");
			fprintf(csv, "%d,%.0f,%.4f,%.3f,%.0f,%.0f,%.0f,%.0f\n", r->ins_rounds,
				r->ins_per_op, r->ins_ratio, r->calls_per_op, r->ext_per_call,
				r->hook_per_call, r->inner_per_call, r->mod_other_per_op);
		}
	fclose(csv);
	return 0;
}
