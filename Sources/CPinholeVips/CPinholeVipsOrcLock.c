// One lock around every ORC program libvips compiles or frees, so that libvips' SIMD paths can stay on.
//
// The fault (liborc 0.4.33, Debian bookworm; fixed upstream in 0.4.34 by commit e48fa54, "orccodemem: Fix for
// potential race in codemem alloc/free", https://gitlab.freedesktop.org/gstreamer/orc/-/merge_requests/99):
// `orc_code_allocate_codemem` finds a free chunk of executable memory under `orc_global_mutex`, but splits it
// and marks it used after unlocking; `orc_code_chunk_free` gives a chunk back and merges it with its neighbours
// with no lock at all. libvips 8.14 compiles an ORC program when it builds a lanczos reduce and frees it when
// the operation is disposed, from whichever thread drops the last reference. Two threads doing either at once
// corrupt the chunk list: SEGV in orc_code_free under AddressSanitizer, "malloc(): invalid size" and crashes in
// liborc in about 2 % of `pinhole debug storm` runs (RELIABILITY.md section 4).
//
// The fix: this file defines `orc_program_compile` and `orc_program_free`. libvips calls both through its PLT,
// and the link editor puts a definition in the executable into the dynamic symbol table when a shared library
// of the link (libvips) refers to it, so the dynamic linker binds libvips' calls to these wrappers first. Each
// takes one process-wide mutex of ours and calls liborc's own function (found with dlsym(RTLD_NEXT)). Every
// allocation and every free of ORC code memory in the process then happens one at a time. liborc's own mutex
// cannot be used: `orc_program_compile` takes it inside, and it is not recursive.
//
// Whether the wrappers are the ones libvips reaches depends on the link (a shared library that embeds this
// shim, for example, may lose to liborc). CPinholeVips_orc_lock_installed() checks it the way the dynamic
// linker resolves libvips' calls, and CPinholeVips_init turns the ORC paths off when it is not installed.
#define _GNU_SOURCE
#include "CPinholeVipsOrcLock.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

// liborc's prototypes (<orc/orcprogram.h>), with the program opaque: OrcCompileResult is a C enum (an int).
int orc_program_compile(void *program);
void orc_program_free(void *program);

typedef int (*compile_function)(void *);
typedef void (*free_function)(void *);

static pthread_mutex_t orc_code_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static compile_function real_compile = NULL;
static free_function real_free = NULL;
static atomic_long compile_count = 0;
static atomic_long free_count = 0;

static void resolve_liborc(void) {
    real_compile = (compile_function)dlsym(RTLD_NEXT, "orc_program_compile");
    real_free = (free_function)dlsym(RTLD_NEXT, "orc_program_free");
}

// ORC_COMPILE_RESULT_UNKNOWN_COMPILE (<orc/orccompiler.h>): a fatal result, after which libvips runs its C path.
enum { unknown_compile_result = 0x100 };

int orc_program_compile(void *program) {
    pthread_once(&resolve_once, resolve_liborc);
    if (real_compile == NULL) { return unknown_compile_result; }
    pthread_mutex_lock(&orc_code_mutex);
    int result = real_compile(program);
    pthread_mutex_unlock(&orc_code_mutex);
    atomic_fetch_add_explicit(&compile_count, 1, memory_order_relaxed);
    return result;
}

void orc_program_free(void *program) {
    pthread_once(&resolve_once, resolve_liborc);
    if (real_free == NULL) { return; }  // cannot happen once a program exists; leaking one beats crashing
    pthread_mutex_lock(&orc_code_mutex);
    real_free(program);
    pthread_mutex_unlock(&orc_code_mutex);
    atomic_fetch_add_explicit(&free_count, 1, memory_order_relaxed);
}

int CPinholeVips_orc_lock_installed(void) {
    pthread_once(&resolve_once, resolve_liborc);
    if (real_compile == NULL || real_free == NULL) { return 0; }
    // RTLD_DEFAULT searches the global scope in the order the dynamic linker uses for libvips' own calls.
    void *compile_seen = dlsym(RTLD_DEFAULT, "orc_program_compile");
    void *free_seen = dlsym(RTLD_DEFAULT, "orc_program_free");
    return compile_seen == (void *)orc_program_compile && free_seen == (void *)orc_program_free ? 1 : 0;
}

long CPinholeVips_orc_compile_count(void) { return atomic_load_explicit(&compile_count, memory_order_relaxed); }

long CPinholeVips_orc_free_count(void) { return atomic_load_explicit(&free_count, memory_order_relaxed); }
