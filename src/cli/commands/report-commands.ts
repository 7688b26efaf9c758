// status, timeline and doctor: the delivery rules applied to the refreshed index, no engine needed. doctor's exit
// code is a contract: 0 no open error, 1 open errors, 2 could not check (docs/cli.md).
import { CATALOG } from '../../shared/catalog'
import { copyReadNote } from '../../shared/bucket-views'
import { countText } from '../../shared/counts'
import { resolutionWords } from '../../shared/incidents'
import { latestReady, readyPartsFolders } from '../../shared/inventory'
import { analyzeTimeline, type Finding, type Timeline } from '../../shared/timeline'
import type { DerivedRun } from '../bucket-run'
import { findingInputs } from '../../main/bucket/refresh-pipeline'

function statusCommand(run: DerivedRun): number {
  const { refreshed, request, provider } = run
  const { inventory, unreadable } = refreshed
  const tables = CATALOG.map((t) => {
    // Which copy it reads and why (an unreadable copy passed over, archived files, v1 until v2 is ready): the app's words.
    const { note } = copyReadNote(inventory, t, { unreadable, now: request.now })
    if (t.mode === 'full') {
      const f = latestReady(inventory, t, { unreadable })
      return {
        schema: t.schema,
        table: t.table,
        mode: t.mode,
        latest_ready: f ? { prefix: f.ref.prefix, snapshot_date: f.ref.partition.date, snapshot_hour: f.ref.partition.hour } : null,
        ready_folders: null,
        newest_folder: null,
        note
      }
    }
    const folders = readyPartsFolders(inventory, t)
    const n = folders.at(-1)
    return {
      schema: t.schema,
      table: t.table,
      mode: t.mode,
      latest_ready: null,
      ready_folders: folders.length,
      newest_folder: n ? { prefix: n.ref.prefix, etl_date: n.ref.partition.date, etl_hour: n.ref.partition.hour } : null,
      note
    }
  })
  if (request.flags.json) process.stdout.write(`${JSON.stringify({ version: inventory.version, tables })}\n`)
  else {
    process.stdout.write(`${provider.location}: on ${inventory.version}\n`)
    for (const t of tables) {
      const what =
        t.mode === 'full'
          ? t.latest_ready
            ? `latest ready ${t.latest_ready.snapshot_date}${t.latest_ready.snapshot_hour ? ` ${t.latest_ready.snapshot_hour}:00` : ''}`
            : 'no ready copy'
          : `${t.ready_folders} ready folders, newest ${t.newest_folder ? `${t.newest_folder.etl_date}${t.newest_folder.etl_hour ? ` ${t.newest_folder.etl_hour}:00` : ''}` : '-'}`
      process.stdout.write(`  ${`${t.schema}.${t.table}`.padEnd(64)} ${t.mode.padEnd(5)} ${what}${t.note ? ` (${t.note})` : ''}\n`)
    }
  }
  return refreshed.listingProblems.length > 0 ? 2 : 0
}

function analysis(run: DerivedRun): Timeline {
  const { refreshed, request } = run
  return analyzeTimeline(refreshed.inventory, refreshed.manifests, {
    now: request.now,
    from: request.since,
    to: request.until,
    ...findingInputs(refreshed),
    ...(run.monitors ? { monitors: run.monitors } : {})
  })
}

function timelineCommand(run: DerivedRun): number {
  const tl = analysis(run)
  if (run.request.flags.json) {
    const hours = tl.hours.map((h) => ({ date: h.date, hour: h.hour, manifest: h.manifest, cells: h.cells }))
    process.stdout.write(`${JSON.stringify({ hours })}\n`)
  } else {
    for (const h of tl.hours) {
      const counts = new Map<string, string[]>()
      for (const [table, state] of Object.entries(h.cells)) counts.set(state, [...(counts.get(state) ?? []), table])
      const parts = [...counts].map(([state, tables]) => (tables.length > 3 ? `${state}×${tables.length}` : `${state}: ${tables.join(', ')}`))
      process.stdout.write(`${h.date} ${h.hour}:00 UTC  ${(h.manifest ?? '-').padEnd(10)} ${parts.join('; ')}\n`)
    }
  }
  return run.refreshed.listingProblems.length > 0 ? 2 : 0
}

function doctorCommand(run: DerivedRun): number {
  const { refreshed, request } = run
  const { now, since } = request
  const sinceDate = new Date(since).toISOString().slice(0, 10)
  const tl = analysis(run)
  // What a table leaves out now (archived or unreadable files) is said whatever --since: the table is incomplete today.
  const standing = (f: Finding): boolean => f.resolved === null && (f.kind === 'archived' || f.kind === 'corrupt_file')
  const findings = tl.findings.filter((f: Finding) => f.date === null || f.date === '__initial__' || f.date >= sinceDate || standing(f))
  const open = findings.filter((f) => f.resolved === null)
  const count = (list: readonly Finding[]) => ({
    error: list.filter((f) => f.severity === 'error').length,
    warning: list.filter((f) => f.severity === 'warning').length,
    info: list.filter((f) => f.severity === 'info').length
  })
  const summary = { findings: findings.length, open: count(open), resolved: findings.length - open.length }
  const listing = {
    ok: refreshed.listingProblems.length === 0,
    problems: refreshed.listingProblems.map((p) => ({ prefix: p.prefix, message: p.error.userMessage }))
  }
  if (request.flags.json) {
    const iso = (t: number): string => new Date(t).toISOString()
    process.stdout.write(
      `${JSON.stringify({
        ok: summary.open.error === 0 && listing.ok,
        now: iso(now),
        since: iso(since),
        version: refreshed.inventory.version,
        summary,
        listing,
        findings: findings.map(({ kind, severity, date, hour, table, key, message, resolved }) => ({
          kind,
          severity,
          status: resolved === null ? 'open' : 'resolved',
          resolved: resolved === null ? null : { how: resolved.how, ...('at' in resolved ? { at: iso(resolved.at) } : {}), words: resolutionWords(resolved) },
          date,
          hour,
          table,
          key,
          message
        }))
      })}\n`
    )
  } else {
    for (const f of findings)
      process.stdout.write(
        `${f.severity.toUpperCase().padEnd(7)} ${f.kind.padEnd(22)} ${f.date ?? ''} ${f.hour ? `${f.hour}:00` : ''} ${f.table ?? ''}${f.resolved ? `  (resolved: ${resolutionWords(f.resolved)})` : ''}\n        ${f.message}\n`
      )
    process.stdout.write(
      `${countText(findings.length, 'finding')} since ${sinceDate}: ${countText(summary.open.error, 'open error')}, ${countText(summary.open.warning, 'open warning')}, ${summary.resolved} resolved\n`
    )
  }
  if (!listing.ok) return 2
  return summary.open.error > 0 ? 1 : 0
}

export const REPORT_COMMANDS = { status: statusCommand, timeline: timelineCommand, doctor: doctorCommand } as const
