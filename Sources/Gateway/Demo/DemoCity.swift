import Foundation

/// A city the demo upstream knows: the data behind `/weather/{city}` and `/locations?name=`.
struct DemoCity: Sendable, Encodable {
    /// The display name, e.g. `New York`.
    let name: String
    /// The ISO country code.
    let country: String
    /// Latitude in degrees.
    let latitude: Double
    /// Longitude in degrees.
    let longitude: Double
    /// The typical temperature the demo varies around, in °C.
    let baseTemperature: Double

    private enum CodingKeys: String, CodingKey { case name, country, latitude, longitude }

    /// The cities, in search-result order.
    static let all: [DemoCity] = [
        DemoCity(name: "London", country: "GB", latitude: 51.5074, longitude: -0.1278, baseTemperature: 11),
        DemoCity(name: "Paris", country: "FR", latitude: 48.8566, longitude: 2.3522, baseTemperature: 13),
        DemoCity(name: "Berlin", country: "DE", latitude: 52.52, longitude: 13.405, baseTemperature: 10),
        DemoCity(name: "Lisbon", country: "PT", latitude: 38.7223, longitude: -9.1393, baseTemperature: 18),
        DemoCity(name: "Tokyo", country: "JP", latitude: 35.6762, longitude: 139.6503, baseTemperature: 16),
        DemoCity(name: "New York", country: "US", latitude: 40.7128, longitude: -74.006, baseTemperature: 13),
        DemoCity(name: "Newcastle", country: "GB", latitude: 54.9783, longitude: -1.6178, baseTemperature: 9),
        DemoCity(name: "Sydney", country: "AU", latitude: -33.8688, longitude: 151.2093, baseTemperature: 19),
    ]

    /// The city named by a path segment such as `london`, `new-york` or `New%20York`.
    static func named(_ segment: String) -> DemoCity? {
        let wanted = Self.normalize(segment.removingPercentEncodingOrSelf)
        return all.first { Self.normalize($0.name) == wanted }
    }

    /// The cities whose name contains `query`, ignoring case.
    static func search(_ query: String) -> [DemoCity] {
        let wanted = normalize(query)
        return all.filter { normalize($0.name).contains(wanted) }
    }

    private static func normalize(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
    }
}
