// CPinholeVipsOrcLock: one lock around every ORC program libvips compiles or frees (liborc 0.4.33's code
// memory is not thread-safe; see CPinholeVipsOrcLock.c for the fault and how the wrappers are reached).
#ifndef CPINHOLEVIPSORCLOCK_H
#define CPINHOLEVIPSORCLOCK_H

/// 1 when libvips' calls to orc_program_compile and orc_program_free reach this shim's locked wrappers (the
/// dynamic linker resolves them to the executable's definitions first), else 0. Thread-safe.
int CPinholeVips_orc_lock_installed(void);

/// How many ORC programs were compiled / freed through the locked wrappers since the process started.
long CPinholeVips_orc_compile_count(void);
long CPinholeVips_orc_free_count(void);

#endif
