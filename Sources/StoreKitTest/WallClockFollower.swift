import Dispatch
import Foundation
import StoreKit
internal import StoreEngine

/// Lets a session's virtual clock follow the wall clock under an accelerated time rate, as Xcode's
/// does, so a test that sets `timeRate` and then waits for a renewal with an expectation sees it
/// (DECISIONS §40).
///
/// It ticks on the main queue, which runs only while the test waits (an expectation spins the main
/// run loop; an async test's main actor is idle): a test body that does not wait sees the clock move
/// only by its own calls. The clock jumps from one due moment to the next (a renewal, a retry, an
/// expiry), each when as much wall time has passed since following began, so every date in the store
/// is still a due moment or a moment a call made. `advance(by:)` hands the clock to the test for the
/// rest of the session: from then on only the test moves it.
final class WallClockFollower: @unchecked Sendable {
  private let environment: StoreKitEnvironment
  private let lock = NSLock()
  /// The virtual and wall moments following began at, nil while not following.
  private var anchor: (virtual: Date, wall: DispatchTime)?
  private var manual = false
  private var ticking = false
  private var generation: UInt64 = 0
  /// How often a follower looks for something due while the test waits.
  static let tick: DispatchTimeInterval = .milliseconds(50)

  init(environment: StoreKitEnvironment) { self.environment = environment }

  /// Follows the wall clock from now while `rate` is accelerated; stops at real time.
  func follow(rate: Int) {
    let now: Date? = try? environment.read { $0.queue.now }
    let generation = environment.generation
    let start: Bool = lock.withLock {
      guard !manual, rate != 0, let now else {
        anchor = nil
        return false
      }
      if anchor == nil { anchor = (now, .now()) }
      self.generation = generation
      guard !ticking else { return false }
      ticking = true
      return true
    }
    if start { schedule() }
  }

  /// The test moves the clock itself from now on.
  func handOver() {
    lock.withLock {
      manual = true
      anchor = nil
    }
  }

  private func schedule() {
    DispatchQueue.main.asyncAfter(deadline: .now() + Self.tick) { [weak self] in self?.step() }
  }

  private func step() {
    let current = environment.generation
    let target: Date? = lock.withLock {
      guard let anchor, !manual, generation == current else {
        ticking = false
        return nil
      }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - anchor.wall.uptimeNanoseconds) / 1e9
      return anchor.virtual.addingTimeInterval(elapsed)
    }
    guard let target else { return }
    let due: Date? = try? environment.read { store in
      store.queue.machine.nextDueDate.flatMap { $0 <= target && $0 > store.queue.now ? $0 : nil }
    }
    if let due {
      do { try environment.perform(.advance(to: due)) } catch {
        environment.report("following the wall clock to \(due) failed: \(error)")
      }
    }
    schedule()
  }
}
