#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether the string's UTF-8 encoding is exactly `bytes`: one `memcmp` of the contiguous
    /// encoding, where `utf8.elementsEqual(_:)` walks both byte by byte through iterators (an
    /// eighth of a replay's time when it compared the names of every event).
    @inline(__always)
    func hasUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard utf8.count == count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { encoding -> Bool in
            guard let left = encoding.baseAddress, let right = bytes.baseAddress else { return true }
            return memcmp(left, right, count) == 0
        }
        return compared ?? utf8.elementsEqual(bytes)
    }
}
