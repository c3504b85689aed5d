/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_compat.h - the only place the pure decision core learns where it is built.
 */

/**
 * DOC: the core's one door
 *
 * The core (core/sp_*.c) is compiled unchanged into sched_power.ko, the
 * host unit tests, the fuzzer and the simulator.  It includes no kernel and
 * no libc header except through this file, which maps a handful of
 * fixed-width types, a 64-bit divide, a 64 x 64 -> 128-bit multiply's
 * shifted product, memset/memcpy, atomics (inc/dec return the new value),
 * a sequence count's barriers and branch hints onto either the kernel or
 * the host C library.
 */
#ifndef SP_COMPAT_H
#define SP_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/math64.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/processor.h>

typedef atomic_t sp_atomic_t;
#define sp_atomic_read(a)	atomic_read(a)
/* atomic_set()'s store, written out: the idle path's stores address the entry directly */
#define sp_atomic_set(a, v)	WRITE_ONCE((a)->counter, (v))
#define sp_atomic_inc(a)	atomic_inc_return(a)
#define sp_atomic_dec(a)	atomic_dec_return(a)
#define sp_atomic_add(a, v)	atomic_add((v), (a))
#define SP_READ_ONCE(x)		READ_ONCE(x)
#define SP_WRITE_ONCE(x, v)	WRITE_ONCE(x, v)
#define SP_ALIGNED(n)		__aligned(n)
/* with inline: always inlined (the wake-up and idle paths' helpers) */
#define SP_INLINE		__attribute__((__always_inline__))
#define SP_NOINLINE		noinline
#define SP_LIKELY(x)		likely(x)
#define SP_UNLIKELY(x)		unlikely(x)
/* a sequence count's barriers: pairs in core/sp_acct.c, writer and reader */
#define SP_SMP_WMB()		smp_wmb()	/* orders the count and the event's stores */
#define SP_SMP_RMB()		smp_rmb()	/* orders the count and the reader's loads */
#define SP_CPU_RELAX()		cpu_relax()

typedef atomic64_t sp_atomic64_t;
#define sp_atomic64_read(a)	atomic64_read(a)
#define sp_atomic64_set(a, v)	atomic64_set((a), (v))
#define sp_atomic64_add(a, v)	atomic64_add((v), (a))

static inline u64 sp_div_u64(u64 a, u32 b)
{
	return div_u64(a, b);
}

static inline s64 sp_div_s64(s64 a, s32 b)
{
	return div_s64(a, b);
}

#else /* host build: tests, fuzzer, simulator */
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef struct {
	int counter;
} sp_atomic_t;
#define sp_atomic_read(a)	__atomic_load_n(&(a)->counter, __ATOMIC_RELAXED)
#define sp_atomic_set(a, v)	__atomic_store_n(&(a)->counter, (v), __ATOMIC_RELAXED)
#define sp_atomic_inc(a)	__atomic_add_fetch(&(a)->counter, 1, __ATOMIC_RELAXED)
#define sp_atomic_dec(a)	__atomic_sub_fetch(&(a)->counter, 1, __ATOMIC_RELAXED)
#define sp_atomic_add(a, v)	((void)__atomic_add_fetch(&(a)->counter, (v), __ATOMIC_RELAXED))
#define SP_READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define SP_WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define SP_ALIGNED(n)		__attribute__((aligned(n)))
#define SP_INLINE		__attribute__((always_inline))
#define SP_NOINLINE		__attribute__((noinline))
#define SP_LIKELY(x)		__builtin_expect(!!(x), 1)
#define SP_UNLIKELY(x)		__builtin_expect(!!(x), 0)
#define SP_SMP_WMB()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define SP_SMP_RMB()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
/*
 * a spinning reader lets the writer's thread run (host tests share cores);
 * declared here, not through <sched.h>, for the freestanding i386 build of
 * scripts/check-div32.sh
 */
int sched_yield(void);
#define SP_CPU_RELAX()		((void)sched_yield())

typedef struct {
	s64 counter;
} sp_atomic64_t;
#define sp_atomic64_read(a)	__atomic_load_n(&(a)->counter, __ATOMIC_RELAXED)
#define sp_atomic64_set(a, v)	__atomic_store_n(&(a)->counter, (v), __ATOMIC_RELAXED)
#define sp_atomic64_add(a, v)	((void)__atomic_add_fetch(&(a)->counter, (v), __ATOMIC_RELAXED))

#ifdef SP_DIV_EXTERN
/* scripts/check-div32.sh: calls, so that only raw divisions need libgcc */
u64 sp_div_u64(u64 a, u32 b);
s64 sp_div_s64(s64 a, s32 b);
#else
static inline u64 sp_div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline s64 sp_div_s64(s64 a, s32 b)
{
	return a / b;
}
#endif

#ifndef EINVAL
#include <errno.h>
#endif
#endif /* __KERNEL__ */

#if defined(__x86_64__)
/*
 * (@a * @b) >> @shift for 0 <= @shift < 64, the low 64 bits: on x86-64
 * the mulq and shrdq gcc makes of mul_u64_u64_shr(), without its unsigned
 * __int128, whose spill makes gcc realign a kernel function's frame (the
 * kernel keeps the stack 8-byte aligned): 24 more bytes of the wake-up
 * hook's stack in sp_energy_delta_at().  The host builds on x86-64 use it
 * too, so that the tests and the simulator run what the module runs.
 */
static inline u64 sp_mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	u64 lo, hi;

	asm("mulq %3\n\tshrdq %4, %1, %0" : "=a" (lo), "=d" (hi)
	    : "0" (a), "rm" (b), "Jc" ((u8)shift) : "cc");
	return lo;
}
#elif defined(__KERNEL__)
static inline u64 sp_mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return mul_u64_u64_shr(a, b, shift);
}
#elif defined(__SIZEOF_INT128__)
static inline u64 sp_mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((__uint128_t)a * b) >> shift);
}
#else
/* (a * b) >> shift, 0 < shift < 64, from four 32 x 32-bit products */
static inline u64 sp_mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	u64 ll = (u64)(u32)a * (u32)b, lh = (u64)(u32)a * (u32)(b >> 32);
	u64 hl = (u64)(u32)(a >> 32) * (u32)b, hh = (u64)(u32)(a >> 32) * (u32)(b >> 32);
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;
	u64 lo = (mid << 32) | (u32)ll;
	u64 hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);

	return (lo >> shift) | (hi << (64 - shift));
}
#endif

#define SP_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* SP_COMPAT_H */
