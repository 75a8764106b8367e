import Foundation
import PinholeVips

// The entry point: run the command line and exit with its status. All logic lives in Commands/.
MallocTuning.apply(for: PinholeCLI.mallocWorkload(command: CommandLine.arguments.dropFirst().first))
let cli = PinholeCLI(makeCodecs: ThumbnailCommand.Codecs.libvips(threadCount:), codecVersion: Vips.version)
let status = await cli.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
