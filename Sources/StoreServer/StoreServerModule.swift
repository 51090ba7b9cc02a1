import CMicroHTTPD

/// The HTTP side of `storefront serve` (issue 13).
enum StoreServerModule {
  /// libmicrohttpd's version, so the module links the library it is about.
  static var libraryVersion: String { MHD_get_version().map { String(cString: $0) } ?? "unknown" }
}
