import StoreEngine

/// The newest-first history pages, revocation pages and one account's subscription records (v7's
/// indexes): each one statement walking one index.
extension LedgerSchema {
  /// One newest-first page of a history as `(seq, id, json, is_finished, key)` rows, `key` being
  /// `last_modified_ms` (insertion order: `seq` again). Parameters: the account (when `byAccount`),
  /// the cursor's key (when `before`), the row limit. SQLite walks the same indexes as
  /// ``historyPage(byAccount:order:after:)`` backwards.
  static func historyPage(byAccount: Bool, order: HistoryOrder, before: Bool) -> String {
    var conditions: [String] = []
    var parameter = 1
    if byAccount {
      conditions.append("account = ?\(parameter)")
      parameter += 1
    }
    let key: String
    switch order {
    case .insertion:
      key = "seq DESC"
      if before {
        conditions.append("seq < ?\(parameter)")
        parameter += 1
      }
    case .lastModified:
      key = "last_modified_ms DESC, id_key DESC"
      if before {
        conditions.append("(last_modified_ms, id_key) < (?\(parameter), ?\(parameter + 1))")
        parameter += 2
      }
    }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return "SELECT seq, id, json, is_finished, last_modified_ms FROM transactions\(filter) ORDER BY \(key) LIMIT ?\(parameter)"
  }

  /// One page of an account's revoked rows in revocation order as `(seq, id, json, is_finished, revoked_ms)`,
  /// through the partial index `transactions_account_revoked`. Parameters: the account, the
  /// cursor's (revoked ms, id key) when `from`, the row limit.
  static func revokedPage(descending: Bool, from: Bool) -> String {
    var filter = "account = ?1 AND revoked_ms IS NOT NULL"
    var parameter = 2
    if from {
      filter += " AND (revoked_ms, id_key) \(descending ? "<" : ">") (?2, ?3)"
      parameter = 4
    }
    let direction = descending ? " DESC" : ""
    return "SELECT seq, id, json, is_finished, revoked_ms FROM transactions WHERE \(filter) "
      + "ORDER BY revoked_ms\(direction), id_key\(direction) LIMIT ?\(parameter)"
  }

  /// One account's subscription records, by original id (`subscriptions_account`); with
  /// `statuses`, only those whose `status` is one of that many parameters after the account.
  static func selectAccountSubscriptions(statuses: Int?) -> String {
    let filter = statuses.map { count in " AND status IN (" + (0..<count).map { "?\($0 + 2)" }.joined(separator: ", ") + ")" } ?? ""
    return "SELECT original_id, json FROM subscriptions WHERE account = ?1\(filter) ORDER BY original_id"
  }
}
