#ifndef TOUCHD_CMD_SHIM_H
#define TOUCHD_CMD_SHIM_H
#include <sha1.h>
#endif
