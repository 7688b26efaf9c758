// `watch --export-dir DIR --table T`: at each check, one file per delivery hour new since the watch's cursor,
// DIR/<table>/<date>T<hour>.<csv|parquet> (a late folder of an hour already written: -2, -3, …), written by the
// incremental export (whole or not at all, then the cursor moved), and told to the watch's targets (file, rows). A
// watch's first check starts at the newest hour: the history before it is marked as had (export --table T gives it),
// never written as a file per hour.
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { type CatalogTable, qualifiedName } from '../../shared/catalog'
import { utcHour } from '../../shared/incidents'
import { countText } from '../../shared/counts'
import { deliveryInstant } from '../../shared/delivery-order'
import { errorMessage } from '../../shared/error-message'
import type { ExportFormat } from '../../shared/export-format'
import { exportPayload } from '../../shared/follow/export-payload'
import { cursorAfter, foldersByHour, hourFileStem, incrementalPlan, incrementalWords } from '../../shared/incremental-export'
import type { Folder } from '../../shared/inventory'
import type { RefreshedBucket } from '../../main/bucket/refresh-pipeline'
import { exportSinceLast } from '../../main/export/incremental-export'
import type { DerivedRun } from '../bucket-run'
import { cursorFile } from '../export-cursor'
import { engineOpener, placeProblem, supersedeWords } from './engine-commands'
import type { WatchHooks } from './watch-command'

interface WatchExport {
  readonly dir: string
  readonly table: CatalogTable
  readonly format: ExportFormat
}

const stamp = (t: number | null): string => (t === null ? 'etl_date=__initial__' : utcHour(t))

/** `<stem>.<ext>`, or `<stem>-2.<ext>`, `-3`, … when taken: a folder of an hour already written that lands late (or an
 * hour written again after a lost cursor) gets a file of its own, and no file is replaced. */
function freeName(folder: string, stem: string, ext: string): string {
  for (let n = 1; ; n++) {
    const path = join(folder, `${stem}${n === 1 ? '' : `-${n}`}.${ext}`)
    if (!existsSync(path)) return path
  }
}

export function watchExportHooks(run: DerivedRun, spec: WatchExport): WatchHooks {
  const t = spec.table
  const dir = resolve(spec.dir)
  // One cursor per watch: its bucket, table, folder and format.
  const name = `watch|${t.schema}.${t.table}|${dir}|${spec.format}`
  const file = cursorFile(run.id, name, `watch-${t.table}`)
  const label = `watch ${t.table} into ${dir}`
  let noticesSaid = 0
  return {
    async onCheck(refreshed, now, tell, signal) {
      const opts = { now, unreadable: new Set(refreshed.unreadable) }
      const read = await file.read()
      for (const p of read.problems.slice(noticesSaid)) process.stderr.write(`export-explorer: cursor file ${file.path}: ${p}\n`)
      noticesSaid = read.problems.length
      if (read.value === null) await startAtNewestHour(refreshed, now)
      const plan = incrementalPlan(refreshed.inventory, t, (await file.read()).value, opts)
      const hours =
        plan.mode === 'parts'
          ? foldersByHour(plan.fresh)
          : plan.copy
            ? [{ hour: deliveryInstant(plan.copy.ref), folders: [plan.copy] as readonly Folder[] }]
            : []
      if (hours.length === 0) return
      await mkdir(join(dir, t.table), { recursive: true })
      const open = await engineOpener(run, refreshed, [t], { laterAt: now })
      for (const h of hours) {
        if (signal.aborted) return
        const target = freeName(join(dir, t.table), hourFileStem(h.hour), spec.format)
        try {
          const r = await exportSinceLast({
            table: t,
            where: null,
            inventory: refreshed.inventory,
            unreadable: opts.unreadable,
            now,
            target,
            format: spec.format,
            cursor: file,
            cursorName: label,
            only: () => h.folders,
            open,
            signal
          })
          for (const p of r.notices) process.stderr.write(`export-explorer: cursor file ${file.path}: ${p}\n`)
          const words = incrementalWords(r.plan, label)
          process.stderr.write(`exported ${stamp(h.hour)}: ${countText(r.rows, 'row')} to ${target}${supersedeWords(r.superseding)}\n`)
          await tell(
            exportPayload(
              { file: target, rows: r.rows, table: qualifiedName(t), format: spec.format, hour: h.hour, superseding: r.superseding, words },
              run.provider.location
            )
          )
        } catch (e) {
          if (signal.aborted) return
          const why = placeProblem(e, target) ?? errorMessage(e)
          process.stderr.write(
            `export-explorer: could not export ${t.table} for ${stamp(h.hour)} to ${target}: ${why}; its cursor was not moved, so the next check tries again\n`
          )
          return
        }
      }
    }
  }

  /** A new watch: every ready folder before the newest delivery hour counts as had (a full table: none). */
  async function startAtNewestHour(refreshed: RefreshedBucket, now: number): Promise<void> {
    const plan = incrementalPlan(refreshed.inventory, t, null, { now, unreadable: new Set(refreshed.unreadable) })
    if (plan.mode !== 'parts') return
    const groups = foldersByHour(plan.fresh)
    const newest = groups.at(-1)
    const before = groups.slice(0, -1).flatMap((g) => g.folders)
    await file.update(() => cursorAfter(null, { ...plan, fresh: before }, t, null, now))
    if (newest)
      process.stderr.write(
        `export-explorer: a new watch of ${t.table} starts at its newest delivery hour, ${stamp(newest.hour)}; ${countText(before.length, 'earlier folder')} are not written per hour (export --table ${t.table} gives them)\n`
      )
  }
}
