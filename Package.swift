// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "utq",
    products: [
        .executable(name: "utq", targets: ["utq"]),
        .library(name: "UTQCore", targets: ["UTQCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Reads GTFS feeds shipped as .zip archives.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // Decodes GTFS-Realtime feeds (protocol buffers). None of its optional traits: utq uses
        // neither, and SwiftPM passes a package's enabled traits to the compiler in an order
        // that changes from run to run, so with two of them every other build compiled
        // SwiftProtobuf again (make demo after make jupyter took 35 s instead of 1).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
    ],
    targets: [
        // libedit from the system (Debian: libedit-dev), found through pkg-config.
        .systemLibrary(
            name: "CLineEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // libpq's declarations (Debian: libpq-dev). The library itself is opened when a
        // database is attached, not linked: it brings twenty libraries with it.
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        // zlib, zstd and snappy from the system (Debian: zlib1g-dev, libzstd-dev, libsnappy-dev):
        // .gz and .zst files read as they stream, and Parquet's codecs.
        .systemLibrary(
            name: "CCompression",
            providers: [.apt(["zlib1g-dev", "libzstd-dev", "libsnappy-dev"])]
        ),
        // Cache lines asked for ahead of reads and writes at random (a header of two inline
        // functions; nothing to link).
        .systemLibrary(name: "CIntrinsics"),
        // GTFS-Realtime's messages, generated once from the specification's gtfs-realtime.proto
        // (see its README; the protoc plugin never runs in a build).
        .target(
            name: "GTFSRealtime",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["README.md"]
        ),
        // The engine: text in, results out. It never prints and knows no terminal.
        .target(
            name: "UTQCore",
            dependencies: ["CCompression", "CIntrinsics", "GTFSRealtime", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            // Loaders and operators touch millions of cells in class-held buffers; the dynamic
            // exclusivity checks cost more than the work in release builds. Tests run the
            // debug build with the checks on.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        // Plans on PostgreSQL: attach, SQL compiled from the logical plan, results streamed back.
        .target(name: "UTQPostgres", dependencies: ["UTQCore", "CLibPQ"]),
        // The thin client: command line, REPL over libedit, batch scripts.
        .executableTarget(
            name: "utq",
            dependencies: [
                "UTQCore", "UTQPostgres", "CLineEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Deterministic generators for the shipped datasets and the benchmarks.
        .executableTarget(name: "utq-datagen", dependencies: ["UTQCore", "GTFSRealtime", .product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        .testTarget(
            name: "UTQTests",
            dependencies: ["UTQCore", "UTQPostgres", "utq", "utq-datagen", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            resources: []
        ),
    ]
)
