// SPDX-License-Identifier: GPL-2.0
/*
 * sp_insn_plugin.c - a qemu TCG plugin that counts guest instructions
 * executed inside select_task_rq_fair() per call, hook included, for
 * make vm-overhead (Documentation/overhead.rst).
 *
 * Copyright (C) 2026 sched_power developers
 *
 * Arguments (-plugin FILE,entry=0x..,mark=0x..,rethook=0x..,out=PATH):
 *   entry    select_task_rq_fair's address (guest booted with nokaslr)
 *   mark     a kernel function the guest job calls between phases
 *            (ksys_sync: the job runs `sync`); each call ends a phase
 *   rethook  arch_rethook_trampoline: a kretprobe's return half is counted
 *            as part of the call it returns from
 *   out      where the per-phase counts go
 *
 * A call's extent: from the first instruction at entry until the matching
 * return, tracked per vCPU by a call depth (a translation block ends at its
 * one call or return, so each block's kind is known when it is translated).
 * An ftrace redirect returns from its trampoline into the module's wrapper,
 * which calls the original again: that nested call is counted inside the
 * outer one and on its own as "inner" (select_task_rq_fair as the wrapper
 * calls it, including the fentry pass that lets it through).  The hook runs
 * with IRQs off, so nothing else interleaves on that vCPU.
 *
 * At each mark the plugin writes one "phase" line and the extent's
 * instructions per translation block address (the host maps them to
 * symbols), then starts the next phase from zero.  Run it under
 * single-threaded TCG: the counters are not atomic.
 *
 * Declarations of qemu's plugin API (version 1, qemu 7.2) are written out
 * here because Debian ships no qemu-plugin.h; only functions the qemu
 * binary exports are used.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- qemu plugin API, version 1 ---------------------------------------- */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;
enum sp_qemu_cb_flags { SP_QEMU_CB_NO_REGS = 0 };
enum sp_qemu_op { SP_QEMU_INLINE_ADD_U64 = 0 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
	void (*cb)(unsigned int vcpu, void *udata), int flags, void *udata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
	int op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, void *udata), void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* ---- state ------------------------------------------------------------- */
#define SP_MAX_VCPUS	64
#define SP_PROF_SLOTS	8192		/* distinct block addresses per phase */
#define SP_KERNEL_BASE	0xffff800000000000ull
#define SP_MODULE_BASE	0xffffffffc0000000ull	/* x86-64 module area */

enum sp_tb_kind { SP_TB_PLAIN, SP_TB_CALL, SP_TB_RET };

struct sp_tb {
	uint64_t vaddr;
	uint32_t n_insns;
	uint8_t kind;
};

struct sp_vcpu {
	bool inside;		/* in an outer call's extent */
	bool inner;		/* in the nested call of the original */
	bool after_exit;	/* the outer call just returned */
	int depth;		/* calls minus returns since the outer entry */
	int inner_base;		/* depth at the nested call's entry */
};

struct sp_prof {
	uint64_t vaddr;
	uint64_t insns;
};

static uint64_t entry_addr, mark_addr, rethook_addr;
static FILE *out;
static struct sp_vcpu vcpus[SP_MAX_VCPUS];
static struct sp_prof prof[SP_PROF_SLOTS];
/* module-area blocks run outside the calls, by block */
static struct sp_prof prof_out[SP_PROF_SLOTS];
static uint64_t prof_lost;		/* insns of blocks that found no slot */
static uint64_t total_insns;		/* every guest instruction, all vCPUs */
static uint64_t calls, ext_insns, inner_calls, inner_insns, phase;
/* module-area code run outside the calls: the module's other probes */
static uint64_t mod_other_insns;

static void prof_add_to(struct sp_prof *tab, uint64_t vaddr, uint64_t n)
{
	uint64_t h = (vaddr * 0x9e3779b97f4a7c15ull) >> 51;	/* 13 bits */
	uint32_t i;

	for (i = 0; i < SP_PROF_SLOTS; i++) {
		struct sp_prof *p = &tab[(h + i) % SP_PROF_SLOTS];

		if (p->vaddr == vaddr || !p->vaddr) {
			p->vaddr = vaddr;
			p->insns += n;
			return;
		}
	}
	prof_lost += n;
}

static void prof_add(uint64_t vaddr, uint64_t n)
{
	prof_add_to(prof, vaddr, n);
}

static void phase_dump(void)
{
	uint32_t i;

	fprintf(out, "phase %llu total_insns=%llu calls=%llu ext_insns=%llu inner_calls=%llu inner_insns=%llu mod_other_insns=%llu prof_lost=%llu\n",
		(unsigned long long)phase, (unsigned long long)total_insns,
		(unsigned long long)calls, (unsigned long long)ext_insns,
		(unsigned long long)inner_calls, (unsigned long long)inner_insns,
		(unsigned long long)mod_other_insns, (unsigned long long)prof_lost);
	for (i = 0; i < SP_PROF_SLOTS; i++)
		if (prof[i].vaddr)
			fprintf(out, "tb %llx %llu\n", (unsigned long long)prof[i].vaddr,
				(unsigned long long)prof[i].insns);
	for (i = 0; i < SP_PROF_SLOTS; i++)
		if (prof_out[i].vaddr)
			fprintf(out, "otb %llx %llu\n", (unsigned long long)prof_out[i].vaddr,
				(unsigned long long)prof_out[i].insns);
	fflush(out);
	memset(prof, 0, sizeof(prof));
	memset(prof_out, 0, sizeof(prof_out));
	prof_lost = total_insns = calls = ext_insns = inner_calls = inner_insns = 0;
	mod_other_insns = 0;
	phase++;
}

static void tb_exec(unsigned int vcpu_index, void *udata)
{
	const struct sp_tb *tb = udata;
	struct sp_vcpu *v = &vcpus[vcpu_index % SP_MAX_VCPUS];

	if (tb->vaddr == mark_addr) {
		phase_dump();
		return;
	}
	if (v->after_exit) {
		v->after_exit = false;
		/* a kretprobe's return half: part of the call it ends */
		if (tb->vaddr == rethook_addr && rethook_addr) {
			v->inside = true;
			v->depth = 0;
		}
	}
	if (tb->vaddr == entry_addr) {
		if (!v->inside) {
			v->inside = true;
			v->depth = 0;
			calls++;
		} else if (!v->inner) {
			v->inner = true;
			v->inner_base = v->depth;
			inner_calls++;
		}
	}
	if (!v->inside) {
		if (tb->vaddr >= SP_MODULE_BASE) {
			mod_other_insns += tb->n_insns;
			prof_add_to(prof_out, tb->vaddr, tb->n_insns);
		}
		return;
	}
	ext_insns += tb->n_insns;
	if (v->inner)
		inner_insns += tb->n_insns;
	prof_add(tb->vaddr, tb->n_insns);
	if (tb->kind == SP_TB_CALL) {
		v->depth++;
	} else if (tb->kind == SP_TB_RET) {
		v->depth--;
		if (v->inner && v->depth < v->inner_base)
			v->inner = false;
		if (v->depth < 0) {
			v->inside = false;
			v->inner = false;
			v->after_exit = true;
		}
	}
}

/* The kind of the block's last instruction: call, return or neither. */
static uint8_t insn_kind(const struct qemu_plugin_insn *insn)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn), i = 0;

	while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 ||
			 b[i] == 0xf3 || b[i] == 0x2e || b[i] == 0x3e ||
			 b[i] == 0x26 || b[i] == 0x36 || b[i] == 0x64 ||
			 b[i] == 0x65 || (b[i] & 0xf0) == 0x40))
		i++;
	if (i >= n)
		return SP_TB_PLAIN;
	switch (b[i]) {
	case 0xe8:
		return SP_TB_CALL;
	case 0xff:
		if (i + 1 < n && (((b[i + 1] >> 3) & 7) == 2 || ((b[i + 1] >> 3) & 7) == 3))
			return SP_TB_CALL;
		return SP_TB_PLAIN;
	case 0xc3: case 0xc2: case 0xcb: case 0xca:
		return SP_TB_RET;
	default:
		return SP_TB_PLAIN;
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct sp_tb *t;

	qemu_plugin_register_vcpu_tb_exec_inline(tb, SP_QEMU_INLINE_ADD_U64,
						 &total_insns, n);
	if (vaddr < SP_KERNEL_BASE || !n)
		return;
	t = calloc(1, sizeof(*t));
	if (!t)
		return;
	t->vaddr = vaddr;
	t->n_insns = n;
	t->kind = insn_kind(qemu_plugin_tb_get_insn(tb, n - 1));
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, SP_QEMU_CB_NO_REGS, t);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	phase_dump();
	fclose(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	const char *path = "sp-insn.txt";
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "entry=", 6))
			entry_addr = strtoull(argv[i] + 6, NULL, 0);
		else if (!strncmp(argv[i], "mark=", 5))
			mark_addr = strtoull(argv[i] + 5, NULL, 0);
		else if (!strncmp(argv[i], "rethook=", 8))
			rethook_addr = strtoull(argv[i] + 8, NULL, 0);
		else if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else {
			fprintf(stderr, "sp_insn_plugin: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!entry_addr || !mark_addr) {
		fprintf(stderr, "sp_insn_plugin: entry= and mark= are required\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
