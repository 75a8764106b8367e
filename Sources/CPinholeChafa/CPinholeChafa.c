#include "CPinholeChafa.h"

char *CPinholeChafa_print(ChafaCanvas *canvas, ChafaTermInfo *term_info, size_t *length) {
    *length = 0;
    GString *printed = chafa_canvas_print(canvas, term_info);
    if (printed == NULL) return NULL;
    *length = printed->len;
    // FALSE: free the GString but keep (and return) its character data.
    return g_string_free(printed, FALSE);
}

void CPinholeChafa_free(char *text) {
    g_free(text);
}

int CPinholeChafa_columns(uint32_t scalar) {
    if (g_unichar_iszerowidth((gunichar)scalar)) return 0;
    return g_unichar_iswide((gunichar)scalar) ? 2 : 1;
}
