import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The demo buckets and the renderer the files share, made once per run.
    globalSetup: ['test/global-setup.ts'],
    // Safety nets only (tests wait for events): a first S3 listing in Chromium took 59 s with the load at 14 on 2 cores.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Integration tests generate real buckets with a real engine: keep them from fighting for 2 cores.
    fileParallelism: false
  }
})
