/* Linux system interfaces that Swift does not import directly: see include/clinux.h. */
