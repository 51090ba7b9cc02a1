#ifndef STOREFRONT_COPENSSL_SHIM_H
#define STOREFRONT_COPENSSL_SHIM_H
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/core_names.h>

/* Function-like macros Swift cannot import. */
static inline void sf_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline long sf_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
static inline EVP_PKEY *sf_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }
#endif
