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
#include <openssl/asn1.h>
#include <openssl/cms.h>
#include <openssl/sha.h>

/* Function-like macros Swift cannot import. */
static inline void sf_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline long sf_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
static inline EVP_PKEY *sf_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }

/* STACK_OF(X509) accessors are macros over the untyped OPENSSL_sk_* functions. */
static inline STACK_OF(X509) *sf_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int sf_sk_X509_push(STACK_OF(X509) *sk, X509 *cert) { return sk_X509_push(sk, cert); }
static inline int sf_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
/* Frees the stack only; the certificates stay owned by the caller. */
static inline void sf_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }

/* XN_FLAG_RFC2253 is a compound macro; this variant keeps UTF-8 (non-ASCII is not backslash-escaped). */
static inline unsigned long sf_XN_FLAG_RFC2253_UTF8(void) { return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB; }

/* STACK_OF(ASN1_TYPE) (ASN1_SEQUENCE_ANY / ASN1_SET_ANY) for the app receipt's attribute sets. */
static inline STACK_OF(ASN1_TYPE) *sf_sk_ASN1_TYPE_new_null(void) { return sk_ASN1_TYPE_new_null(); }
static inline int sf_sk_ASN1_TYPE_push(STACK_OF(ASN1_TYPE) *sk, ASN1_TYPE *value) { return sk_ASN1_TYPE_push(sk, value); }
static inline int sf_sk_ASN1_TYPE_num(const STACK_OF(ASN1_TYPE) *sk) { return sk_ASN1_TYPE_num(sk); }
static inline ASN1_TYPE *sf_sk_ASN1_TYPE_value(const STACK_OF(ASN1_TYPE) *sk, int i) { return sk_ASN1_TYPE_value(sk, i); }
/* Frees the stack and every element in it. */
static inline void sf_sk_ASN1_TYPE_pop_free(STACK_OF(ASN1_TYPE) *sk) { sk_ASN1_TYPE_pop_free(sk, ASN1_TYPE_free); }
#endif
