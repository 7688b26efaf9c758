// The refresh pipeline, written once for the app, the CLI and the tests: list (incrementally, the index saved) ->
// inventory -> manifests -> frame check (through the connection's block cache) -> what the analysis needs.
import { join } from 'node:path'
import type { UnlistedPrefix } from '../../shared/bucket-views'
import { type Inventory, buildInventory } from '../../shared/inventory'
import type { ListedObject } from '../../shared/listing'
import type { ManifestText, TimelineOptions } from '../../shared/timeline'
import { type FooterFacts, deliveryFacts } from '../../shared/delivery-facts'
import { bucketError } from './bucket-errors'
import type { IndexProgress, ListingProblem } from './bucket-index'
import type { BucketProvider } from './bucket-provider'
import { readManifests } from './manifest-reader'
import { refreshConnectionIndex } from './refresh-connection'
import { type BlockCache, connectionBlockCache } from '../byte-server/block-cache'
import { connectionObjectReader, fileStoreFor } from '../store/connection-files'
import type { FileStore } from '../store/file-store'
import { type FrameCheckOptions, type FrameCheckResult, findUnreadableFiles } from '../store/parquet-frame-check'
import { frameCacheFile } from '../store/frame-answers'
import { footerParser } from '../store/parquet-footer'

export interface BucketRefreshOptions {
  /** The instant the bucket is evaluated as of (listing plan, inventory, archive tiers). */
  readonly now: number
  /** List everything again instead of refreshing the saved index. */
  readonly full?: boolean
  /** Ends every step: the pipeline rejects as cancelled and what it found is not returned. */
  readonly signal?: AbortSignal
  readonly onListing?: (p: IndexProgress) => void
  readonly onFrames?: (p: { readonly checked: number; readonly total: number }) => void
  /** Which manifests to read: all (the default), those whose key passes, or none (a caller that shows no timeline). */
  readonly manifests?: boolean | ((key: string) => boolean)
  /** Whether to check the data files' frames (default true); unchecked, no file is known unreadable. */
  readonly frames?: boolean
  /** The connection's block cache and file store, when the caller reads from them too; else opened under the data folder. */
  readonly footers?: BlockCache
  readonly store?: FileStore
}

/** The listing refreshed, before anything is derived from it. */
export interface RefreshedListing {
  /** Every listed object by key (what the byte server may serve). */
  readonly objects: ReadonlyMap<string, ListedObject>
  /** The digest of the saved listing that holds these objects: equal digests, equal objects (index-store.ts). */
  readonly listingDigest: string
  /** The listing differs from the one saved before (so it may hold files the frame check has no answer for). */
  readonly listingChanged: boolean
  /** The listings that failed (a table they cover has no view, and says so). */
  readonly listingProblems: readonly ListingProblem[]
  readonly unlisted: readonly UnlistedPrefix[]
  /** Why the saved index was not used, and each failed listing, in the user's words. */
  readonly problems: readonly string[]
}

export interface RefreshedBucket extends RefreshedListing {
  readonly inventory: Inventory
  /** The text (or why not) of each manifest read, by key. */
  readonly manifests: ReadonlyMap<string, ManifestText>
  /** Data files the logical tables need that are not readable Parquet, and why each is not. */
  readonly unreadable: ReadonlySet<string>
  readonly unreadableWhy: ReadonlyMap<string, string>
  /** Rows and columns of the data files, from the footers the frame check read (now or before): the monitors' facts. */
  readonly footerFacts: ReadonlyMap<string, FooterFacts>
  /** The frame check answered every file for good: none was out of time or could not be read (checked again next time). */
  readonly framesSettled: boolean
}

export async function refreshBucket(provider: BucketProvider, dataDir: string, connectionId: string, opts: BucketRefreshOptions): Promise<RefreshedBucket> {
  return deriveBucket(await refreshListing(provider, dataDir, connectionId, opts), provider, dataDir, connectionId, opts)
}

const cancelledIf = (signal?: AbortSignal): void => {
  if (signal?.aborted) throw bucketError('cancelled', '', 'Refresh cancelled')
}

/** The pipeline's first step: the saved listing refreshed (and saved again when it changed). */
export async function refreshListing(
  provider: BucketProvider,
  dataDir: string,
  connectionId: string,
  opts: Pick<BucketRefreshOptions, 'now' | 'full' | 'signal' | 'onListing'>
): Promise<RefreshedListing> {
  const { signal } = opts
  const r = await refreshConnectionIndex(dataDir, connectionId, provider, {
    now: opts.now,
    ...(opts.full ? { full: true } : {}),
    ...(signal ? { signal } : {}),
    ...(opts.onListing ? { onProgress: opts.onListing } : {})
  })
  cancelledIf(signal)
  return {
    objects: r.index.objects,
    listingDigest: r.digest,
    listingChanged: r.changed,
    listingProblems: r.problems,
    unlisted: r.problems.map((p) => ({ prefix: p.prefix, message: p.error.userMessage })),
    problems: [...(r.indexProblem ? [r.indexProblem] : []), ...r.problems.map((p) => `${p.prefix || '(bucket root)'}: ${p.error.userMessage}`)]
  }
}

/** The rest of the pipeline, over a refreshed listing: inventory, manifests, frame check. */
export async function deriveBucket(
  listing: RefreshedListing,
  provider: BucketProvider,
  dataDir: string,
  connectionId: string,
  opts: BucketRefreshOptions
): Promise<RefreshedBucket> {
  const { now, signal } = opts
  const check = (): void => cancelledIf(signal)
  // The footer worker starts while the inventory and the files to check are worked out, not after (~80 ms on 2 cores):
  // a derivation runs when something changed, new objects or a clock that passed some (a new hour listed before it
  // was due). One per process: the pool keeps it for the next check.
  if (opts.frames ?? true) footerParser().warm()
  const inventory = buildInventory(listing.objects.values(), { now })
  const wanted = opts.manifests ?? true
  const manifests =
    wanted === false
      ? new Map<string, ManifestText>()
      : await readManifests(provider, inventory, {
          cacheFile: join(dataDir, 'manifests', `${connectionId}.json`),
          ...(typeof wanted === 'function' ? { filter: wanted } : {}),
          ...(signal ? { signal } : {})
        })
  check()
  let unreadable: ReadonlySet<string> = new Set()
  let unreadableWhy: ReadonlyMap<string, string> = new Map()
  let footerFacts: ReadonlyMap<string, FooterFacts> = new Map()
  let framesSettled = true
  if (opts.frames ?? true) {
    const footers = opts.footers ?? connectionBlockCache(dataDir, connectionId, provider)
    const store = opts.store ?? fileStoreFor(provider, dataDir, connectionId)
    const frames = await checkConnectionFrames(inventory, { footers, store }, dataDir, connectionId, {
      now,
      ...(signal ? { signal } : {}),
      ...(opts.onFrames ? { onProgress: opts.onFrames } : {})
    })
    check()
    // What the cache holds, for the next run: it need not scan every folder to know it is far from its cap.
    await footers.recordCensus()
    unreadable = frames.unreadable
    unreadableWhy = frames.reasons
    footerFacts = frames.facts
    framesSettled = frames.errors.length === 0 && frames.transient === 0
  }
  return { ...listing, inventory, manifests, unreadable, unreadableWhy, footerFacts, framesSettled }
}

/** What the analysis judges of a refresh beside its listing and manifests: unreadable files, and each delivery's
 * footer facts for the volume and schema monitors (the app, doctor, timeline and watch pass the same). */
export function findingInputs(r: RefreshedBucket): Pick<TimelineOptions, 'unreadable' | 'unreadableWhy' | 'deliveries'> {
  return { unreadable: r.unreadable, unreadableWhy: r.unreadableWhy, deliveries: deliveryFacts(r.inventory, r.footerFacts, r.unreadable) }
}

/**
 * The data files' frame check of a connection, read with its object reader (connectionObjectReader): each file's ends
 * and footer (bounded, off the main thread), remembered by key + ETag with what the mirror's builds found. A small
 * file's tail is all of it: read whole into the file store, where the mirror's build then finds it.
 */
export function checkConnectionFrames(
  inventory: Inventory,
  copies: { readonly footers: BlockCache; readonly store: FileStore },
  dataDir: string,
  connectionId: string,
  opts: Omit<FrameCheckOptions, 'cacheFile'>
): Promise<FrameCheckResult> {
  // The check reads only files it has no answer for (new ones): it does not look for a copy on disk first.
  const read = connectionObjectReader(copies.footers, copies.store, { lookOnDisk: false })
  return findUnreadableFiles(inventory, read, { ...opts, cacheFile: frameCacheFile(dataDir, connectionId) })
}
