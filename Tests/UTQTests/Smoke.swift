import Testing
@testable import UTQCore

@Test func smoke() { #expect(CivilTime.daysFromCivil(year: 1970, month: 1, day: 1) == 0) }
