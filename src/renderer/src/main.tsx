// Renderer entry: the design tokens (one stylesheet of custom properties every CSS module uses), then the app
// once its session is open (in a browser: the web host's; under Electron there is nothing to open).
import './common/tokens.css'
import { StrictMode, useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { NoSession } from './common/no-session'
import { onSessionState, openWebSession, sessionState } from './common/web-session'

function Root(): React.JSX.Element | null {
  const state = useSyncExternalStore(onSessionState, sessionState)
  // Nothing while asking the host (a few milliseconds on loopback): no view calls the API before it answers.
  return state === 'open' ? <App /> : state === 'none' ? <NoSession /> : null
}

const root = document.getElementById('root')
if (root) {
  void openWebSession()
  createRoot(root).render(
    <StrictMode>
      <Root />
    </StrictMode>
  )
}
