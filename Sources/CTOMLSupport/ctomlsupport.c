/* Declarations only: see include/ctomlsupport.h. */
