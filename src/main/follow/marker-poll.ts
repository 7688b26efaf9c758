// One quiet check of a due hour whose markers have not all landed: a few of its prefixes listed at once (the
// manifest's folder, then awaited table folders in turn: src/shared/follow/check-schedule.ts pollPrefixes), for
// `watch` and the app's follow timer alike.
import { pollPrefixes } from '../../shared/follow/check-schedule'
import { type BucketProvider, listAll } from '../bucket/bucket-provider'

/** Lists the prefixes of this round and returns the keys written by `now` (later ones do not exist yet), and how many listings. */
export async function pollMarkers(
  provider: BucketProvider,
  awaiting: readonly string[],
  round: number,
  now: number,
  signal?: AbortSignal
): Promise<{ seen: Set<string>; listings: number }> {
  const seen = new Set<string>()
  const prefixes = pollPrefixes(awaiting, round)
  // At once: a quiet check costs one round trip, not five.
  await Promise.all(
    prefixes.map(async (prefix) => {
      for await (const o of listAll(provider, prefix, signal ? { signal } : {})) if (Date.parse(o.lastModified) <= now) seen.add(o.key)
    })
  )
  return { seen, listings: prefixes.length }
}
