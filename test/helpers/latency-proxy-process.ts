// The fault proxy (fault-proxy.ts) adding latency only, in a process of its own: for benchmarks, so that the proxy's
// work (it forwards every byte) is not counted as, nor competes on one thread with, the client it stands before.
import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'

export interface LatencyProxy {
  readonly endpoint: string
  /** Requests forwarded so far. */
  requests(): Promise<number>
  /** CPU time the proxy has used so far (ms, Linux /proc), or null. */
  cpuMs(): number | null
  close(): Promise<void>
}

/** Starts the proxy in front of `target`, adding `latencyMs` before each request. */
export async function startLatencyProxy(target: string, latencyMs: number): Promise<LatencyProxy> {
  const child = fork(new URL('./latency-proxy-main.ts', import.meta.url), [target, String(latencyMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc']
  })
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { endpoint: string }).endpoint))
    child.once('exit', (code) => reject(new Error(`the latency proxy exited (${code})`)))
  })
  return {
    endpoint,
    requests: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { requests: number }).requests))
        child.send('requests')
      }),
    cpuMs() {
      try {
        // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 per second on Linux).
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
        return (Number(fields[11]) + Number(fields[12])) * 10
      } catch {
        return null
      }
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.disconnect()
      await exited
    }
  }
}
