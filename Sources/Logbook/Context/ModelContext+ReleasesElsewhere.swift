extension ModelContext {
    /// Not API: waits until everything that contexts, migrations and replays have handed to
    /// another thread to free so far has been freed there.
    ///
    /// A context of 1,024 models or more frees them on another thread when it goes away, a
    /// migration frees the stores of its stages there, and a replay the inserts it decoded
    /// ahead, so that the caller does not wait for it. The work is still done. A measurement
    /// that should count it, such as a benchmark comparing with a library that frees as it
    /// goes, calls this before it stops its clock.
    @_spi(Measurement)
    public static func _waitForReleasesElsewhere() {
        Leftovers.waitForDrops()
    }
}
