// One lock per file for read-modify-write (load, change, save): the callers of one path run one after another in
// this process, so no change is lost between a load and a save. Hand-written: a promise chain per path is a
// dozen lines, and the mutex libraries on npm are not keyed by name.
import { resolve } from 'node:path'

const tails = new Map<string, Promise<void>>()

/** Runs `fn` once every earlier holder of this path's lock has finished (successfully or not). */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const key = resolve(path)
  const previous = tails.get(key) ?? Promise.resolve()
  let release = (): void => {}
  const mine = new Promise<void>((r) => (release = r))
  const tail = previous.then(() => mine)
  tails.set(key, tail)
  await previous
  try {
    return await fn()
  } finally {
    release()
    if (tails.get(key) === tail) tails.delete(key)
  }
}
