import Foundation
import StoreEngine

/// libFuzzer entry point: any bytes as a `.storekit` file. The decoder must return a catalog or a
/// `CatalogLoadError`, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func catalogDecoderFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  _ = try? CatalogDecoder().decode(data, path: "fuzz.storekit")
  return 0
}
