/// Hands a worker's piece to the consumer's thread, its only next user.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
