// Each table's deliveries as the volume and schema monitors judge them (src/shared/delivery-monitors.ts): per ready
// folder, its rows (the sum of its files' footers), bytes (the listing's sizes) and columns (its first file's
// footer), from the footers the frame check already read, now or at an earlier refresh. A folder with a file whose
// footer is not known is left out (judged on a part of it, it would look shrunken), never read for this; where its
// hour's manifest gives its rows, those are its rows (manifestFacts): a full table's earlier copies, whose footers
// the check does not read, are its history.
import { deliveryInstant } from './delivery-order'
import type { DeliveryFacts } from './delivery-monitors'
import { type Folder, type Inventory, isReady } from './inventory'

/** What one data file's footer says (rows, and its columns with their Parquet types). */
export interface FooterFacts {
  readonly rows: number
  readonly columns: readonly { readonly name: string; readonly type: string }[]
  /** A tag of what decides the columns and types DuckDB reads from the file (its whole schema): files with the same one
   * read alike. Absent in answers kept before it was. */
  readonly schemaTag?: string
}

/** Characters of a schema tag (base64url of a SHA-256, cut). */
export const SCHEMA_TAG_LENGTH = 22

/** True for a string of a schema tag's shape (anything else read from disk is not trusted). */
export const isSchemaTag = (v: unknown): v is string => typeof v === 'string' && v.length === SCHEMA_TAG_LENGTH && /^[A-Za-z0-9_-]+$/.test(v)

const iso = (t: number): string => new Date(t).toISOString()

export function deliveryFacts(inv: Inventory, footers: ReadonlyMap<string, FooterFacts>, unreadable: ReadonlySet<string> = new Set()): DeliveryFacts[] {
  const out: DeliveryFacts[] = []
  for (const f of inv.folders.values()) {
    if (!judged(f)) continue
    const known = f.dataFiles.filter((o) => unreadable.has(o.key) || footers.has(o.key))
    if (known.length !== f.dataFiles.length) continue
    const facts = f.dataFiles.map((o) => footers.get(o.key)).filter((x): x is FooterFacts => x !== undefined)
    out.push(
      folderFacts(
        f,
        facts.reduce((n, x) => n + x.rows, 0),
        facts[0]?.columns ?? null,
        facts.length !== f.dataFiles.length
      )
    )
  }
  return out
}

/** The ready folders `deliveryFacts` left out whose manifest gives their rows (by folder prefix): judged on those. */
export function manifestFacts(
  inv: Inventory,
  manifestRows: ReadonlyMap<string, number>,
  have: ReadonlySet<string>,
  unreadable: ReadonlySet<string> = new Set()
): DeliveryFacts[] {
  const out: DeliveryFacts[] = []
  for (const [key, rows] of manifestRows) {
    const f = inv.folders.get(key)
    if (!f || have.has(key) || !judged(f)) continue
    out.push({
      ...folderFacts(
        f,
        rows,
        null,
        f.dataFiles.some((o) => unreadable.has(o.key))
      ),
      manifestRows: rows
    })
  }
  return out
}

/** A ready folder of a catalog table, with data files, at a delivery instant. */
function judged(f: Folder): boolean {
  return Boolean(f.ref.catalog) && deliveryInstant(f.ref) !== null && isReady(f) && f.dataFiles.length > 0
}

function folderFacts(f: Folder, rows: number, columns: DeliveryFacts['columns'], hasUnreadable: boolean): DeliveryFacts {
  const instant = deliveryInstant(f.ref) as number
  return {
    table: f.ref.catalog?.table as string,
    date: iso(instant).slice(0, 10),
    hour: iso(instant).slice(11, 13),
    instant,
    key: f.ref.prefix,
    rows,
    bytes: f.dataFiles.reduce((n, o) => n + o.size, 0),
    columns,
    files: f.dataFiles.length,
    hasUnreadable
  }
}
