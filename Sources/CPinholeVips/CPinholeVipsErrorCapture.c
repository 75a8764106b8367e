// Each decode's libvips errors kept on its own thread, so one request's failure never carries another's words.
//
// The fault: libvips 8.14 appends every error to one process-global buffer, and its operations often record an
// error they then recover from (a profile that does not fit, a loader probed and rejected). Another thread's
// failure that copies the buffer reported those words as its own ("VipsIcc: not an ICC profile" on a PNG that
// libpng refused), under concurrency only: one more way in which a server would show one client another
// client's request.
//
// The fix, the same way as CPinholeVipsOrcLock.c: this file defines libvips' error functions. libvips calls them
// through its PLT, and the link editor puts an executable's definition in the dynamic symbol table when a shared
// library of the link refers to it, so libvips' own calls reach these first. While a capture is open on a thread
// (CPinholeVips_capture_begin, around each decode), the errors raised on that thread are kept in a thread-local
// buffer and not in libvips' global one; everything else (no capture open, errors frozen) goes to libvips' own
// functions, found with dlsym(RTLD_NEXT). Errors raised on libvips' worker threads (while pixels are computed)
// still reach the global buffer, so a failed pixel step whose own thread has no error reads that buffer, and may
// still read another decode's words there; a failed header read never does.
#define _GNU_SOURCE
#include "CPinholeVipsErrorCapture.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

#define ERROR_BYTES 2048

typedef void (*verror_function)(const char *, const char *, va_list);
typedef void (*plain_function)(void);
typedef const char *(*buffer_function)(void);
typedef char *(*copy_function)(void);

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static verror_function real_verror = NULL;
static plain_function real_freeze = NULL;
static plain_function real_thaw = NULL;
static plain_function real_clear = NULL;
static buffer_function real_buffer = NULL;
static copy_function real_copy = NULL;

static __thread int freeze_depth = 0;
static __thread size_t error_length = 0;
static __thread char error_text[ERROR_BYTES];

// libvips' own function: the next definition after this one, or the first one when this shim is not first
// (then its definitions are reached only from this shim and must not call themselves).
static void *resolve(const char *name, void *own) {
    void *next = dlsym(RTLD_NEXT, name);
    if (next != NULL && next != own) { return next; }
    void *first = dlsym(RTLD_DEFAULT, name);
    return first != own ? first : NULL;
}

static void resolve_libvips(void) {
    real_verror = (verror_function)resolve("vips_verror", (void *)vips_verror);
    real_freeze = (plain_function)resolve("vips_error_freeze", (void *)vips_error_freeze);
    real_thaw = (plain_function)resolve("vips_error_thaw", (void *)vips_error_thaw);
    real_clear = (plain_function)resolve("vips_error_clear", (void *)vips_error_clear);
    real_buffer = (buffer_function)resolve("vips_error_buffer", (void *)vips_error_buffer);
    real_copy = (copy_function)resolve("vips_error_buffer_copy", (void *)vips_error_buffer_copy);
}

static int owned(void) {
    pthread_once(&resolve_once, resolve_libvips);
    return CPinholeVips_capture_is_open() && freeze_depth == 0;
}

void CPinholeVips_errors_reset(void) {
    error_length = 0;
    error_text[0] = '\0';
}

// libvips' format: "domain: message\n" per error, truncated at the buffer's end.
void vips_verror(const char *domain, const char *fmt, va_list ap) {
    if (!owned()) {
        if (real_verror != NULL) { real_verror(domain, fmt, ap); }
        return;
    }
    size_t room = sizeof error_text - error_length;
    if (room <= 1) { return; }
    int written = domain != NULL ? snprintf(error_text + error_length, room, "%s: ", domain) : 0;
    if (written > 0) { error_length += (size_t)written < room ? (size_t)written : room - 1; }
    room = sizeof error_text - error_length;
    va_list copy;
    va_copy(copy, ap);
    written = vsnprintf(error_text + error_length, room, fmt, copy);
    va_end(copy);
    if (written > 0) { error_length += (size_t)written < room ? (size_t)written : room - 1; }
    if (error_length + 1 < sizeof error_text) {
        error_text[error_length++] = '\n';
        error_text[error_length] = '\0';
    }
}

void vips_error_freeze(void) {
    pthread_once(&resolve_once, resolve_libvips);
    freeze_depth += 1;
    if (real_freeze != NULL) { real_freeze(); }
}

void vips_error_thaw(void) {
    pthread_once(&resolve_once, resolve_libvips);
    if (freeze_depth > 0) { freeze_depth -= 1; }
    if (real_thaw != NULL) { real_thaw(); }
}

void vips_error_clear(void) {
    if (owned()) {
        CPinholeVips_errors_reset();
    } else if (real_clear != NULL) {
        real_clear();
    }
}

const char *vips_error_buffer(void) {
    if (owned()) { return error_text; }
    return real_buffer != NULL ? real_buffer() : "";
}

char *vips_error_buffer_copy(void) {
    if (owned()) {
        char *copy = g_strdup(error_text);
        CPinholeVips_errors_reset();
        return copy;
    }
    return real_copy != NULL ? real_copy() : g_strdup("");
}

void vips_error_g(GError **error) {
    static GQuark domain = 0;
    if (domain == 0) { domain = g_quark_from_static_string("libvips"); }
    g_set_error(error, domain, -1, "%s", vips_error_buffer());
    vips_error_clear();
}

void CPinholeVips_take_error(char *buf, size_t len, int own_thread_only) {
    pthread_once(&resolve_once, resolve_libvips);
    char *copy = NULL;
    if (CPinholeVips_capture_is_open() && (error_length > 0 || own_thread_only)) {
        copy = g_strdup(error_text);
        CPinholeVips_errors_reset();
    } else {
        copy = real_copy != NULL ? real_copy() : NULL;  // libvips' buffer: copies and clears
    }
    if (len > 0) { snprintf(buf, len, "%s", copy != NULL ? copy : ""); }
    g_free(copy);
}

int CPinholeVips_error_capture_installed(void) {
    pthread_once(&resolve_once, resolve_libvips);
    return real_verror != NULL && dlsym(RTLD_DEFAULT, "vips_verror") == (void *)vips_verror ? 1 : 0;
}
