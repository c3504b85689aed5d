// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - formatting helpers that the analysis, the replay and the
 * printers all use, kept below them so that none of those calls another
 * back.
 */
#include <string.h>

#include "report.h"

/* "0-1,3" from a CPU bitmask of @nr CPUs. */
void rep_cpus_str(const uint64_t *mask, uint32_t nr, char *buf, size_t len)
{
	size_t n = 0;
	uint32_t c = 0;

	buf[0] = 0;
	while (c < nr && n + 1 < len) {
		uint32_t end;

		if (!(mask[c / 64] & (1ull << (c % 64)))) {
			c++;
			continue;
		}
		for (end = c; end + 1 < nr && (mask[(end + 1) / 64] & (1ull << ((end + 1) % 64))); end++)
			;
		n += (size_t)snprintf(buf + n, len - n, end > c ? "%s%u-%u" : "%s%u",
				      n ? "," : "", c, end);
		c = end + 1;
	}
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
}
