// CPinholeVips: fixed-argument wrappers over libvips (placeholder; filled in by the decoder work).
#ifndef CPINHOLEVIPS_H
#define CPINHOLEVIPS_H
int CPinholeVips_init(void);
#endif
