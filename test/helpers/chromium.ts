// Debian's Chromium driven by playwright-core (Playwright's own browser download cannot run here). In a test run one
// Chromium serves every file (the global setup launches it; each file connects and gets contexts of its own).
import { type Browser, type LaunchOptions, chromium } from 'playwright-core'
import { sharedChromiumEndpoint } from './run-fixtures'

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'

export const CHROMIUM_OPTIONS: LaunchOptions = {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
}

/**
 * A browser of the caller's own: connected to the run's Chromium when there is one (launching one costs ~2 s of CPU,
 * ~20 times a run), else launched. close() on a connected one closes the contexts it made and disconnects.
 */
export function launchChromium(): Promise<Browser> {
  const endpoint = sharedChromiumEndpoint()
  return endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM_OPTIONS)
}
