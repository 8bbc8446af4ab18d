import Foundation

/// The body of `/weather/{city}`: it changes once a minute, so the ETag does too.
struct DemoWeatherReport: Sendable, Encodable {
    /// The city's name.
    let city: String
    /// The country code.
    let country: String
    /// The temperature in °C.
    let temperatureC: Double
    /// A word for the sky.
    let conditions: String
    /// The start of the minute the report belongs to (ISO 8601).
    let updatedAt: String

    /// The report for `city` during the minute holding `now`.
    init(city: DemoCity, at now: Date) {
        let minute = Int(now.timeIntervalSince1970 / 60)
        let swing = Double((minute &* 7 &+ city.name.utf8.count) % 9) - 4
        let skies = ["clear", "cloudy", "rain", "drizzle", "windy", "sunny"]
        self.city = city.name
        self.country = city.country
        self.temperatureC = city.baseTemperature + swing * 0.5
        self.conditions = skies[(minute &+ city.name.utf8.count) % skies.count]
        self.updatedAt = Date(timeIntervalSince1970: Double(minute * 60)).formatted(.iso8601)
    }
}
