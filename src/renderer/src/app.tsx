// The app's first screen: the open connection (the demo bucket on first run), refresh with progress and
// cancel, the overview, the delivery timeline, the findings list (jumps to the hour) and the hour inspector.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ConnectionsView, HourDetail, Overview, RefreshStatus, TimelineView } from '../../shared/api-contract'
import { APP_NAME } from '../../shared/app-info'
import type { MenuCommand } from '../../shared/menu-commands'
import { isStale } from '../../shared/schedule'
import { type Finding, type Severity, findingHour } from '../../shared/timeline'
import { call } from './api'
import { ConnectionManager } from './connections'
import { HourInspector } from './hour-inspector'
import { SqlPane } from './sql-pane'
import { TableBrowser } from './table-browser'
import { type AxisZone, ZONE_LABEL, age, wallClock } from './time'
import { type Focus, Legend, TimelineHeatmap } from './timeline-heatmap'

const SEVERITY_COLOR: Record<Severity, string> = { error: '#b3261e', warning: '#9a6700', info: '#555' }
const RANGES = [
  [48, '2 days'],
  [7 * 24, '7 days'],
  [30 * 24, '30 days'],
  [91 * 24, '3 months'],
  [366 * 24, '1 year']
] as const

const btn: React.CSSProperties = { fontSize: 13, padding: '3px 10px' }

export function App(): React.JSX.Element {
  const [connections, setConnections] = useState<ConnectionsView | null>(null)
  const [showConnections, setShowConnections] = useState(false)
  const [overview, setOverview] = useState<Overview | null>(null)
  const [timeline, setTimeline] = useState<TimelineView | null>(null)
  const [hours, setHours] = useState(7 * 24)
  const [zone, setZone] = useState<AxisZone>('utc')
  const [error, setError] = useState<string | null>(null)
  const [hour, setHour] = useState<HourDetail | null>(null)
  // The focused cell by its hour, not its column: a refresh or another range moves the columns, not the focus.
  const [focused, setFocused] = useState<{ start: string; table: number } | null>(null)
  const [status, setStatus] = useState<RefreshStatus | null>(null)
  const [severities, setSeverities] = useState<Record<Severity, boolean>>({ error: true, warning: true, info: false })
  const [tab, setTab] = useState<'deliveries' | 'tables' | 'sql'>('deliveries')
  const [visited, setVisited] = useState<Record<string, boolean>>({ deliveries: true })
  const [asOf, setAsOf] = useState<string | null>(null)
  const [sqlToOpen, setSqlToOpen] = useState<string | null>(null)
  const show = (t: 'deliveries' | 'tables' | 'sql'): void => {
    setTab(t)
    setVisited((v) => ({ ...v, [t]: true }))
  }
  const [zoomCommand, setZoomCommand] = useState<{ n: number; dir: 1 | -1 }>({ n: 0, dir: 1 })
  const pendingJump = useRef<Finding | null>(null)
  const findingsRef = useRef<HTMLElement | null>(null)
  const generation = useRef(-1)

  const fail = (e: Error): void => setError(e.message)
  const inspect = useCallback((start: string): void => {
    if (start) call('hour', { start }).then(setHour, fail)
  }, [])

  const reload = useCallback(() => {
    setError(null)
    call('overview', {}).then((o) => {
      setOverview(o)
      call('connections', {}).then(setConnections, fail)
    }, fail)
    call('timeline', { fromHours: hours }).then(setTimeline, fail)
  }, [hours])

  useEffect(() => {
    call('connections', {}).then(setConnections, fail)
  }, [])
  useEffect(() => {
    call('timeline', { fromHours: hours }).then(setTimeline, fail)
  }, [hours])

  // Refresh status: polled while a refresh runs, every half minute otherwise (an automatic refresh may start).
  useEffect(() => {
    let stop = false
    let timer: ReturnType<typeof setTimeout>
    const poll = (): void => {
      call('refreshStatus', {}).then(
        (s) => {
          if (stop) return
          setStatus(s)
          if (s.generation !== generation.current && !s.running) {
            generation.current = s.generation
            reload()
          }
          timer = setTimeout(poll, s.running ? 300 : 30_000)
        },
        () => {
          if (!stop) timer = setTimeout(poll, 5_000)
        }
      )
    }
    poll()
    return () => {
      stop = true
      clearTimeout(timer)
    }
  }, [reload, status?.running])

  const refresh = (full: boolean): void => {
    call('refresh', { full }).then(setStatus, fail)
  }

  // Jump from a finding: widen the range if the hour is older than it, focus the cell, open the inspector.
  const jump = useCallback(
    (f: Finding) => {
      const t = findingHour(f)
      if (t === null || !timeline) return
      const idx = timeline.hours.findIndex((h) => Date.parse(h.start) === t)
      if (idx < 0) {
        const needed = RANGES.find(([h]) => Date.parse(overview?.now ?? '') - t < h * 3_600_000)
        if (needed && needed[0] !== hours) {
          pendingJump.current = f
          setHours(needed[0])
        }
        return
      }
      const table = Math.max(0, timeline.tables.findIndex((x) => x.table === f.table))
      setFocused({ start: timeline.hours[idx]?.start ?? '', table })
      inspect(timeline.hours[idx]?.start ?? '')
    },
    [timeline, overview, hours, inspect]
  )
  // A jump waiting for a wider range runs once the timeline holds its hour.
  useEffect(() => {
    const f = pendingJump.current
    const t = f ? findingHour(f) : null
    if (f && timeline && timeline.hours.some((h) => Date.parse(h.start) === t)) {
      pendingJump.current = null
      jump(f)
    }
  }, [timeline, jump])

  // Menu commands from the Electron shell.
  useEffect(() => {
    const bridge = window.exportExplorer as unknown as { onMenu?: (l: (c: MenuCommand) => void) => void } | undefined
    bridge?.onMenu?.((c) => {
      if (c === 'refresh') refresh(false)
      else if (c === 'connections') setShowConnections(true)
      else if (c === 'findings') findingsRef.current?.scrollIntoView()
      else if (c === 'zoom-in' || c === 'zoom-out') setZoomCommand((z) => ({ n: z.n + 1, dir: c === 'zoom-in' ? 1 : -1 }))
    })
  }, [])

  const focus = useMemo<Focus | null>(() => {
    if (!focused || !timeline) return null
    const hour = timeline.hours.findIndex((h) => h.start === focused.start)
    return hour < 0 ? null : { hour, table: focused.table }
  }, [focused, timeline])
  const shownFindings = useMemo(() => (timeline?.findings ?? []).filter((f) => severities[f.severity]), [timeline, severities])
  const now = overview ? Date.parse(overview.now) : Date.now()
  const active = connections?.connections.find((c) => c.id === connections.active)
  const p = status?.progress

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 16, color: '#1f2328', maxWidth: 1800 }}>
      <header style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <h1 style={{ fontSize: 20, margin: 0 }}>{APP_NAME}</h1>
        <label style={{ fontSize: 13 }}>
          Connection{' '}
          <select
            aria-label="connection"
            value={connections?.active ?? ''}
            onChange={(e) =>
              call('connectionOpen', { id: e.target.value }).then((v) => {
                setConnections(v)
                setHour(null)
                setFocused(null)
              }, fail)
            }
          >
            {connections?.active ? null : <option value="">{error ? '(none open)' : '(opening…)'}</option>}
            {connections?.connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <button style={btn} onClick={() => setShowConnections(true)}>
          Connections…
        </button>
        <span style={{ flex: 1 }} />
        {status?.running ? (
          <>
            <span data-testid="refresh-progress" style={{ fontSize: 13 }}>
              Refreshing… {p ? `${p.prefixesDone}/${p.prefixesTotal} folders listed, ${p.objects.toLocaleString()} objects` : 'starting'}
            </span>
            <progress max={p?.prefixesTotal || 1} value={p?.prefixesDone ?? 0} style={{ width: 120 }} />
            <button style={btn} onClick={() => call('refreshCancel', {}).then(setStatus, fail)}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <span data-testid="refresh-status" style={{ fontSize: 12, color: status?.lastError ? '#b3261e' : '#555' }}>
              {status?.lastError ?? (status?.lastRefreshed ? `Refreshed ${wallClock(Date.parse(status.lastRefreshed), 'local').slice(11)} local` : '')}
              {status?.nextAuto ? ` · next automatic refresh ${wallClock(Date.parse(status.nextAuto), 'local').slice(11)}` : ''}
            </span>
            <button style={btn} onClick={() => refresh(false)} title="List what changed since the last refresh">
              Refresh
            </button>
            <button style={btn} onClick={() => refresh(true)} title="Forget the saved listing and list the whole bucket again (slower; use it when something looks missing)">
              Full refresh
            </button>
          </>
        )}
      </header>
      {error ? (
        <p role="alert" style={{ color: '#b3261e', background: '#fdecea', padding: 8, borderRadius: 4 }}>
          {error}
        </p>
      ) : null}
      <nav role="tablist" aria-label="views" style={{ display: 'flex', gap: 4, marginTop: 10, borderBottom: '1px solid #dde1e6' }}>
        {(
          [
            ['deliveries', 'Deliveries'],
            ['tables', 'Tables'],
            ['sql', 'SQL']
          ] as const
        ).map(([id, label]) => (
          <button key={id} role="tab" aria-selected={tab === id} onClick={() => show(id)} style={{ border: 'none', borderBottom: tab === id ? '3px solid #2e6fd1' : '3px solid transparent', background: 'none', padding: '6px 14px', fontSize: 14, fontWeight: tab === id ? 700 : 400, cursor: 'pointer' }}>
            {label}
          </button>
        ))}
      </nav>
      {visited['tables'] && overview ? (
        <div style={{ display: tab === 'tables' ? 'block' : 'none' }}>
          <TableBrowser
            overview={overview}
            asOf={asOf}
            onOpenSql={(sql) => {
              setSqlToOpen(sql)
              show('sql')
            }}
          />
        </div>
      ) : null}
      {visited['sql'] && overview ? (
        <div style={{ display: tab === 'sql' ? 'block' : 'none', marginTop: 12 }}>
          <SqlPane initialSql={sqlToOpen} asOf={asOf} onAsOf={setAsOf} />
        </div>
      ) : null}
      <div style={{ display: tab === 'deliveries' ? 'block' : 'none' }}>
      {overview ? <OverviewPanel overview={overview} now={now} location={active?.location ?? overview.location} /> : error ? null : <p>Reading the bucket…</p>}
      <section style={{ marginTop: 12 }}>
        <div style={{ display: 'flex', gap: 16, alignItems: 'center', fontSize: 13, flexWrap: 'wrap' }}>
          <h2 style={{ fontSize: 16, margin: 0 }}>Delivery timeline</h2>
          <label>
            Show the last{' '}
            <select value={hours} onChange={(e) => setHours(Number(e.target.value))} aria-label="hours shown">
              {RANGES.map(([h, label]) => (
                <option key={h} value={h}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Axis in{' '}
            <select value={zone} onChange={(e) => setZone(e.target.value as AxisZone)} aria-label="axis time zone">
              {(Object.keys(ZONE_LABEL) as AxisZone[]).map((z) => (
                <option key={z} value={z}>
                  {ZONE_LABEL[z]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <Legend />
        {timeline ? (
          <TimelineHeatmap
            view={timeline}
            zone={zone}
            focus={focus}
            onFocus={(f) => setFocused({ start: timeline.hours[f.hour]?.start ?? '', table: f.table })}
            onSelect={inspect}
            zoomCommand={zoomCommand}
          />
        ) : error ? null : (
          <p>Reading the bucket…</p>
        )}
      </section>
      {hour ? <HourInspector detail={hour} onClose={() => setHour(null)} /> : null}
      {timeline ? (
        <section ref={findingsRef} style={{ marginTop: 16 }}>
          <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
            <h2 style={{ fontSize: 16, margin: 0 }}>Findings ({shownFindings.length} of {timeline.findings.length})</h2>
            {(['error', 'warning', 'info'] as const).map((s) => (
              <label key={s} style={{ fontSize: 13, color: SEVERITY_COLOR[s] }}>
                <input type="checkbox" checked={severities[s]} onChange={(e) => setSeverities({ ...severities, [s]: e.target.checked })} /> {s}
              </label>
            ))}
          </div>
          <ul data-testid="findings" style={{ fontSize: 13, paddingLeft: 0, listStyle: 'none' }}>
            {shownFindings.map((f, i) => (
              <li key={i} data-kind={f.kind} style={{ marginBottom: 4 }}>
                <button
                  onClick={() => jump(f)}
                  disabled={findingHour(f) === null}
                  style={{ all: 'unset', cursor: findingHour(f) === null ? 'default' : 'pointer', display: 'block' }}
                  title={findingHour(f) === null ? f.key : 'Show this hour'}
                >
                  <b style={{ color: SEVERITY_COLOR[f.severity] }}>{f.kind.replace(/_/g, ' ')}</b> {f.date ?? ''} {f.hour ? `${f.hour}:00 UTC` : ''} {f.table ?? ''} — {f.message}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      </div>
      {showConnections && connections ? (
        <ConnectionManager
          view={connections}
          onClose={() => setShowConnections(false)}
          onChanged={(v, opened) => {
            setConnections(v)
            if (opened) {
              setShowConnections(false)
              setHour(null)
              setFocused(null)
              setOverview(null)
              setTimeline(null)
              generation.current = -1
              setStatus((s) => (s ? { ...s, running: true } : s))
            }
          }}
        />
      ) : null}
    </main>
  )
}

function OverviewPanel({ overview, now, location }: { overview: Overview; now: number; location: string }): React.JSX.Element {
  return (
    <section data-testid="overview" style={{ marginTop: 12, display: 'grid', gridTemplateColumns: 'minmax(260px, 320px) 1fr', gap: 16 }}>
      <div style={{ fontSize: 13, lineHeight: 1.7 }}>
        <div style={{ color: '#555', wordBreak: 'break-all' }}>{location}</div>
        <div>
          Bucket on{' '}
          <b data-testid="version" style={{ padding: '1px 6px', borderRadius: 4, background: overview.switching ? '#f3e3c3' : overview.version === 'v2' ? '#d6efdf' : '#dbe4f0' }}>
            {overview.switching ? 'v1 → v2 switch in progress' : overview.version}
          </b>
        </div>
        <div>As of {overview.now.slice(0, 16).replace('T', ' ')} UTC</div>
        <div>
          Last complete hour: <b>{overview.lastCompleteHour ? `${overview.lastCompleteHour.slice(0, 13).replace('T', ' ')}:00 UTC` : 'none'}</b>
          {overview.lastCompleteHour ? ` (${age(Date.parse(overview.lastCompleteHour), now)} ago)` : ''}
        </div>
        <div>
          Findings:{' '}
          {(['error', 'warning', 'info'] as const).map((s) => (
            <span key={s} data-severity={s} style={{ color: SEVERITY_COLOR[s], marginRight: 8, fontWeight: 600 }}>
              {overview.findings[s]} {s}
              {overview.findings[s] === 1 ? '' : 's'}
            </span>
          ))}
        </div>
        {overview.problems.map((p) => (
          <div key={p} role="alert" style={{ color: '#b3261e' }}>
            {p}
          </div>
        ))}
      </div>
      <table data-testid="latest-copies" style={{ fontSize: 12, borderCollapse: 'collapse', alignSelf: 'start' }}>
        <thead>
          <tr style={{ textAlign: 'left', color: '#555' }}>
            <th style={{ padding: '2px 8px' }}>table</th>
            <th style={{ padding: '2px 8px' }}>mode</th>
            <th style={{ padding: '2px 8px' }}>latest ready copy / newest folder</th>
            <th style={{ padding: '2px 8px' }}>age</th>
          </tr>
        </thead>
        <tbody style={{ columns: 2 }}>
          {overview.tables.map((t) => {
            const stale = t.newest !== null && isStale(overview.version, Date.parse(t.newest), now)
            return (
              <tr key={`${t.schema}.${t.table}`} data-latest={t.table} style={{ borderTop: '1px solid #eef0f3' }}>
                <td style={{ padding: '1px 8px' }}>
                  <span style={{ color: '#777' }}>{t.schema}.</span>
                  {t.table}
                </td>
                <td style={{ padding: '1px 8px', color: '#555' }}>{t.mode === 'full' ? 'full copy' : 'parts'}</td>
                <td style={{ padding: '1px 8px' }} title={t.newestPrefix ?? ''}>
                  {t.newest ? `${t.newest.slice(0, 13).replace('T', ' ')}:00 UTC` : 'none ready'}
                </td>
                <td style={{ padding: '1px 8px', color: stale ? '#9a6700' : '#555' }}>{t.newest ? age(Date.parse(t.newest), now) : '—'}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}
