import Foundation
import HTTP1

extension HTTPDate {
    /// The IMF-fixdate of `date`, as a header value string.
    static func text(_ date: Date) -> String {
        String(decoding: format(secondsSince1970: Int(date.timeIntervalSince1970)), as: UTF8.self)
    }
}
