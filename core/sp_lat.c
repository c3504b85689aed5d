// SPDX-License-Identifier: GPL-2.0
/*
 * sp_lat.c - pure rules of per-task wake-up latency bounds.
 *
 * DOC: latency-bound rules
 *
 * The kernel side (latency.c) keeps the bounds and the QoS requests; what a
 * write means, how low a bound may go, how many a user may hold and which
 * resume latency each CPU should carry are decided here, so that the host
 * tests check them without a kernel.
 */
#include "sp_compat.h"
#include "sp_lat.h"

/* ASCII decimal, optional single trailing newline; 0 or -EINVAL. */
static int sp_lat_parse_ascii(const char *buf, size_t len, u32 *us)
{
	u64 v = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len > 10)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		v = v * 10 + (u64)(buf[i] - '0');
	}
	if (v > SP_LAT_MAX_US)
		return -EINVAL;
	*us = (u32)v;
	return 0;
}

int sp_lat_parse(const char *buf, size_t len, u32 *us)
{
	s32 bin;

	if (!sp_lat_parse_ascii(buf, len, us))
		return 0;
	if (len != sizeof(bin))
		return -EINVAL;
	memcpy(&bin, buf, sizeof(bin));
	if (bin < 0 || (u32)bin > SP_LAT_MAX_US)
		return -EINVAL;
	*us = (u32)bin;
	return 0;
}

u32 sp_lat_floor_us(const struct sp_model *m)
{
	u32 best = 0, p, i;

	for (p = 0; m && p < m->nr_pds && p < SP_MAX_PDS; p++) {
		const struct sp_pd *pd = &m->pd[p];

		for (i = 0; i < pd->nr_idle && i < SP_MAX_IDLE; i++) {
			u32 l = pd->idle[i].exit_latency_us;

			if (l && (!best || l < best))
				best = l;
		}
	}
	return best + SP_LAT_FLOOR_MARGIN_US;
}

int sp_lat_admit(u32 total, u32 uid_count)
{
	if (total >= SP_LAT_MAX_ENTRIES || uid_count >= SP_LAT_MAX_PER_UID)
		return -ENOSPC;
	return 0;
}

void sp_lat_fold(u32 *want_us, u32 nr_cpus, s32 cpu, u32 bound_us)
{
	if (cpu < 0 || (u32)cpu >= nr_cpus || bound_us == SP_LAT_NONE)
		return;
	if (want_us[cpu] == SP_LAT_NONE || bound_us < want_us[cpu])
		want_us[cpu] = bound_us;
}
