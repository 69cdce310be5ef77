// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "smashtag",
    products: [
        .executable(name: "smashtag", targets: ["Pipeline"]),
        .library(name: "Stages", targets: ["Stages"]),
    ],
    targets: [
        // libarchive, through its pkg-config file; `make deps` installs it.
        .systemLibrary(
            name: "CArchive",
            path: "Sources/CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // SQLite for the store (SPEC §10), through its pkg-config file; `make deps` installs it.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // zlib, for gzip headers and a damaged gzip member's exact words; `make deps` installs it.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // ISA-L's inflate for gzip streams, through its pkg-config file; `make deps` installs it.
        .systemLibrary(
            name: "CISAL",
            path: "Sources/CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        // libxml2's text writer for GEXF (SPEC §12.5), through its pkg-config file; `make deps` installs it.
        .systemLibrary(
            name: "CXML",
            path: "Sources/CXML",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libxlsxwriter for `--format xlsx` (SPEC §12.6), through its pkg-config file; `make deps` installs it.
        .systemLibrary(
            name: "CXLSXWriter",
            path: "Sources/CXLSXWriter",
            pkgConfig: "xlsxwriter",
            providers: [.apt(["libxlsxwriter-dev"])]
        ),
        // libpsl for the registrable domain of a link (SPEC §13), with the system's
        // Public Suffix List, through its pkg-config file; `make deps` installs both.
        .systemLibrary(
            name: "CPSL",
            path: "Sources/CPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev", "publicsuffix"])]
        ),
        // Every stage, record type and error: all the logic, unit-tested.
        .target(
            name: "Stages",
            dependencies: ["CArchive", "CSQLite", "CZlib", "CISAL", "CXML", "CXLSXWriter", "CPSL"],
            path: "Sources/Stages",
            // The decoder's hot loops touch class-owned buffers millions of times a
            // second; dynamic exclusivity checks cost ~6% there. Static checks stay.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        // The `smashtag` executable: options, usage text, wiring, exit codes.
        .executableTarget(
            name: "Pipeline",
            dependencies: ["Stages"],
            path: "Sources/Pipeline"
        ),
        // `make bench`'s driver: data generator and timing harness (Foundation only).
        .executableTarget(
            name: "smashtag-bench",
            path: "Benchmarks/Bench"
        ),
        .testTarget(
            name: "StagesTests",
            dependencies: ["Stages"],
            path: "Tests/StagesTests"
        ),
        .testTarget(
            name: "PipelineTests",
            // Depends on the executable only so that `swift test` builds it; tests run the binary.
            dependencies: ["Stages", "Pipeline"],
            path: "Tests/PipelineTests"
        ),
    ]
)
