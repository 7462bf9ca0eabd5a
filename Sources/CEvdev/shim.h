#ifndef TOUCHD_CEVDEV_SHIM_H
#define TOUCHD_CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#endif
