// The building blocks of answer schemas: main's answers as they must reach the renderer, exactly these fields
// (a field main adds by mistake, an internal one or a secret, fails the check), read-only as the renderer holds them.
import * as v from 'valibot'

/** An object of exactly these fields, read-only. */
export const shape = <E extends v.ObjectEntries>(entries: E) => v.pipe(v.strictObject(entries), v.readonly())

/** An array of these items, read-only. */
export const list = <S extends v.GenericSchema>(item: S) => v.pipe(v.array(item), v.readonly())

/** A UTC ISO instant or an hour, as main writes it (toISOString). */
export const instant = v.pipe(v.string(), v.isoTimestamp())

export const count = v.pipe(v.number(), v.integer(), v.minValue(0))

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** A schema of a type the core defines: it compiles only while its output is exactly that type, so the two never differ. */
export const exactly =
  <T>() =>
  <S extends v.GenericSchema>(schema: S, ..._same: Same<v.InferOutput<S>, T> extends true ? [] : ['the schema differs from the type']): S =>
    schema
