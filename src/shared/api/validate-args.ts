// Checks a call's arguments as they arrive from a renderer (never trusted): their size and depth first, a field
// that looks like a secret, then the call's schema; the reason in words when they are refused.
import * as v from 'valibot'
import { schemaReason } from '../connection-config'
import { CALLS, type ApiName, type ArgsOf, isApiName } from './calls'
import { secretLookingField } from './secret-fields'

/** Limits on any call's arguments, checked before their shape: the deepest argument (a connection's auth) is 3
 * levels down, the largest a 1,000,000-character SQL. */
export const ARG_LIMITS = { depth: 8, values: 2000, chars: 1_100_000 } as const

/** Why a value is too deep or too large to be arguments, walking at most ARG_LIMITS.values values. */
function sizeProblem(args: unknown): string | null {
  const stack: [unknown, number][] = [[args, 0]]
  let values = 0
  let chars = 0
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (++values > ARG_LIMITS.values) return `arguments hold more than ${ARG_LIMITS.values} values`
    if (typeof v === 'string') chars += v.length
    if (chars > ARG_LIMITS.chars) return `arguments hold more than ${ARG_LIMITS.chars} characters`
    if (typeof v !== 'object' || v === null) continue
    if (depth >= ARG_LIMITS.depth) return `arguments are nested more than ${ARG_LIMITS.depth} levels deep`
    for (const [k, x] of Object.entries(v)) {
      chars += k.length
      stack.push([x, depth + 1])
    }
  }
  return null
}

/** Checks a call's arguments as they arrive from a renderer (never trusted); returns them or the reason. */
export function validateArgs<N extends ApiName>(name: N, args: unknown): { ok: true; args: ArgsOf<N> } | { ok: false; reason: string } {
  if (!isApiName(name)) return { ok: false, reason: `no call named ${String(name)}` }
  const obj = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null
  if (!obj) return { ok: false, reason: 'arguments must be an object' }
  const tooBig = sizeProblem(obj)
  if (tooBig) return { ok: false, reason: `${name}: ${tooBig}` }
  // Said by name rather than dropped: a secret in a saved connection's fields would be written in plain text.
  const secretField = name === 'connectionSave' || name === 'connectionTest' ? secretLookingField(obj['connection'], '') : null
  if (secretField)
    return {
      ok: false,
      reason: `${name}: connection: the field ${secretField} looks like a secret, and a connection is saved in plain text; a static key's secret goes in secretAccessKey (kept in the secret store)`
    }
  const r = v.safeParse(CALLS[name].args as v.GenericSchema<unknown, ArgsOf<N>>, obj)
  if (r.success) return { ok: true, args: r.output }
  // Where the problem is, unless the words already name the field ("engine must be athena or bigquery").
  const path = r.issues[0]?.path ?? []
  const words = schemaReason(r.issues)
  const where = path.map((p) => String(p.key)).join('.')
  const named = path.length > 0 && words.includes(String(path[path.length - 1]?.key))
  return { ok: false, reason: `${name}: ${where && !named ? `${where}: ` : ''}${words}` }
}
