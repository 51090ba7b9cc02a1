import Foundation
import SimulatedApp
import StoreEngine

extension ScenarioRunner {
  /// Rounds of app reactions after one line: a finish's own events cause none, so two suffice; the
  /// bound keeps a policy mistake from looping.
  static let appRounds = 4

  /// The simulated app acts on the events a line caused, as its observer code would: it finishes,
  /// or asks its server and finishes on a 2xx answer. Each call is written as an `appServerCall` line.
  func appReacts(to events: [StoreEvent], line: Int?) throws(StepError) {
    var pending = events
    for _ in 0..<Self.appRounds where !pending.isEmpty {
      var actions = pending.flatMap { appFinisher.actions(for: $0) }
      pending = []
      while !actions.isEmpty {
        switch actions.removeFirst() {
        case .finish(let id):
          // What the app finishes answering one batch of callbacks commits together.
          var ids = [id]
          while case .finish(let next) = actions.first {
            ids.append(next)
            actions.removeFirst()
          }
          try perform(ids.count == 1 ? .finish(id) : .finishAll(ids))
          pending += flush(line: line)
        case .post(var request):
          guard let appServer else { throw .other("the app's server cannot be called here; run the scenario with `storefront run`.") }
          let note = request.attachReceipt(receipt)
          var answer = appServer(request)
          if let note { answer.error = answer.error.map { "\($0); \(note)" } ?? note }
          emit([.appServerCall(EventRecord.AppServerCall(answer))], line: line)
          actions += appFinisher.answered(answer)
        }
      }
    }
  }

  /// Words for a step error that ends the run after a launch; a ledger failure is kept for the exit code.
  func message(for error: StepError) -> String {
    if case .engine(.ledger(let failure)) = error { ledgerFailure = failure }
    return switch error {
    case .assertion(let message), .other(let message): message
    case .engine(let error): ScenarioErrorText.message(for: error)
    }
  }
}
