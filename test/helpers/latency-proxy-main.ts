// The latency proxy's process (latency-proxy-process.ts): argv[2] the target, argv[3] the latency in ms. Sends
// {endpoint} once listening, and {requests} when asked.
import { startFaultProxy } from './fault-proxy'

const proxy = await startFaultProxy(process.argv[2] as string, { latencyMs: Number(process.argv[3]) })
process.send?.({ endpoint: proxy.endpoint })
process.on('message', () => process.send?.({ requests: proxy.stats.requests }))
process.on('disconnect', () => process.exit(0))
