// Where a value holds a field named like a secret: a connection never does, neither as a renderer sends it (its
// static key's secret travels apart, in secretAccessKey) nor as main answers it.
const SECRET_LOOKING = /secret|password|passwd|token|private.?key|credential/i

/** The path of the first field that looks like a secret (secretRef, the name of one in the store, is not), or null. */
export function secretLookingField(x: unknown, path: string): string | null {
  if (typeof x !== 'object' || x === null) return null
  for (const [k, y] of Object.entries(x)) {
    if (k !== 'secretRef' && SECRET_LOOKING.test(k)) return `${path}${k}`
    const deeper = secretLookingField(y, `${path}${k}.`)
    if (deeper) return deeper
  }
  return null
}
