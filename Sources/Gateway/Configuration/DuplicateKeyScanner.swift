import Foundation

/// Finds the first object key that appears twice in the same JSON object, at any depth.
///
/// `JSONSerialization` and `JSONDecoder` silently keep one of two equal keys, so a second
/// repository of the same name would replace the first. The scanner runs over text that
/// `JSONSerialization` has already accepted, so it only tracks strings, nesting and commas.
struct DuplicateKeyScanner {
    private enum Frame {
        case object(path: [String], keys: Set<String>, expectingKey: Bool, current: String)
        case array(path: [String], index: Int)
    }

    /// The key path (components as ``KeyPath/render(_:)-([String])`` takes them) of the first
    /// repeated key, or `nil` when every object's keys are distinct.
    static func firstDuplicate(in data: Data) -> [String]? {
        let bytes = [UInt8](data)
        var stack: [Frame] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(.object(path: childPath(of: stack.last), keys: [], expectingKey: true, current: ""))
            case UInt8(ascii: "["):
                stack.append(.array(path: childPath(of: stack.last), index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                switch stack.last {
                case .object(let path, let keys, _, let current):
                    stack[stack.count - 1] = .object(path: path, keys: keys, expectingKey: true, current: current)
                case .array(let path, let position):
                    stack[stack.count - 1] = .array(path: path, index: position + 1)
                case nil: break
                }
            case UInt8(ascii: "\""):
                let end = endOfString(bytes, from: index)
                if case .object(let path, var keys, true, _) = stack.last {
                    let key = decodeString(bytes[index..<end])
                    guard keys.insert(key).inserted else { return path + [key] }
                    stack[stack.count - 1] = .object(path: path, keys: keys, expectingKey: false, current: key)
                }
                index = end
                continue
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The path of a container opened inside `parent`: the parent's path and the member key or index.
    private static func childPath(of parent: Frame?) -> [String] {
        switch parent {
        case .object(let path, _, _, let current): path + [current]
        case .array(let path, let index): path + ["[\(index)]"]
        case nil: []
        }
    }

    /// The index just past the closing quote of the string opening at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The value of a JSON string literal (quotes included), escapes resolved.
    private static func decodeString(_ literal: ArraySlice<UInt8>) -> String {
        let inner = literal.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(literal))) ?? String(decoding: inner, as: UTF8.self)
    }
}
