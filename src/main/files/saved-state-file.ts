// A JSON file of saved state (connections, secrets, query history): read tolerantly, changed only under the
// file's lock (load, change, save), written atomically as 0600, and never saved over when it could not be read
// in full: a damaged file is kept aside as <name>.corrupt-<time> first and the user is told.
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { keepCorruptAside } from './corrupt-file'
import { withFileLock } from './file-lock'
import { writePrivateFile } from './private-file'
import { errorMessage } from '../../shared/error-message'

export interface Decoded<T> {
  /** What could be read. */
  readonly value: T
  /** What could not, one sentence each; empty when all of it was read. */
  readonly problems: readonly string[]
}

export interface SavedStateFormat<T> {
  /** The value of a file that does not exist yet. */
  empty(): T
  /** Parsed JSON → the value; anything it cannot use is a problem (the file then counts as damaged). */
  decode(parsed: unknown): Decoded<T>
  encode(value: T): string
}

type Loaded<T> =
  | { readonly kind: 'missing' | 'ok'; readonly value: T }
  | { readonly kind: 'damaged'; readonly value: T; readonly reason: string; readonly problems: readonly string[]; readonly partial: boolean }
  | { readonly kind: 'unreadable'; readonly value: T; readonly problem: string }

const messageOf = (e: unknown): string => errorMessage(e)

export class SavedStateFile<T> {
  /** What happened to this file in this process (kept aside, started again), for the user. */
  private readonly notices: string[] = []

  constructor(
    readonly path: string,
    private readonly format: SavedStateFormat<T>
  ) {}

  private get name(): string {
    return basename(this.path)
  }

  private async load(): Promise<Loaded<T>> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return { kind: 'missing', value: this.format.empty() }
      return {
        kind: 'unreadable',
        value: this.format.empty(),
        problem: `${this.name} could not be read (${messageOf(e)}), so nothing is saved over it. Check that you can read and write ${this.path}, then try again.`
      }
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (e) {
      const reason = `not valid JSON: ${messageOf(e)}`
      const problem = `${this.name} could not be read (${reason}); what it holds is not shown. It is left as it is until the next save, which keeps it as ${this.name}.corrupt-<time> and starts a new one.`
      return { kind: 'damaged', value: this.format.empty(), reason, problems: [problem], partial: false }
    }
    const d = this.format.decode(parsed)
    return d.problems.length === 0
      ? { kind: 'ok', value: d.value }
      : { kind: 'damaged', value: d.value, reason: d.problems.join(' '), problems: d.problems, partial: true }
  }

  /** The value (what could be read of it) and what the user should know about the file. Never throws. */
  async read(): Promise<{ value: T; problems: string[] }> {
    const r = await this.load()
    const keep = `The next save keeps ${this.name} as it is now as ${this.name}.corrupt-<time> and writes what could be read.`
    const now = r.kind === 'damaged' ? (r.partial ? [...r.problems, keep] : r.problems) : r.kind === 'unreadable' ? [r.problem] : []
    return { value: r.value, problems: [...now, ...this.notices] }
  }

  /** What happened to the file in this process (kept aside and started again), without reading it. */
  problems(): readonly string[] {
    return [...this.notices]
  }

  /**
   * Loads, changes and saves under the file's lock, so concurrent changes all land. A damaged file is kept aside
   * first (and the user told); an unreadable one (permissions, I/O) is not replaced at all: this throws.
   */
  async update(change: (current: T) => T | Promise<T>): Promise<T> {
    return withFileLock(this.path, async () => {
      const r = await this.load()
      if (r.kind === 'unreadable') throw new Error(r.problem)
      if (r.kind === 'damaged') {
        const kept = await keepCorruptAside(this.path)
        this.notices.push(
          `${this.name} could not be read${r.partial ? ' in full' : ''} (${r.reason}); it was kept as ${basename(kept)} and a new one started${r.partial ? ' with what could be read' : ''}.`
        )
      }
      const next = await change(r.value)
      await writePrivateFile(this.path, this.format.encode(next))
      return next
    })
  }
}
