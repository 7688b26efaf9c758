// npm run bench -- footer
// The bounded footer reader (src/main/store/parquet-footer.ts) against hostile footers (test/helpers/hostile-parquet.ts):
// per file, wall time, the process's peak RSS above where it started (the worker threads are in the process) and the
// main thread's longest stall (event-loop delay) meanwhile. Then what the footer check adds to a refresh of the demo
// bucket: every data file the tables need checked cold (ends and footer, parsed in the workers) against reading its
// ends only (the frame check it replaced).
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pLimit from 'p-limit'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { findUnreadableFiles } from '../../src/main/store/parquet-frame-check'
import { footerParser, readParquetFooter } from '../../src/main/store/parquet-footer'
import { objectsForViews } from '../../src/shared/bucket-views'
import { buildInventory } from '../../src/shared/inventory'
import { isArchived } from '../../src/shared/listing'
import { generateDemo } from '../helpers/demo'
import { heavySchemaFooter, hostileFiles, withFooter } from '../helpers/hostile-parquet'

const mb = (n: number): string => `${(n / 1024 ** 2).toFixed(0)} MB`

async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakRss: number; stallMs: number }> {
  const start = process.memoryUsage().rss
  let peak = start
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
  const delay = monitorEventLoopDelay({ resolution: 5 })
  delay.enable()
  const t = performance.now()
  const value = await fn()
  const ms = performance.now() - t
  delay.disable()
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  return { value, ms, peakRss: peak - start, stallMs: delay.max / 1e6 }
}

export async function benchFooter(): Promise<void> {
  console.log('\n## Hostile footers through the bounded reader (one process, the shared pool of 2 workers)')
  // Start the pool first: a worker's start is not a footer's cost.
  const warm = withFooter(Buffer.from([0x15, 0x02, 0x00]))
  await readParquetFooter(warm.length, async (s, e) => warm.subarray(s, e + 1))
  const files = { ...hostileFiles(), 'heavy-schema-490k.parquet': withFooter(heavySchemaFooter(490_000)) }
  for (const [name, b] of Object.entries(files)) {
    const r = await measured(() => readParquetFooter(b.length, async (s, e) => b.subarray(s, e + 1)))
    const why = r.value.ok ? 'READABLE (!)' : r.value.why
    console.log(
      `${name.padEnd(28)} ${mb(b.length).padStart(6)}  ${r.ms.toFixed(0).padStart(5)} ms  peak RSS +${mb(r.peakRss)}  main stall ${r.stallMs.toFixed(0)} ms  → ${why}`
    )
  }

  console.log('\n## What the footer check adds to a refresh of the demo bucket (8 days, cold, local folder)')
  const demo = await generateDemo()
  try {
    const provider = new LocalFolderProvider(demo.bucketDir)
    const now = Date.parse(demo.expected.now)
    const inventory = buildInventory((await refreshBucketIndex(provider, null, { now })).index.objects.values(), { now })
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    const needed = objectsForViews(inventory, { now }).filter((o) => o.key.endsWith('.parquet') && !isArchived(o, now))
    const ends = await measured(async () => {
      const limit = pLimit(32)
      await Promise.all(needed.map((o) => limit(() => Promise.all([read(o, 0, 3), read(o, o.size - 8, o.size - 1)]))))
    })
    const full = await measured(() => findUnreadableFiles(inventory, read, { now }))
    // Once more, the pool warm (a refresh after the first): the cost per file without starting workers.
    const again = await measured(() => findUnreadableFiles(inventory, read, { now }))
    console.log(`files checked: ${needed.length}`)
    console.log(`ends only (the old frame check): ${ends.ms.toFixed(0)} ms`)
    console.log(
      `ends + footer parsed in the workers: ${full.ms.toFixed(0)} ms (${(full.ms / needed.length).toFixed(2)} ms a file), peak RSS +${mb(full.peakRss)}, main stall ${full.stallMs.toFixed(0)} ms, unreadable ${full.value.unreadable.size}`
    )
    console.log(`again (workers running; a refresh caches answers by key + ETag, so only new files pay this): ${again.ms.toFixed(0)} ms`)
    for (const [key, why] of full.value.reasons) console.log(`  unreadable: ${key}: ${why}`)
  } finally {
    await demo.cleanup()
    await footerParser().close()
  }
}
