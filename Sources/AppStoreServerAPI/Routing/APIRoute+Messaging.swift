import Foundation

extension APIRoute {
  /// The Retention Messaging API's routes (`/inApps/v1/messaging/…`, as Apple's libraries call them),
  /// where one path answers several methods: `rest` follows `messaging`.
  static func messaging(method: String, rest: [String]) -> APIRoute {
    let decoded = rest.map { $0.removingPercentEncoding ?? $0 }
    func pick(_ choices: [String: APIEndpoint], _ parameters: [String]) -> APIRoute {
      guard let endpoint = choices[method] else { return .methodNotAllowed }
      return .endpoint(endpoint, parameters: parameters)
    }
    switch (rest.count, rest.first ?? "") {
    case (2, "image") where rest[1] == "list": return pick(["GET": .getImageList], [])
    case (2, "image"): return pick(["PUT": .uploadImage, "DELETE": .deleteImage], [decoded[1]])
    case (2, "message") where rest[1] == "list": return pick(["GET": .getMessageList], [])
    case (2, "message"): return pick(["PUT": .uploadMessage, "DELETE": .deleteMessage], [decoded[1]])
    case (3, "default"):
      return pick(
        ["PUT": .configureDefaultMessage, "DELETE": .deleteDefaultMessage, "GET": .getDefaultMessage], [decoded[1], decoded[2]])
    case (2, "realtime") where rest[1] == "url":
      return pick(["PUT": .configureRealtimeURL, "DELETE": .deleteRealtimeURL, "GET": .getRealtimeURL], [])
    case (1, "performanceTest"): return pick(["POST": .initiatePerformanceTest], [])
    case (3, "performanceTest") where rest[1] == "result": return pick(["GET": .getPerformanceTestResults], [decoded[2]])
    default: return .notFound
    }
  }
}
