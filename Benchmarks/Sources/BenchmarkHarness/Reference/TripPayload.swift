import Foundation
import SampleTripsData

/// A compact binary encoding of generated trips, standing in for the store's own event payload
/// until the Logbook side writes real stores.
///
/// Each object is one record: entity tag (`u8`), object number (LEB128), then its attributes in
/// declaration order: strings as LEB128 length and UTF-8, dates as the little-endian bits of a
/// `Double` of seconds since 1970, booleans as one byte, and the owner's object number for the
/// inverse relationship. It is close in size and redundancy to a typed event log without
/// pretending to be its format.
enum TripPayload {
    /// Encodes `trips`, numbering objects from `firstObject`.
    static func encode(_ trips: ArraySlice<TripData>, firstObject: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(trips.count * 1_024)
        var object = firstObject
        for trip in trips {
            let tripObject = object
            bytes.append(1)
            appendVarint(tripObject, to: &bytes)
            appendString(trip.name, to: &bytes)
            appendString(trip.destination, to: &bytes)
            appendDate(trip.startDate, to: &bytes)
            appendDate(trip.endDate, to: &bytes)
            object += 1
            for item in trip.bucketList {
                bytes.append(2)
                appendVarint(object, to: &bytes)
                appendString(item.title, to: &bytes)
                appendString(item.details, to: &bytes)
                bytes.append(item.hasReservation ? 1 : 0)
                bytes.append(item.isInPlan ? 1 : 0)
                appendVarint(tripObject, to: &bytes)
                object += 1
            }
            if let accommodation = trip.livingAccommodation {
                bytes.append(3)
                appendVarint(object, to: &bytes)
                appendString(accommodation.address, to: &bytes)
                appendString(accommodation.placeName, to: &bytes)
                appendVarint(tripObject, to: &bytes)
                object += 1
            }
        }
        return bytes
    }

    private static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var value = UInt64(truncatingIfNeeded: value)
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        appendVarint(string.utf8.count, to: &bytes)
        bytes.append(contentsOf: string.utf8)
    }

    private static func appendDate(_ date: Date, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: date.timeIntervalSince1970.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
