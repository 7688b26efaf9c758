// Renderer entry. The app's screens arrive with the desktop issue; this shows the catalog the core knows.
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'

const root = document.getElementById('root')
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>)
