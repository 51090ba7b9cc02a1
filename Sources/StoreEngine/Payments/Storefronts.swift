// Temporary: replaced by the full storefront table when the catalog work lands.
enum Storefronts {
  static func currency(for storefront: String) -> String {
    ["USA": "USD", "KOR": "KRW", "JPN": "JPY", "CHN": "CNY", "GBR": "GBP", "DEU": "EUR"][storefront] ?? "USD"
  }
}
