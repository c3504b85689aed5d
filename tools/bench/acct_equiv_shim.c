// SPDX-License-Identifier: GPL-2.0
/*
 * acct_equiv_shim.c - one copy of the idle accounting (core/sp_acct.c and
 * core/sp_state.c, included) behind four calls, for acct_equiv.c.  Built
 * twice, against two trees' core/ (-I), with SHIM() naming the calls per
 * copy; bench.mk keeps only those calls global, so the two copies' own
 * symbols do not meet.  The readout is by field name, so the two copies
 * may lay their structures out differently.
 */
#include "sp_state.c"
#include "sp_acct.c"

static struct sp_state shim_st;
static struct sp_acct shim_acct;

void SHIM(init)(const struct sp_model *m, u64 now_ns)
{
	sp_state_init(&shim_st, m, now_ns);
	sp_acct_reset(&shim_acct, now_ns);
}

/* op 0: enter state @arg; 1: exit; 2: reset; 3: pd_opp[@arg >> 8] = (s8)@arg; 4: set_cap @arg */
u64 SHIM(event)(const struct sp_model *m, u32 op, u32 cpu, u32 arg, u64 now_ns)
{
	struct sp_idle_exit_info x = { 0 };
	u64 r = 0;

	switch (op) {
	case 0:
		sp_acct_enter(&shim_acct, &shim_st, m, cpu, arg, now_ns);
		break;
	case 1:
		r = sp_acct_exit(&shim_acct, &shim_st, m, cpu, now_ns, arg ? &x : NULL);
		r = r << 63 ^ (u64)x.state << 48 ^ (u64)x.target_us << 24 ^ x.residency_us * 3 ^
		    x.verdict;
		break;
	case 2:
		sp_acct_reset(&shim_acct, now_ns);
		break;
	case 3:
		shim_st.pd_opp[(arg >> 8) % m->nr_pds] = (s8)arg;
		break;
	default:
		sp_state_set_cap(&shim_st, cpu, arg, now_ns);
	}
	return r;
}

#define PUT(v)	(n < max ? (void)(out[n++] = (u64)(v)) : (void)n++)

/* Every field the two copies keep and every readout at @now_ns into @out; returns the count. */
u32 SHIM(readout)(const struct sp_model *m, u64 now_ns, u64 *out, u32 max)
{
	struct sp_energy_sum s;
	u32 n = 0, i, j;

	PUT(shim_acct.reset_ns);
	for (i = 0; i < m->nr_pds; i++) {
		PUT(shim_st.pd_opp[i]);
		PUT(shim_st.pd_req[i]);
		PUT(sp_state_pd_opp(&shim_st, m, i));
	}
	for (i = 0; i < m->nr_cpus; i++) {
		const struct sp_cpu_state *c = &shim_st.cpu[i];
		const struct sp_acct_cpu *ac = &shim_acct.cpu[i];

		PUT(c->util); PUT(c->cap); PUT(c->idle_state);
		PUT(sp_atomic_read(&c->pending_util)); PUT(sp_atomic_read(&c->pending_nr));
		PUT(c->lat_tokens); PUT(c->idle_since_ns); PUT(c->util_stamp_ns);
		PUT(c->busy_since_ns); PUT(c->pending_ns); PUT(c->nr_running);
		PUT(c->placed_util); PUT(c->overload_since_ns); PUT(c->placed_ns);
		for (j = 0; j < SP_MAX_LEVELS; j++)
			PUT(c->group_off[j]);
		PUT(c->req_urange); PUT(c->opp_clamp); PUT(c->deepest);
		PUT(shim_st.opp_req[i]);
		PUT(sp_state_cpu_util(&shim_st, i, now_ns));
		for (j = 0; j < SP_MAX_IDLE; j++) {
			PUT(ac->state[j].residency_us);
			PUT(ac->state[j].verdict[0]); PUT(ac->state[j].verdict[1]);
			PUT(ac->state[j].verdict[2]);
		}
		for (j = 0; j < SP_MAX_OPPS; j++)
			PUT(ac->busy_opp_us[j]);
		sp_acct_cpu_sum(&shim_acct, &shim_st, m, i, now_ns, &s);
		PUT(s.busy_us); PUT(s.idle_us); PUT(s.busy_nj); PUT(s.idle_nj);
		PUT(s.wake_nj); PUT(s.wakeups);
	}
	for (i = 0; i < m->nr_groups; i++) {
		const struct sp_group_state *g = &shim_st.group[i];
		const struct sp_acct_group *ag = &shim_acct.group[i];

		PUT(sp_atomic_read(&g->nr_awake)); PUT(g->awake_avg); PUT(g->idle_since_ns);
		PUT(g->awake_since_ns); PUT(g->avg_stamp_ns);
		PUT(sp_atomic64_read(&ag->wakeups)); PUT(sp_atomic64_read(&ag->active_us));
		PUT(sp_atomic64_read(&ag->idle_us));
		PUT(sp_state_group_awake(&shim_st, i, now_ns));
		PUT(sp_state_group_awake_stored(&shim_st, i, now_ns));
		sp_acct_group_sum(&shim_acct, &shim_st, m, i, now_ns, &s);
		PUT(s.busy_us); PUT(s.idle_us); PUT(s.busy_nj); PUT(s.idle_nj);
		PUT(s.wake_nj); PUT(s.wakeups);
	}
	return n;
}
