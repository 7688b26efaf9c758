// Runs the patched s3rver in its own process (for benchmarks: the server's CPU off the client's core).
// argv[2]: the store directory. Sends {port} over IPC once listening.
import S3rver from 's3rver'

const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2] })
const addr = await server.run()
process.send({ port: addr.port })
process.on('disconnect', () => process.exit(0))
