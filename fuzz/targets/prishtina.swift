import Foundation
@testable import UTQCore

/// Prishtina routes and itineraries: both readers on any parsed document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrishtina(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let doc = Fuzz.expectingUserErrors("parse", { try parseJSONDocument(bytes: bytes, path: "routes.json") }) else { return 0 }
    _ = Prishtina.isRoutes(doc)
    _ = Prishtina.isItineraries(doc)
    if let (tables, _) = Fuzz.expectingUserErrors("routes", { try Prishtina.loadRoutes(doc, name: "routes", path: "routes.json") }) {
        tables.forEach(Fuzz.show)
    }
    if let (tables, _) = Fuzz.expectingUserErrors("itineraries", { try Prishtina.loadItineraries(doc, name: "itineraries", path: "routes.json") }) {
        tables.forEach(Fuzz.show)
    }
    return 0
}
