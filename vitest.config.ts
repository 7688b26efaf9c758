import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The demo buckets and the renderer the files share, made once per run.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Integration tests generate real buckets with a real engine: keep them from fighting for 2 cores.
    fileParallelism: false
  }
})
