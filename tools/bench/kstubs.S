/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstubs.S - what the module's x86-64 core/sp_acct.o and core/sp_place.o
 * call outside the core, for make bench-idle-kobj and make
 * bench-place-kobj: the ftrace entry call, patched to a nop in a running
 * kernel, returns at once; the return thunk is a plain return; the
 * retpoline thunk of an indirect call through %rax (sp_place.o's CPU
 * filter) is a plain jump.
 */
	.text
	.globl	__fentry__
__fentry__:
	ret
	.globl	__x86_return_thunk
__x86_return_thunk:
	ret
	.globl	__x86_indirect_thunk_rax
__x86_indirect_thunk_rax:
	jmp	*%rax
	.section .note.GNU-stack,"",@progbits
