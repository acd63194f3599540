// Code written for SwiftData uses `Date`, `UUID`, `URL` and `Data`, and relies on models being
// `Observable`, with no import beyond `import SwiftData`. DESIGN §1 promises that swapping in
// `import Logbook` is the only edit such code needs, so Logbook re-exports the two modules
// SwiftData's models lean on. `Observation` is also what the `@Model` expansion names.
@_exported import Foundation
@_exported import Observation
