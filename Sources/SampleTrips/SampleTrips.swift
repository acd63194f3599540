import Logbook

/// The SampleTrips domain of the WWDC23 talk "Model your schema with SwiftData".
public enum SampleTrips {}
