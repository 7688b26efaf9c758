// Attack: the web host checks an export's path (no link, inside the export folder), then the export runs; a local
// user who swaps a subfolder for a symbolic link meanwhile made the finished file land outside the export folder.
// Now the move opens the checked folder without following a link, checks its real path, and writes and renames
// through the open folder: a swap at any moment is refused with words and leaves nothing behind, by a rename on
// the same disk and by a copy from another one (the engine's scratch on /dev/shm).
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rename, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { NativeEngine } from '../../src/main/engine/native-engine'
import { checkExportPath } from '../../src/main/export/export-folder'
import { exportQuery } from '../../src/main/export/export-to-file'
import type { MoveStage } from '../../src/main/export/guarded-move'
import type { PushedEvent } from '../../src/main/main-events'
import { Workspace } from '../../src/main/workspace/workspace'
import type { ExportJob } from '../../src/shared/api/views'
import { type Demo, readDemo } from '../helpers/demo'

const SQL = 'SELECT 42 AS answer'
let work: string
let shm: string
let exportDir: string
let outside: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-link-swap-'))
  // Another file system than /tmp: the scratch file is copied, not renamed, into place.
  shm = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'ee-link-swap-'))
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
  await rm(shm, { recursive: true, force: true })
})
beforeEach(async () => {
  await rm(join(work, 'case'), { recursive: true, force: true })
  exportDir = join(work, 'case', 'exports')
  outside = join(work, 'case', 'outside')
  await mkdir(join(exportDir, 'sub'), { recursive: true })
  await mkdir(join(outside, 'in'), { recursive: true })
})

/** Swaps exports/sub for a link to the outside folder (the real folder is kept aside, inside the export folder). */
async function swap(): Promise<void> {
  await rename(join(exportDir, 'sub'), join(exportDir, 'sub-old'))
  await symlink(outside, join(exportDir, 'sub'))
}

/** Every file under a folder (relative names). */
const filesUnder = async (dir: string): Promise<string[]> => (await readdir(dir, { recursive: true })).map(String).sort()

describe.each([
  ['on the same disk (rename)', (): string => join(work, 'engine')],
  ['from another disk (copy)', (): string => join(shm, 'engine')]
])('an export moved into a checked folder %s', (_name, engineDir) => {
  let engine: NativeEngine
  beforeAll(async () => {
    engine = await NativeEngine.open({ workDir: engineDir(), readableRoots: [] })
  })
  afterAll(async () => {
    await engine?.close()
  })

  const run = async (target: string, stage?: MoveStage): Promise<unknown> => {
    const verdict = await checkExportPath(exportDir, target)
    expect(verdict.ok).toBe(true)
    const onStage = async (s: MoveStage): Promise<void> => {
      if (s === stage) await swap()
    }
    return exportQuery(engine, SQL, target, { format: 'csv', guard: { within: exportDir, onStage } })
  }

  it('lands where it was asked, whole, with nothing else left', async () => {
    const target = join(exportDir, 'sub', 'answer.csv')
    await run(target)
    expect(await readFile(target, 'utf8')).toBe('answer\n42\n')
    expect(await filesUnder(exportDir)).toEqual(['sub', 'sub/answer.csv'])
    expect(await readdir(engine.scratchDir)).toEqual([])
  })

  it.each(['before-open', 'opened'] as const)('a folder swapped for a link at %s is refused, and nothing is left anywhere', async (stage) => {
    const target = join(exportDir, 'sub', 'answer.csv')
    await expect(run(target, stage)).rejects.toThrow(/Export refused: .*sub .*after the export path was checked, so nothing was written/)
    expect(await filesUnder(outside)).toEqual(['in'])
    // The real folder (moved aside) holds nothing either: no file, no partial copy.
    expect(await filesUnder(join(exportDir, 'sub-old'))).toEqual([])
    expect(await readdir(engine.scratchDir)).toEqual([])
  })

  it('a plain link already there, as the folder or above it, is refused', async () => {
    await rm(join(exportDir, 'sub'), { recursive: true })
    await symlink(outside, join(exportDir, 'sub'))
    for (const target of [join(exportDir, 'sub', 'answer.csv'), join(exportDir, 'sub', 'in', 'answer.csv')]) {
      // The path policy refuses it first; the move refuses it too (the CLI's own checks aside, it is the last guard).
      expect((await checkExportPath(exportDir, target)).ok).toBe(false)
      await expect(exportQuery(engine, SQL, target, { format: 'csv', guard: { within: exportDir } })).rejects.toThrow(/Export refused/)
    }
    expect(await filesUnder(outside)).toEqual(['in'])
    expect(await readdir(engine.scratchDir)).toEqual([])
  })
})

describe('the web host path (Workspace.exportStart)', () => {
  let demo: Demo
  beforeAll(async () => {
    demo = await readDemo({ days: 8 })
  }, 300_000)
  afterAll(async () => {
    await demo?.cleanup()
  })

  it('refuses a swap between the check and the write, and the job says why', async () => {
    const w = new Workspace({
      dataDir: join(work, 'ws-data'),
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
      autoRefresh: false,
      exportDir,
      exportStage: async (s) => {
        if (s === 'before-open') await swap()
      }
    })
    try {
      const done = new Promise<ExportJob>((resolve) => {
        const off = w.events.on((e: PushedEvent) => {
          const job = e.payload as ExportJob
          if (e.name === 'exportProgress' && job.state !== 'running') {
            off()
            resolve(job)
          }
        })
      })
      const job = await w.exportStart({ sql: SQL, format: 'csv', path: join(exportDir, 'sub', 'answer.csv'), overwrite: false, asOf: null })
      const end = job.state === 'running' ? await done : job
      expect(end.state).toBe('failed')
      expect(end.error).toMatch(/Export refused: .*after the export path was checked/)
      expect(await filesUnder(outside)).toEqual(['in'])
      expect(await filesUnder(join(exportDir, 'sub-old'))).toEqual([])
    } finally {
      await w.dispose()
    }
  })
})
