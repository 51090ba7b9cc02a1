#ifndef STOREFRONT_CCURL_SHIM_H
#define STOREFRONT_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   function per argument kind. Each returns the CURLcode of the call. */

static inline CURLcode sf_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sf_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}

/* CURLOPT_WRITEFUNCTION and friends take a function pointer, which C does not let pass as void *. */
typedef size_t (*sf_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode sf_curl_setopt_write_function(CURL *handle, sf_curl_write_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode sf_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sf_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
  return curl_easy_getinfo(handle, info, value);
}
#endif
