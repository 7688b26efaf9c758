// Runs a TypeScript worker from source (tests, `npm run cli`): registers tsx in this thread, then loads it.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)
