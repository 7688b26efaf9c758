// Escape closes what is on top: the newest open dialog first, then the hour inspector. Each closable panel
// registers while it is open; one document listener calls the newest registration only.
import { useEffect, useEffectEvent } from 'react'

const open: (() => void)[] = []

function onKey(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.defaultPrevented || open.length === 0) return
  e.preventDefault()
  open[open.length - 1]?.()
}

/** Registers `close` for Escape while `active`; the panel opened last is closed first. */
export function useEscapeToClose(close: () => void, active = true): void {
  const run = useEffectEvent(close)
  useEffect(() => {
    if (!active) return
    const entry = (): void => run()
    if (open.length === 0) document.addEventListener('keydown', onKey)
    open.push(entry)
    return () => {
      open.splice(open.indexOf(entry), 1)
      if (open.length === 0) document.removeEventListener('keydown', onKey)
    }
  }, [active])
}
