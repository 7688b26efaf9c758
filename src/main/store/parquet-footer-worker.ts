// The worker thread that parses Parquet footers (src/main/store/parquet-footer.ts runs it): untrusted bytes are
// parsed here, under the worker's own heap limit and the caller's time limit, never on the main thread.
import { createHash } from 'node:crypto'
import { parentPort } from 'node:worker_threads'
// The footer parser alone (its package's entry loads its readers, decoders and compressors too: ~40 ms more of the
// worker's start, which a new hour's check waits for).
import { parquetMetadata } from 'hyparquet/src/metadata.js'
import { parquetTypeName } from './parquet-type-name'
import { checkThriftBounds } from './thrift-compact-bounds'
import { SCHEMA_TAG_LENGTH } from '../../shared/delivery-facts'
import { errorMessage } from '../../shared/error-message'

/** Footers to parse, each its Thrift bytes followed by the file's last 8 bytes (length and "PAR1"). */
export interface FooterJob {
  readonly id: number
  readonly footers: readonly ArrayBuffer[]
}

/** The job's answers, in its order. */
export interface FooterAnswers {
  readonly id: number
  readonly answers: readonly FooterAnswer[]
}

export type FooterAnswer =
  | {
      readonly ok: true
      readonly rows: number
      readonly rowGroups: number
      readonly columns: readonly { readonly name: string; readonly type: string }[]
      readonly schemaTag: string
    }
  | { readonly ok: false; readonly why: string }

function parse(footer: ArrayBuffer): FooterAnswer {
  const bytes = new Uint8Array(footer)
  // Bounds first: hyparquet allocates per declared element (2^24 empty structs cost it gigabytes).
  const fields = new Map<number, readonly [number, number]>()
  const refused = checkThriftBounds(bytes.subarray(0, bytes.length - 8), undefined, fields)
  if (refused) return { ok: false, why: `its footer is not sound: ${refused}` }
  try {
    const meta = parquetMetadata(bytes, { geoparquet: false })
    const root = meta.schema[0]
    const columns: { name: string; type: string }[] = []
    // The root's direct children are the columns; each group's children follow it depth first.
    let at = 1
    const skip = (i: number): number => {
      let next = i + 1
      for (let k = 0; k < (meta.schema[i]?.num_children ?? 0) && next < meta.schema.length; k++) next = skip(next)
      return next
    }
    for (let k = 0; k < (root?.num_children ?? 0) && at < meta.schema.length; k++) {
      const e = meta.schema[at]
      if (e) columns.push({ name: e.name, type: parquetTypeName(e) })
      at = skip(at)
    }
    return { ok: true, rows: Number(meta.num_rows), rowGroups: meta.row_groups.length, columns, schemaTag: schemaTag(bytes, fields.get(SCHEMA_FIELD), meta) }
  } catch (e) {
    return { ok: false, why: `its footer cannot be parsed (${errorMessage(e)})` }
  }
}

/** FileMetaData's field holding the schema (Parquet's Thrift definition). */
const SCHEMA_FIELD = 2
/** Metadata keys whose values decide the types DuckDB reads (Arrow's own schema, GeoParquet's): hashed with the schema. */
const TYPING_METADATA = new Set(['ARROW:schema', 'geo'])

/**
 * A tag of everything in a footer that decides the columns and types DuckDB reads from the file: the schema's own bytes
 * (names, physical and logical types, repetition, nesting: the same bytes read the same in any reader, which a tag of
 * one parser's decoding would not promise of a hostile file) and the typing metadata. Files with the same tag read
 * alike, so the mirror's build reads them together without binding each file's schema (mirror-sql.ts).
 */
function schemaTag(footer: Uint8Array, schema: readonly [number, number] | undefined, meta: ReturnType<typeof parquetMetadata>): string {
  const hash = createHash('sha256')
  if (schema) hash.update(footer.subarray(schema[0], schema[1]))
  // (Other metadata, a writer's notes, decides no type: files that differ only there still read alike.)
  const metadata = (meta.key_value_metadata ?? []).filter((kv) => TYPING_METADATA.has(kv.key)).map((kv) => [kv.key, kv.value ?? null])
  return hash.update(JSON.stringify(metadata)).digest('base64url').slice(0, SCHEMA_TAG_LENGTH)
}

parentPort?.on('message', (job: FooterJob) => parentPort?.postMessage({ id: job.id, answers: job.footers.map(parse) } satisfies FooterAnswers))
// Loaded (hyparquet included): the caller's time limit starts with the first job, not with this module's loading.
parentPort?.postMessage({ ready: true })
