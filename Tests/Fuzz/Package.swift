// swift-tools-version:6.0
// The libFuzzer target, a package of its own so that a plain `swift build`
// of smashtag never tries to link an executable without a `main`.
// `make fuzz` builds it with `-sanitize=fuzzer`; libFuzzer brings the `main`.
import PackageDescription

let package = Package(
    name: "smashtag-fuzz",
    dependencies: [.package(name: "smashtag", path: "../..")],
    targets: [
        .executableTarget(
            name: "SmashtagFuzz",
            dependencies: [.product(name: "Stages", package: "smashtag")],
            path: "Sources/SmashtagFuzz",
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
    ]
)
