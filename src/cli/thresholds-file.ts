// --thresholds FILE: the volume monitor's thresholds for this bucket (the app saves them per connection), read and
// checked against the same schema as the app's call before anything is listed.
import { readFile } from 'node:fs/promises'
import * as v from 'valibot'
import { MonitorConfigSchema } from '../shared/api/core-values'
import type { MonitorConfig } from '../shared/delivery-monitors'
import { errorMessage } from '../shared/error-message'

/** The file's thresholds, or the sentence saying why they cannot be used. */
export async function readThresholdsFile(path: string): Promise<{ ok: true; config: MonitorConfig } | { ok: false; message: string }> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    return { ok: false, message: `--thresholds ${path} could not be read (${errorMessage(e)})` }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    return { ok: false, message: `--thresholds ${path} is not JSON (${errorMessage(e)})` }
  }
  const r = v.safeParse(MonitorConfigSchema, parsed)
  if (!r.success) {
    const issue = r.issues[0]
    const where = issue?.path?.map((x) => String(x.key)).join('.') ?? ''
    return { ok: false, message: `--thresholds ${path}: ${where ? `${where}: ` : ''}${issue?.message ?? 'not thresholds'}` }
  }
  return { ok: true, config: r.output }
}
