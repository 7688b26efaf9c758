// The one bounded reader of Parquet footers in main (the refresh's file check, the hour inspector): the footer's
// length is capped, its Thrift is checked against the bytes it declares, and it is parsed in a worker thread with a
// heap limit and a time limit, so a hostile file costs at most those bounds and the main thread keeps answering.
import { type StartedWorker, WORKER_START, askWorker, startWorker } from '../workers/worker-thread'
import type { FooterAnswers, FooterJob } from './parquet-footer-worker'

/** A footer longer than this is refused unread. Real footers of the vendor's hourly files are a few KiB; 8 MiB is
 * room for thousands of row groups × columns with statistics, and what a 256 MB worker heap parses with margin. */
export const FOOTER_CAP_BYTES = 8 * 1024 ** 2
/** Read from the end of each file at once: the footer, its length and "PAR1", nearly always in one read. */
export const TAIL_BYTES = 64 * 1024

export interface ParquetFooter {
  readonly rows: number
  readonly rowGroups: number
  readonly columns: readonly { readonly name: string; readonly type: string }[]
  /** What decides the columns and types DuckDB reads from the file, as a tag: equal in files that read alike. */
  readonly schemaTag: string
}

/** A footer, or why the file is not readable Parquet (words that follow "it is not readable Parquet: "); `transient`
 * when the answer may differ next time (a parse that ran out of time on a busy machine): not to be remembered. */
export type FooterResult = { readonly ok: true; readonly footer: ParquetFooter } | { readonly ok: false; readonly why: string; readonly transient?: true }

/** Reads the inclusive byte range [start, end] of one object. */
export type ObjectRangeReader = (start: number, end: number, signal?: AbortSignal) => Promise<Uint8Array>

export interface FooterParserOptions {
  /** Workers kept (reused, never one per file): one hostile footer holds one of them for at most twice `timeoutMs`
   * (in its batch, then alone). */
  readonly workers?: number
  /** Time one message of footers (one, or a batch of small ones) may take once its worker is running. */
  readonly timeoutMs?: number
  /** The worker's old-generation heap (a batch shares it; a batch that exhausts it is parsed again one by one). */
  readonly heapMb?: number
  /** Footers up to this many bytes are sent several at once (default BATCHED_BYTES). */
  readonly batchedBytes?: number
}

/** A worker of the pool. */
type Slot = StartedWorker

/** Footers up to this size go to a worker several at once (copied: a batch that fails is judged again one by one);
 * a larger one goes alone (its bytes transferred). An hourly file's footer is a few KB. */
export const BATCHED_BYTES = TAIL_BYTES
/** Footers sent in one message at most: a cold year's 26,000 footers cost the main thread a message and an answer
 * each (2.7 s of postMessage alone, measured); those waiting for a worker now go together. */
const BATCH_FOOTERS = 32

interface Pending {
  readonly bytes: ArrayBuffer
  readonly resolve: (r: FooterResult) => void
  /** Parsed in a message of its own: large, or in a batch that failed. */
  readonly alone: boolean
}

/**
 * A small pool of footer-parsing workers; idle workers do not keep the process alive. Footers that wait for a worker
 * go to it together (up to BATCH_FOOTERS in one message). A batch that fails (out of time, out of memory, the worker
 * stopped) is parsed again one footer at a time, so only the footer that caused it is answered with why, with the
 * same bounds as ever.
 */
export class FooterParser {
  private readonly idle: Slot[] = []
  private readonly queue: Pending[] = []
  private started = 0
  private readonly workers: number
  private readonly timeoutMs: number
  private readonly heapMb: number
  private readonly batchedBytes: number

  constructor(opts: FooterParserOptions = {}) {
    this.workers = opts.workers ?? 2
    this.timeoutMs = opts.timeoutMs ?? 3000
    this.heapMb = opts.heapMb ?? 256
    this.batchedBytes = opts.batchedBytes ?? BATCHED_BYTES
  }

  /** Parses a footer's bytes (its Thrift, then its length and "PAR1"); they are the worker's from now on. */
  parse(bytes: ArrayBuffer, signal?: AbortSignal): Promise<FooterResult> {
    signal?.throwIfAborted()
    return new Promise((resolve) => {
      this.queue.push({ bytes, resolve, alone: bytes.byteLength > this.batchedBytes })
      this.pump()
    })
  }

  /**
   * Starts a worker ahead of the footers, when none runs: a refresh that listed new files calls it before it works out
   * which files to check, so the worker's start (~80 ms on 2 cores) runs beside that work, not after it. Idle, it does
   * not keep the process alive.
   */
  warm(): void {
    if (this.started > 0) return
    try {
      const slot = this.spawn()
      slot.worker.unref()
      this.idle.push(slot)
    } catch {
      // Said when a footer is parsed: pump starts one then, and answers why it cannot.
    }
  }

  /** Ends the workers (tests; the process ends them anyway). */
  async close(): Promise<void> {
    const all = this.idle.splice(0)
    this.started -= all.length
    await Promise.all(all.map((s) => s.worker.terminate()))
  }

  /** Gives waiting footers to idle workers (starting one while fewer than `workers` run). */
  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.idle.pop()
      // An idle worker that stopped (its threadId is -1 then) is let go, and another started in its place.
      if (slot && slot.worker.threadId === -1) {
        this.started--
        continue
      }
      if (!slot && this.started < this.workers) {
        try {
          slot = this.spawn()
        } catch (e) {
          // No worker can start (the app's build is incomplete): every waiting footer is answered why, not remembered.
          for (const j of this.queue.splice(0)) j.resolve(this.failure(Object.assign(e as Error, { code: WORKER_START })))
          return
        }
      }
      if (!slot) return
      void this.runBatch(slot, this.nextBatch())
    }
  }

  private nextBatch(): Pending[] {
    const first = this.queue.shift() as Pending
    if (first.alone) return [first]
    let n = 0
    while (n < this.queue.length && n + 1 < BATCH_FOOTERS && !this.queue[n]?.alone) n++
    return [first, ...this.queue.splice(0, n)]
  }

  private async runBatch(slot: Slot, jobs: Pending[]): Promise<void> {
    try {
      const answers = await this.run(
        slot,
        jobs.map((j) => j.bytes),
        jobs.length === 1
      )
      this.idle.push(slot)
      jobs.forEach((j, i) => j.resolve(answers[i] ?? { ok: false, why: 'its footer could not be parsed (no answer)' }))
    } catch (e) {
      this.started--
      void slot.worker.terminate()
      if (jobs.length === 1) jobs[0]?.resolve(this.failure(e))
      // Which footer caused it is not known: each is parsed again alone, ahead of the rest.
      else this.queue.unshift(...jobs.map((j) => ({ ...j, alone: true })))
    }
    this.pump()
  }

  private failure(e: unknown): FooterResult {
    const err = e as Error & { code?: string }
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') return { ok: false, why: `parsing its footer needed more than ${this.heapMb} MB` }
    if (err.message === 'timeout') return { ok: false, why: `parsing its footer took longer than ${this.timeoutMs / 1000} s`, transient: true }
    // Not the footer's fault: the file is checked again next time.
    if (err.code === WORKER_START) return { ok: false, why: `its footer could not be parsed (${err.message})`, transient: true }
    return { ok: false, why: `its footer could not be parsed (${err.message})` }
  }

  private spawn(): Slot {
    const slot = startWorker(import.meta.url, 'parquet-footer-worker', 'the footer worker', {
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 }
    })
    this.started++
    return slot
  }

  /** One message of footers to a worker and its answers, within the time limit (for the whole message; it starts once
   * the worker runs: starting one is not the footers' cost). */
  private async run(slot: Slot, footers: ArrayBuffer[], transfer: boolean): Promise<FooterResult[]> {
    const job: Omit<FooterJob, 'id'> = { footers }
    const a = await askWorker<FooterAnswers>(slot, job, { timeoutMs: this.timeoutMs, ...(transfer ? { transfer: footers } : {}) })
    return a.answers.map((r) =>
      r.ok ? { ok: true, footer: { rows: r.rows, rowGroups: r.rowGroups, columns: r.columns, schemaTag: r.schemaTag } } : { ok: false, why: r.why }
    )
  }
}

/** The process's pool (the refresh's check and the inspector share it). */
let shared: FooterParser | null = null
export function footerParser(): FooterParser {
  shared ??= new FooterParser()
  return shared
}

const isMagic = (b: Uint8Array, at: number): boolean => b[at] === 0x50 && b[at + 1] === 0x41 && b[at + 2] === 0x52 && b[at + 3] === 0x31

/** Why an object of `size` bytes cannot be Parquet whatever it holds (too short for its magic and footer length), or null. */
export function tooShortForParquet(size: number): string | null {
  if (size === 0) return 'zero bytes'
  return size < 12 ? `${size} bytes, too short for Parquet` : null
}

/**
 * The footer of a Parquet object of `size` bytes: its first 4 bytes and its last 64 KiB (the rest of the footer
 * only when it is longer and within the cap), checked and parsed within the bounds. A failed read rejects (not
 * judged: the network, not the file); anything wrong with the bytes is an answer.
 */
export async function readParquetFooter(
  size: number,
  read: ObjectRangeReader,
  opts: { readonly signal?: AbortSignal; readonly parser?: FooterParser } = {}
): Promise<FooterResult> {
  const short = tooShortForParquet(size)
  if (short !== null) return { ok: false, why: short }
  const tailStart = Math.max(0, size - TAIL_BYTES)
  // A file within TAIL_BYTES (an hourly file is a few KB) is read whole, once: its head is in its tail.
  const [head, tail] =
    tailStart === 0
      ? await read(0, size - 1, opts.signal).then((whole) => [whole.subarray(0, 4), whole] as const)
      : await Promise.all([read(0, 3, opts.signal), read(tailStart, size - 1, opts.signal)])
  if (head.length < 4 || tail.length < 8 || !isMagic(head, 0) || !isMagic(tail, tail.length - 4))
    return { ok: false, why: 'no "PAR1" at both ends (cut short, or not Parquet)' }
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  const length = view.getUint32(tail.length - 8, true)
  if (length === 0 || length > size - 12) return { ok: false, why: `its footer length (${length} bytes) does not fit in the file (${size} bytes)` }
  if (length > FOOTER_CAP_BYTES) return { ok: false, why: `its footer claims ${length} bytes, more than the ${FOOTER_CAP_BYTES / 1024 ** 2} MiB allowed` }
  const bytes = new Uint8Array(length + 8)
  const inTail = Math.min(tail.length, length + 8)
  bytes.set(tail.subarray(tail.length - inTail), bytes.length - inTail)
  if (inTail < bytes.length) {
    const rest = await read(size - 8 - length, tailStart - 1, opts.signal)
    if (rest.length !== bytes.length - inTail) return { ok: false, why: 'its footer could not be read whole (the file changed while it was read?)' }
    bytes.set(rest, 0)
  }
  return (opts.parser ?? footerParser()).parse(bytes.buffer, opts.signal)
}
