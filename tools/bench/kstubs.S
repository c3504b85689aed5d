/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstubs.S - what the module's x86-64 core/sp_acct.o calls outside the core,
 * for make bench-idle-kobj: the ftrace entry call, patched to a nop in a
 * running kernel, returns at once; the return thunk is a plain return.
 */
	.text
	.globl	__fentry__
__fentry__:
	ret
	.globl	__x86_return_thunk
__x86_return_thunk:
	ret
	.section .note.GNU-stack,"",@progbits
