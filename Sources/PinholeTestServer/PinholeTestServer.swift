enum PinholeTestServerPlaceholder {}
