#ifndef TOUCHD_CYAML_SHIM_H
#define TOUCHD_CYAML_SHIM_H
#include <yaml.h>
#endif
