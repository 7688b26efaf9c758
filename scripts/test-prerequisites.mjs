// Before `npm test`: installs what the tests need that `npm ci` does not (the GCS emulator, kept out of the app's
// install), and fails loudly, naming the fix, for what it cannot install (Chromium). Nothing is ever skipped for a
// missing prerequisite: a test that cannot run its real server or browser fails.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fail = (what, fix) => {
  process.stderr.write(`\nnpm test cannot run: ${what}\n  ${fix}\n\n`)
  process.exit(1)
}

// Debian's Chromium drives the browser tests (Playwright's own download cannot run offline).
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) fail(`no Chromium at ${chromium}.`, 'Install it: sudo apt-get install chromium (or set CHROMIUM_PATH).')

// The GCS emulator, installed again whenever its lock file changes (a stamp holds the lock file's hash).
const emulator = join(root, 'test', 'gcs-emulator')
const lock = readFileSync(join(emulator, 'package-lock.json'))
const hash = createHash('sha256').update(lock).digest('hex')
const stamp = join(emulator, 'node_modules', '.installed-lock-sha256')
const installed = existsSync(join(emulator, 'node_modules', 'firebase-tools', 'package.json')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash
if (!installed) {
  process.stdout.write('Installing the GCS emulator for the tests (test/gcs-emulator, once)…\n')
  try {
    // Without optional packages: the only one that builds is re2 (for the hosting emulator's rewrites, never started
    // here), whose install falls back to compiling RE2 from source offline: about 2.5 of the install's 3 minutes.
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--omit=optional', '--prefix', emulator], { stdio: 'inherit' })
  } catch {
    fail('the GCS emulator did not install.', `Run: npm ci --prefix test/gcs-emulator, and read its error.`)
  }
  writeFileSync(stamp, hash)
}
