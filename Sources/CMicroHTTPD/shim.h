#ifndef STOREFRONT_CMICROHTTPD_SHIM_H
#define STOREFRONT_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
/* MHD_start_daemon is variadic, which Swift cannot call: the server's wrappers go here. */
#endif
