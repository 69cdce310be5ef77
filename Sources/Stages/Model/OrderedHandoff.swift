import Foundation

/// Pieces submitted by many workers, taken by one consumer strictly in
/// input order: by unit, and within a unit by piece index.
///
/// Bounded: `hasRoom(for:)` tells a reader whether it may add more. A
/// reader of a unit ahead of the one being consumed has room while fewer
/// than `capacity` pieces are held in all; the reader of the unit being
/// consumed, while fewer than `capacity` of its own are. So the consumer
/// always gets to move on, and no one waits forever.
final class OrderedHandoff<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Int: [Int: (item: Item, last: Bool)]] = [:]
    /// Pieces submitted per unit by `submit(_:unit:last:)`, which numbers them itself.
    private var submitted: [Int: Int] = [:]
    private var head = 0
    private var headIndex = 0
    private var held = 0
    private let units: Int
    private let capacity: Int
    private var closed = false
    private var cancelled = false

    init(units: Int, capacity: Int) {
        self.units = units
        self.capacity = max(1, capacity)
    }

    /// Adds piece `index` of `unit`; never waits.
    func submit(_ item: Item, unit: Int, index: Int, last: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if cancelled { return }
        pending[unit, default: [:]][index] = (item, last)
        held += 1
        condition.broadcast()
    }

    /// Adds the next piece of `unit` (numbered in submission order); waits
    /// while the unit has no room.
    func submit(_ item: Item, unit: Int, last: Bool) {
        condition.lock()
        while !hasRoomLocked(unit) && !cancelled { condition.wait() }
        let index = submitted[unit, default: 0]
        submitted[unit] = last ? nil : index + 1
        condition.unlock()
        submit(item, unit: unit, index: index, last: last)
    }

    /// Whether a reader of `unit` may add a piece now.
    func hasRoom(for unit: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return hasRoomLocked(unit) || cancelled
    }

    /// Waits a little for room (or for the run to end).
    func waitForRoom(for unit: Int) {
        condition.lock()
        if !hasRoomLocked(unit) && !cancelled && !closed { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05)) }
        condition.unlock()
    }

    private func hasRoomLocked(_ unit: Int) -> Bool {
        unit == head ? (pending[head]?.count ?? 0) < capacity : held < capacity
    }

    /// The next piece in order; waits for it. Nil once every unit is taken,
    /// or when the workers have stopped and nothing in order is left.
    func next() -> (unit: Int, item: Item, last: Bool)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if cancelled || head >= units { return nil }
            if let (item, last) = pending[head]?.removeValue(forKey: headIndex) {
                let unit = head
                held -= 1
                if last {
                    pending[head] = nil
                    head += 1
                    headIndex = 0
                } else {
                    headIndex += 1
                }
                condition.broadcast()
                return (unit, item, last)
            }
            if closed { return nil }
            condition.wait()
        }
    }

    /// No more submissions (the workers are done, or stopped).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer gives up: waiting workers return, later pieces are dropped.
    func cancel() {
        condition.lock()
        cancelled = true
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
