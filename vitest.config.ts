import { defineConfig } from 'vitest/config'

// Safety nets only (tests wait for events): a first S3 listing in Chromium took 59 s with the load at 14 on 2 cores.
// expect.poll waits for its condition up to a minute (vitest's default, 1 s, failed a mirror panel step under load).
const TIMEOUTS = { testTimeout: 300_000, hookTimeout: 300_000, expect: { poll: { timeout: 60_000 } } }

// Files that time something on the wall clock against a bound (a stall, a cancel, an idle timeout, the event loop's
// delay), that use both cores on purpose, or that change the shared demo bucket in place: they run after the rest, one
// at a time, with the machine to themselves. A file times one case only? That case goes to a small file of its own here.
const ALONE = [
  'test/integration/hangs.test.ts',
  'test/security/hostile-parquet.test.ts',
  'test/integration/engine-cancel.test.ts',
  'test/integration/workspace-alone.test.ts'
]

export default defineConfig({
  test: {
    // The demo buckets and the renderer the files share, made once per run (the root project's, so once in all).
    globalSetup: ['test/global-setup.ts'],
    ...TIMEOUTS,
    // Two files at a time (two worker processes, each running its files one after another): much of a file's time is
    // waiting on servers and Chromium, which the other file's work fills. Servers bind port 0 and files keep their
    // folders under mkdtemp, so files running side by side share nothing.
    projects: [
      // One process per worker for all its unit files (isolate: false), not one per file: the modules load once, which
      // cut test:unit's CPU from ~81 s to ~61 s. The unit files keep no state across files (none mocks or stubs).
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], ...TIMEOUTS, maxWorkers: 2, isolate: false } },
      // The same for the integration files (each loaded the AWS and Google SDKs, DuckDB and Playwright again: ~1.4 s of
      // CPU per file): the suite took 715 s instead of 845 s. They share no state either: every file makes its servers,
      // folders and engines of its own and puts back what it changes of process.env.
      {
        test: { name: 'integration', include: ['test/{integration,security,e2e}/**/*.test.ts'], exclude: ALONE, ...TIMEOUTS, maxWorkers: 2, isolate: false }
      },
      { test: { name: 'alone', include: ALONE, ...TIMEOUTS, maxWorkers: 1, sequence: { groupOrder: 1 } } }
    ]
  }
})
