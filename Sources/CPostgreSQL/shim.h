#ifndef STOREFRONT_CPOSTGRESQL_SHIM_H
#define STOREFRONT_CPOSTGRESQL_SHIM_H
#include <libpq-fe.h>
#endif
