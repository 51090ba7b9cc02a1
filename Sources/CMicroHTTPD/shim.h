#ifndef STOREFRONT_CMICROHTTPD_SHIM_H
#define STOREFRONT_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call. */

/* A daemon on `address` (the port argument is ignored when an address is given) with the limits
   StoreServer uses; `flags` picks the threading mode. With `tls_key` and `tls_cert` (PEM, both or
   neither) and MHD_USE_TLS in `flags`, it serves HTTPS through libmicrohttpd's GnuTLS. */
static inline struct MHD_Daemon *sf_MHD_start_daemon(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    MHD_NotifyConnectionCallback connection_notify, void *connection_notify_context,
    size_t memory_limit, unsigned int connection_limit, unsigned int timeout_seconds,
    const char *tls_key, const char *tls_cert) {
  struct MHD_OptionItem tls[] = {
      {tls_key != NULL ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)tls_key},
      {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_cert},
      {MHD_OPTION_END, 0, NULL}};
  return MHD_start_daemon(
      flags, 0, NULL, NULL, handler, handler_context,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
      MHD_OPTION_NOTIFY_CONNECTION, connection_notify, connection_notify_context,
      MHD_OPTION_ARRAY, tls,
      MHD_OPTION_END);
}

/* The port the daemon is bound to (the real one when it was asked for port 0); 0 if unknown. */
static inline uint16_t sf_MHD_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

/* The pointer the connection callback stored for `connection` (NULL if none). */
static inline void *sf_MHD_socket_context(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
}

/* Whether this libmicrohttpd was built with TLS (Debian's is, with GnuTLS). */
static inline int sf_MHD_supports_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }
#endif
