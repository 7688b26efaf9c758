import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  main: {
    build: {
      // DuckDB's JavaScript API is bundled (src/main/engine/duckdb-api.ts); its native binding is loaded by Node.
      externalizeDeps: { exclude: ['@duckdb/node-api'] },
      // The CLI is built beside the shell: it shares the services and never loads Electron. Each worker thread is an entry
      // of its own: src/main/workers/worker-thread.ts starts it from out/main/<name>.js.
      rollupOptions: {
        external: ['@duckdb/node-bindings'],
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'export-explorer': resolve(__dirname, 'src/cli/export-explorer.ts'),
          'parquet-footer-worker': resolve(__dirname, 'src/main/store/parquet-footer-worker.ts'),
          'copy-writer-worker': resolve(__dirname, 'src/main/store/copy-writer-worker.ts')
        }
      }
    }
  },
  preload: {
    build: {
      // A sandboxed preload must be CommonJS, and can require nothing but 'electron' (and a few Node built-ins):
      // the contract's schemas (valibot) are bundled into it, or loading it fails and no call reaches main.
      externalizeDeps: { exclude: ['valibot'] },
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    },
    plugins: [react()]
  }
})
