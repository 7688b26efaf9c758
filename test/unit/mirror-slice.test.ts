// The mirror's store slice in Node (zustand/vanilla), its actions calling a real Workspace over the generated demo
// bucket through the same dispatch the web host and IPC use: it follows the pushed status to the end of a build,
// clears (the tables then say they are not mirrored yet), stops at a limit with Resume's message, and resumes to the
// end; and the panel's words for a status.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { mirrorProgressWords, mirrorStateWords, mirrorUsageWords, tableMirrorNote } from '../../src/renderer/src/mirror/mirror-words'
import { createAppStore, type AppStore } from '../../src/renderer/src/store/app-store'
import type { MirrorStatusView } from '../../src/shared/api/views'
import { type Demo, readDemo } from '../helpers/demo'
import { until as waitUntil, workspacePort } from '../helpers/workspace-port'

let demo: Demo
let work: string
let workspace: Workspace
let store: AppStore

const until = (what: () => boolean, ms = 180_000): Promise<void> => waitUntil(what, ms)

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-mirror-slice-'))
  workspace = new Workspace({
    dataDir: join(work, 'data'),
    secrets: new MemorySecretStore(),
    demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
    autoRefresh: false
  })
  store = createAppStore({ api: workspacePort(workspace) })
}, 120_000)
afterAll(async () => {
  await workspace?.dispose()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

describe('the mirror slice', () => {
  it('follows a build to its end, clears, stops at a limit and resumes', async () => {
    const off = store.getState().followEvents()
    try {
      await store.getState().openConnection('demo')
      await until(() => store.getState().mirror?.state === 'done' && store.getState().mirrorGeneration > 0)
      const ready = store.getState().mirror as MirrorStatusView
      expect(mirrorStateWords(ready)).toBe('up to date')
      expect(tableMirrorNote(ready, 'datamart_claudia.claudia_messages')).toBeNull()
      // A full table is never in the mirror: nothing to say.
      expect(tableMirrorNote(ready, 'datamart_claudia.claudia_conversation')).toBeNull()

      const generation = store.getState().mirrorGeneration
      await store.getState().clearMirror()
      expect(store.getState().mirror).toMatchObject({ state: 'idle', usage: { total: 0 } })
      expect(store.getState().mirrorGeneration).toBe(generation + 1)
      expect(tableMirrorNote(store.getState().mirror, 'datamart_claudia.claudia_messages')).toBe("not mirrored yet — 0% (reading the bucket's files meanwhile)")

      // A limit of 1 kB holds one segment (a local folder downloads nothing: the compacted files count).
      await store.getState().setMirrorLimit(1000)
      expect(store.getState().mirror?.limit).toEqual({ bytes: 1000, chosen: true })
      await store.getState().resumeMirror()
      await until(() => store.getState().mirror?.atLimit === true)
      const limited = store.getState().mirror as MirrorStatusView
      expect(mirrorStateWords(limited)).toBe('stopped at its disk limit')
      expect(limited.message).toMatch(/^The local mirror stopped at its limit: it uses .* of the 1\.0 KB allowed for this connection/)
      expect(tableMirrorNote(limited, 'datamart_claudia.claudia_messages')).toMatch(
        /^(not mirrored yet — 0% \(reading the bucket's files meanwhile\)|\d+% mirrored \(the rest read from the bucket's files meanwhile\))$/
      )
      expect(mirrorUsageWords(limited)).toMatch(/^Uses .* on disk \(compacted .*, the bucket's files downloaded for it 0 B\) of 1\.0 KB allowed$/)

      await store.getState().setMirrorLimit(null)
      await store.getState().resumeMirror()
      await until(() => store.getState().mirror?.state === 'done')
      expect(store.getState().mirror?.tables.every((t) => t.folders === t.foldersTotal)).toBe(true)
      expect(store.getState().mirror?.limit?.chosen).toBe(false)
      expect(store.getState().mirrorError).toBeNull()
    } finally {
      off()
    }
  }, 300_000)

  it('says what a build does, in words', () => {
    const base: MirrorStatusView = {
      state: 'running',
      atLimit: false,
      message: null,
      progress: null,
      tables: [],
      usage: { mirror: 8e6, downloaded: 4e7, total: 4.8e7 },
      limit: { bytes: 2.5e10, chosen: false },
      last: null
    }
    const progress = {
      table: 'datamart_claudia.claudia_messages',
      tables: 1,
      tablesTotal: 3,
      folders: 120,
      foldersTotal: 400,
      files: 300,
      filesTotal: 1000,
      bytes: 12e6,
      bytesTotal: 4e7,
      segments: 5,
      segmentsTotal: 40,
      startedAt: '2026-12-01T00:00:00.000Z',
      secondsLeft: 125
    }
    expect(mirrorProgressWords({ ...base, progress })).toBe(
      'Table 2 of 3 (claudia_messages) · 120 of 400 folders · 300 of 1,000 files · 12.0 MB of 40.0 MB · about 2 min 5 s left'
    )
    expect(mirrorProgressWords({ ...base, progress: { ...progress, secondsLeft: null } })).toMatch(/estimating the time left$/)
    expect(mirrorUsageWords(base)).toBe(
      "Uses 48.0 MB on disk (compacted 8.0 MB, the bucket's files downloaded for it 40.0 MB) of 25.0 GB allowed (the default: a quarter of the free space when it was first built)"
    )
    expect(mirrorStateWords({ ...base, state: 'done', tables: [{ table: 't', folders: 1, foldersTotal: 2, segments: 1, bytes: 1 }] })).toBe('partly built')
    expect([mirrorStateWords({ ...base, state: 'cancelled', atLimit: true }), mirrorStateWords({ ...base, state: 'cancelled' })]).toEqual([
      'stopped at its disk limit',
      'cancelled'
    ])
    expect(mirrorProgressWords({ ...base, progress: { ...progress, secondsLeft: 3 * 3600 + 300 } })).toMatch(/· about 3 h 5 min left$/)
  })
})
