// CPinholeChafa: a tiny C shim between Swift and libchafa 1.12.
//
// Why it exists: `chafa_canvas_print` returns a GLib `GString`. GLib's headers are not a Clang module, so the
// `GString` struct is attributed to whichever Swift-visible module includes <glib.h> first (CPinholeVips, through
// <vips/vips.h>); Swift code would have to import the libvips shim just to read `str` and `len`, and free it with
// `g_string_free`, which newer GLib headers also define as a macro. The wrapper below hands back plain bytes and
// a length instead. Every other libchafa call takes and returns plain C types and is made from Swift directly.
// CPinholeChafa_columns reads GLib's Unicode width tables, for the same reason: no GLib types reach Swift.
#ifndef CPINHOLECHAFA_H
#define CPINHOLECHAFA_H

#include <stddef.h>
#include <stdint.h>
#include <chafa.h>

/// Prints `canvas` for the terminal described by `term_info` (see `chafa_canvas_print`): returns the bytes,
/// NUL-terminated, and stores their count (without the NUL) in `*length`. Free the result with
/// CPinholeChafa_free. Returns NULL (and length 0) when libchafa returns nothing.
char *CPinholeChafa_print(ChafaCanvas *canvas, ChafaTermInfo *term_info, size_t *length);

/// Frees a result of CPinholeChafa_print (GLib's allocator; NULL is allowed).
void CPinholeChafa_free(char *text);

/// Terminal columns the Unicode scalar `scalar` takes by GLib's tables: 0 when g_unichar_iszerowidth (combining
/// and enclosing marks, format characters other than U+00AD, Hangul medial vowels, U+200B), 2 when
/// g_unichar_iswide (East Asian Wide and Fullwidth, emoji presented as pictures), else 1.
int CPinholeChafa_columns(uint32_t scalar);

#endif
