/// A coding key for any JSON object member: used to see every key a config object holds, so that
/// keys the configuration does not know are reported instead of silently ignored.
struct ConfigurationKey: CodingKey, Hashable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
