/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sched_power_latency.h - user API of /dev/sched_power_latency.
 *
 * Open the device, write a bound in microseconds (a native-endian s32, or
 * ASCII decimal), keep the file open: while it is, the wake-up placement of
 * the target only considers CPUs that wake within the bound.  The target is
 * the opener's thread group, unless an ioctl below changed it before the
 * first write.  read() returns the target's bound in force as an s32 (0:
 * none).  Documentation/latency.rst describes the model.
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
 * namespace numbers it).  Allowed with CAP_SYS_NICE or if the caller's
 * effective uid is the target's real or effective uid (sched_setattr's
 * rule), else EPERM; ESRCH if no such task; EBUSY once a bound was written.
 */
#define SP_LAT_IOC_PID		_IOW(SP_LAT_IOC_MAGIC, 2, __s32)

#endif /* _UAPI_SCHED_POWER_LATENCY_H */
