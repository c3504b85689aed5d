// SPDX-License-Identifier: GPL-2.0
/*
 * evq.c - the event queue: one binary heap ordered by (time, sequence
 * number), so that events of equal time pop in the order they were pushed
 * and a run is deterministic (sim.c's DOC block lists the events).  Every
 * layer of the simulator pushes; only the loop (sim.c) pops.
 */
#include <stdlib.h>

#include "sim_int.h"

static bool evq_before(const struct sim_evt *a, const struct sim_evt *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int evq_push(struct sim *S, u64 t, u32 kind, u32 id, u32 gen, u32 arg)
{
	struct sim_evt e = { .t = t, .seq = S->seq++, .kind = kind, .id = id,
			     .gen = gen, .arg = arg };
	u32 i;

	if (S->heap_n == S->heap_cap) {
		u32 cap = S->heap_cap ? 2 * S->heap_cap : 256;
		struct sim_evt *h = realloc(S->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		S->heap = h;
		S->heap_cap = cap;
	}
	i = S->heap_n++;
	while (i && evq_before(&e, &S->heap[(i - 1) / 2])) {
		S->heap[i] = S->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	S->heap[i] = e;
	return 0;
}

struct sim_evt evq_pop(struct sim *S)
{
	struct sim_evt top = S->heap[0], last = S->heap[--S->heap_n];
	u32 i = 0, n = S->heap_n;

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && evq_before(&S->heap[c + 1], &S->heap[c]))
			c++;
		if (!evq_before(&S->heap[c], &last))
			break;
		S->heap[i] = S->heap[c];
		i = c;
	}
	if (n)
		S->heap[i] = last;
	return top;
}
