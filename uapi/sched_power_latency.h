/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sched_power_latency.h - user API of /dev/sched_power_latency.
 *
 * Open the device, write a bound in microseconds (a native-endian s32, or
 * ASCII decimal), keep the file open: while it is, the wake-up placement of
 * the target only considers CPUs that wake within the bound.  The target is
 * the opener's thread group, unless an ioctl below changed it before the
 * first write.  read() returns the target's bound in force as an s32 (0:
 * none).  Every right is the opener's (the file's credentials); an
 * unprivileged bound holds idle-state requests only where its threads
 * run, on at most 2 CPUs per user.  Documentation/latency.rst describes
 * the permission model and the limits (ENOSPC past them).
 */
#ifndef _UAPI_SCHED_POWER_LATENCY_H
#define _UAPI_SCHED_POWER_LATENCY_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SP_LAT_DEVICE		"/dev/sched_power_latency"
#define SP_LAT_MAX_BOUND_US	2000000

#define SP_LAT_IOC_MAGIC	0xb7
/* Target the calling thread only.  EBUSY once a bound was written. */
#define SP_LAT_IOC_THREAD	_IO(SP_LAT_IOC_MAGIC, 1)
/*
 * Target the thread group of the task with this PID (as the caller's PID
 * namespace numbers it).  Allowed if, for every thread of that group, the
 * opener has CAP_SYS_NICE or its effective uid is the thread's real or
 * effective uid (sched_setattr's rule), and the LSM allows
 * task_setscheduler on every thread; else EPERM (or the LSM's error);
 * ESRCH if no such task; EBUSY once a bound was written.
 */
#define SP_LAT_IOC_PID		_IOW(SP_LAT_IOC_MAGIC, 2, __s32)

#endif /* _UAPI_SCHED_POWER_LATENCY_H */
