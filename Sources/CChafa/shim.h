// libchafa 1.12 (Debian: libchafa-dev), which draws pictures for terminals: Unicode symbols with colours, sixel,
// the kitty graphics protocol and iTerm2 inline images (https://hpjansson.org/chafa/ref/). Its calls take fixed
// arguments and report by return value, so Swift calls them directly; CPinholeChafa wraps the one that returns a
// GLib string.
#include <chafa.h>
