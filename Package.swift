// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Logbook",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Logbook", targets: ["Logbook"]),
        .library(name: "SampleTrips", targets: ["SampleTrips"]),
        .library(name: "LogbookPostgres", targets: ["LogbookPostgres"]),
        .executable(name: "logbook", targets: ["LogbookCLI"]),
        .executable(name: "logbook-soak", targets: ["LogbookSoak"]),
        .executable(name: "logbook-postgres", targets: ["LogbookPostgresCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        .target(name: "CCRC32C"),
        .target(name: "CMemoryHints"),
        .macro(
            name: "LogbookMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "Logbook",
            dependencies: [
                "CLZ4",
                "CCRC32C",
                "CMemoryHints",
                "LogbookMacros",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SampleTrips",
            dependencies: ["Logbook"]
        ),
        .target(
            name: "LogbookPostgres",
            dependencies: [
                "Logbook",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .executableTarget(
            name: "LogbookCLI",
            dependencies: [
                "Logbook",
                "SampleTrips",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "LogbookPostgresCLI",
            dependencies: [
                "Logbook",
                "LogbookPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "LogbookSoak",
            dependencies: [
                "Logbook",
                "SampleTrips",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "LogbookTests",
            dependencies: [
                "Logbook",
                "SampleTrips",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "LogbookPostgresTests",
            dependencies: [
                "Logbook",
                "LogbookCLI",
                "LogbookPostgres",
                "LogbookPostgresCLI",
                "SampleTrips",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LogbookMacrosTests",
            dependencies: [
                "LogbookMacros",
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
        // Code written for SwiftData, compiled with `import Logbook` and nothing else changed. It
        // builds in the Swift 5 language mode that such app code is written in: its
        // `static var versionIdentifier` stored properties are errors in Swift 6's, whatever the
        // framework.
        .testTarget(
            name: "SwiftDataSampleTests",
            dependencies: ["Logbook"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "LogbookCLITests",
            dependencies: ["Logbook", "LogbookCLI", "LogbookSoak", "SampleTrips"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
