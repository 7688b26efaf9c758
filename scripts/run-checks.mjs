// `npm test`'s work before the tests, in three lanes at once: the type checks in one; lint, the format check and the
// build (out/, which the tests load) in another; and the prerequisites (Chromium's check, and on a fresh clone the GCS
// emulator's install, about 25 s of download and unpacking) in the third.
// Each command's output is printed whole when it ends, so the lanes never interleave; the first failure is the exit code.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const LANES = [
  [
    ['tsc', '-p', 'tsconfig.json', '--noEmit'],
    ['tsc', '-p', 'tsconfig.shared.json', '--noEmit']
  ],
  [
    ['eslint', '.'],
    ['prettier', '--check', '.'],
    ['electron-vite', 'build']
  ],
  [['node', 'scripts/test-prerequisites.mjs']]
]

/** Runs one command of node_modules/.bin (or a node script), its output gathered; resolves to its exit code. */
function run(argv) {
  const started = Date.now()
  return new Promise((resolve) => {
    const [bin, ...args] = argv
    const child = spawn(bin === 'node' ? process.execPath : join('node_modules', '.bin', bin), args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const out = []
    child.stdout.on('data', (d) => out.push(d))
    child.stderr.on('data', (d) => out.push(d))
    child.on('error', (e) => out.push(Buffer.from(String(e))))
    child.on('close', (code) => {
      const took = ((Date.now() - started) / 1000).toFixed(1)
      process.stdout.write(`\n> ${argv.join(' ')} (${took} s, exit ${code})\n${Buffer.concat(out).toString()}`)
      resolve(code ?? 1)
    })
  })
}

/** A lane's commands one after another; it stops at its first failure. */
async function lane(commands) {
  for (const argv of commands) {
    const code = await run(argv)
    if (code !== 0) return code
  }
  return 0
}

const codes = await Promise.all(LANES.map(lane))
process.exit(codes.find((c) => c !== 0) ?? 0)
