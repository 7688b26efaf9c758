// Prints vitest's totals as one closing line ("N passed, N failed, N skipped") for CI logs.
import { readFileSync } from 'node:fs'

const r = JSON.parse(readFileSync(new URL('../test-results/vitest.json', import.meta.url), 'utf8'))
console.log(`Tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`)
