import Foundation
import Gateway

exit(
    await GatewayCommand.main(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
