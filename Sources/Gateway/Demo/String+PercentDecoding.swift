import Foundation

extension String {
    /// The string with percent-escapes decoded, or the string itself when they are malformed.
    var removingPercentEncodingOrSelf: String { removingPercentEncoding ?? self }
}
