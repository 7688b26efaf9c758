import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Integration tests generate real buckets with a real engine: keep them from fighting for 2 cores.
    fileParallelism: false
  }
})
