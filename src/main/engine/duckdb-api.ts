// The native DuckDB API (@duckdb/node-api). The build bundles its ~60 CommonJS files into main's chunk
// (electron.vite.config.ts), leaving only the native binding (@duckdb/node-bindings) to Node: resolving and
// compiling them one by one cost every CLI query's start 60-75 ms on 2 cores (issue 23).
import * as NodeApi from '@duckdb/node-api'

export const duckdb = NodeApi
