// The native DuckDB API (@duckdb/node-api), loaded with require. An ESM import of this CommonJS package makes Node
// scan its ~40 files for their export names first: 80 ms of every CLI query's start on 2 cores (issue 23). Types
// come from the package as usual (`import type`); values from here.
import { createRequire } from 'node:module'
import type * as NodeApi from '@duckdb/node-api'

export const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof NodeApi
