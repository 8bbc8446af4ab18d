import Foundation
import Gateway

FileHandle.standardError.write(Data("rds-gateway: the gateway is not assembled yet (issue 4)\n".utf8))
exit(1)
