#ifndef TOUCHD_CTOMLSUPPORT_H
#define TOUCHD_CTOMLSUPPORT_H

/* What TOMLKit's C layer (CTOML) lacks: a call that deletes the table `tableCreateFromString`
 * makes with `new toml::table(...)`.
 *
 * toml++ (3.x, built into CTOML) is header-only: every object that uses toml::table carries its
 * vtable and, with it, the table's deleting destructor (Itanium C++ ABI name below, for
 * `toml::v3::table::~table()` [D0]), which runs the destructor and gives the memory back to
 * `operator delete`. Declared here under its symbol name, it is linked against CTOML's own
 * definition; a toml++ with another ABI namespace would fail to link rather than misbehave. */
void _ZN4toml2v35tableD0Ev(void *table);

/* Deletes a table CTOML made (the parsed document): every node in it, then the table itself. */
static inline void touchd_toml_table_delete(void *table) { _ZN4toml2v35tableD0Ev(table); }

/* `operator delete(void *)` (libstdc++'s, Itanium ABI name): frees the small values CTOML makes
 * with `new` (a date-time's offset), as a C++ `delete` of a trivially destructible object does. */
void _ZdlPv(void *pointer);

/* Frees a trivially destructible value CTOML made with `new`. */
static inline void touchd_cxx_delete(void *pointer) { _ZdlPv(pointer); }

/* Frees what CTOML's C functions return with `malloc` (error texts, key lists, strings). */
#include <stdlib.h>
static inline void touchd_c_free(const void *pointer) { free((void *)pointer); }

#endif
