#ifndef STOREFRONT_CZLIB_SHIM_H
#define STOREFRONT_CZLIB_SHIM_H
/* zlib's deflate for the ledger's stored transaction rows (Debian zlib1g-dev). */
#include <zlib.h>
#endif
