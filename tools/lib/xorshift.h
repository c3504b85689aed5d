/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xorshift.h - xorshift64*, the seeded pseudo-random sequence of the
 * simulator's balancer dice, the benchmarks' snapshots and the random
 * tests: the same numbers on every host for the same seed.
 */
#ifndef XORSHIFT_H
#define XORSHIFT_H

#include "sp_compat.h"

/**
 * xorshift_u32() - the next number of the sequence
 * @state: the generator, not 0 (0 stays 0)
 *
 * Return: the high 32 bits of the step's 64-bit output.
 */
static inline u32 xorshift_u32(u64 *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return (u32)((*state * 2685821657736338717ull) >> 32);
}

/**
 * xorshift_in() - a number from @lo to @hi, both included
 * @state: the generator
 * @lo: the smallest
 * @hi: the largest, not below @lo
 *
 * Return: @lo plus the next number modulo the range's width.
 */
static inline u32 xorshift_in(u64 *state, u32 lo, u32 hi)
{
	return lo + xorshift_u32(state) % (hi - lo + 1);
}

#endif /* XORSHIFT_H */
