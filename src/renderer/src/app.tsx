// The app's frame: the open connection, refresh with progress and cancel, the three views (deliveries,
// tables, SQL; each stays mounted once opened), the connection manager, and the menu's commands.
import { useEffect } from 'react'
import { APP_NAME } from '../../shared/app-info'
import type { MenuCommand } from '../../shared/menu-commands'
import { ExportDialog } from './common/export-dialog'
import { shortcutCommand } from './common/menu-shortcuts'
import { wallClock } from './common/time'
import { ConnectionManager } from './connections/connection-manager'
import { DeliveriesView } from './deliveries/deliveries-view'
import { SqlPane } from './sql/sql-pane'
import { appStore, useApp } from './store/use-app-store'
import { TableBrowser } from './tables/table-browser'

const btn: React.CSSProperties = { fontSize: 13, padding: '3px 10px' }

const TABS = [
  ['deliveries', 'Deliveries'],
  ['tables', 'Tables'],
  ['sql', 'SQL']
] as const

function runMenuCommand(c: MenuCommand): void {
  const s = appStore.getState()
  if (c === 'refresh') void s.refresh(false)
  else if (c === 'connections') s.setManagerOpen(true)
  else if (c === 'findings') document.querySelector('[data-testid=findings]')?.scrollIntoView()
  else if (c === 'zoom-in' || c === 'zoom-out') s.zoom(c === 'zoom-in' ? 1 : -1)
}

export function App(): React.JSX.Element {
  const connections = useApp((s) => s.connections)
  const managerOpen = useApp((s) => s.managerOpen)
  const status = useApp((s) => s.refreshStatus)
  const error = useApp((s) => s.error)
  const tab = useApp((s) => s.tab)
  const visited = useApp((s) => s.visited)
  const overview = useApp((s) => s.overview)
  const { openConnection, setManagerOpen, refresh, cancelRefresh, show, fail } = appStore.getState()

  useEffect(() => {
    void appStore.getState().loadConnections()
    return appStore.getState().followRefresh()
  }, [])

  // Menu commands from the Electron shell; in a browser, which has no such menu, its shortcuts.
  useEffect(() => {
    const bridge = window.exportExplorer as unknown as { onMenu?: (l: (c: MenuCommand) => void) => void } | undefined
    if (bridge?.onMenu) {
      bridge.onMenu(runMenuCommand)
      return
    }
    const onKey = (e: KeyboardEvent): void => {
      const c = shortcutCommand(e)
      if (!c) return
      e.preventDefault()
      runMenuCommand(c)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const p = status?.progress
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 16, color: '#1f2328', maxWidth: 1800 }}>
      <header style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <h1 style={{ fontSize: 20, margin: 0 }}>{APP_NAME}</h1>
        <label style={{ fontSize: 13 }}>
          Connection{' '}
          <select aria-label="connection" value={connections?.active ?? ''} onChange={(e) => void openConnection(e.target.value).catch(fail)}>
            {connections?.active ? null : <option value="">{error ? '(none open)' : '(opening…)'}</option>}
            {connections?.connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <button style={btn} onClick={() => setManagerOpen(true)}>
          Connections…
        </button>
        <span style={{ flex: 1 }} />
        {status?.running ? (
          <>
            <span data-testid="refresh-progress" style={{ fontSize: 13 }}>
              Refreshing… {p ? `${p.prefixesDone}/${p.prefixesTotal} folders listed, ${p.objects.toLocaleString()} objects` : 'starting'}
            </span>
            <progress max={p?.prefixesTotal || 1} value={p?.prefixesDone ?? 0} style={{ width: 120 }} />
            <button style={btn} onClick={() => void cancelRefresh()}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <span data-testid="refresh-status" style={{ fontSize: 12, color: status?.lastError ? '#b3261e' : '#555' }}>
              {status?.lastError ?? (status?.lastRefreshed ? `Refreshed ${wallClock(Date.parse(status.lastRefreshed), 'local').slice(11)} local` : '')}
              {status?.nextAuto ? ` · next automatic refresh ${wallClock(Date.parse(status.nextAuto), 'local').slice(11)}` : ''}
            </span>
            <button style={btn} onClick={() => void refresh(false)} title="List what changed since the last refresh">
              Refresh
            </button>
            <button style={btn} onClick={() => void refresh(true)} title="Forget the saved listing and list the whole bucket again (slower; use it when something looks missing)">
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
        {TABS.map(([id, label]) => (
          <button key={id} role="tab" aria-selected={tab === id} onClick={() => show(id)} style={{ border: 'none', borderBottom: tab === id ? '3px solid #2e6fd1' : '3px solid transparent', background: 'none', padding: '6px 14px', fontSize: 14, fontWeight: tab === id ? 700 : 400, cursor: 'pointer' }}>
            {label}
          </button>
        ))}
      </nav>
      {visited.tables && overview ? (
        <div style={{ display: tab === 'tables' ? 'block' : 'none' }}>
          <TableBrowser overview={overview} />
        </div>
      ) : null}
      {visited.sql && overview ? (
        <div style={{ display: tab === 'sql' ? 'block' : 'none', marginTop: 12 }}>
          <SqlPane />
        </div>
      ) : null}
      <div style={{ display: tab === 'deliveries' ? 'block' : 'none' }}>
        <DeliveriesView />
      </div>
      {managerOpen && connections ? <ConnectionManager view={connections} /> : null}
      <ExportDialog />
    </main>
  )
}
