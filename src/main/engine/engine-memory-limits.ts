// How much memory and temp disk each of main's DuckDB instances may use. DuckDB's own default is 80 % of RAM,
// which a desktop app shares with everything else; past the limit DuckDB spills to the engine's temp folder.
import { totalmem } from 'node:os'

export interface EngineMemoryLimits {
  /** DuckDB's memory_limit. */
  readonly memoryBytes: number
  /** DuckDB's max_temp_directory_size: what spilling may take on disk. */
  readonly tempBytes: number
}

const GIB = 2 ** 30

/**
 * min(2 GiB, 25 % of RAM), or EXPORT_EXPLORER_MEMORY_LIMIT_MB when set to a whole number of MiB (at least 64);
 * spilling may take 8 times that on disk.
 */
export function engineMemoryLimits(env: NodeJS.ProcessEnv = process.env, ram: number = totalmem()): EngineMemoryLimits {
  const asked = Number(env.EXPORT_EXPLORER_MEMORY_LIMIT_MB)
  const memoryBytes = Number.isInteger(asked) && asked >= 64 ? asked * 2 ** 20 : Math.floor(Math.min(2 * GIB, ram / 4))
  return { memoryBytes, tempBytes: 8 * memoryBytes }
}
