// Each table's deliveries as the volume and schema monitors judge them (src/shared/delivery-monitors.ts): per ready
// folder, its rows (the sum of its files' footers), bytes (the listing's sizes) and columns (its first file's
// footer), from the footers the frame check already read, now or at an earlier refresh. A folder with a file whose
// footer is not known is left out (judged on a part of it, it would look shrunken), never read for this.
import { deliveryInstant } from './delivery-order'
import type { DeliveryFacts } from './delivery-monitors'
import { type Inventory, isReady } from './inventory'

/** What one data file's footer says (rows, and its columns with their Parquet types). */
export interface FooterFacts {
  readonly rows: number
  readonly columns: readonly { readonly name: string; readonly type: string }[]
}

const iso = (t: number): string => new Date(t).toISOString()

export function deliveryFacts(inv: Inventory, footers: ReadonlyMap<string, FooterFacts>, unreadable: ReadonlySet<string> = new Set()): DeliveryFacts[] {
  const out: DeliveryFacts[] = []
  for (const f of inv.folders.values()) {
    const table = f.ref.catalog?.table
    const instant = deliveryInstant(f.ref)
    if (!table || instant === null || !isReady(f) || f.dataFiles.length === 0) continue
    const known = f.dataFiles.filter((o) => unreadable.has(o.key) || footers.has(o.key))
    if (known.length !== f.dataFiles.length) continue
    const facts = f.dataFiles.map((o) => footers.get(o.key)).filter((x): x is FooterFacts => x !== undefined)
    out.push({
      table,
      date: iso(instant).slice(0, 10),
      hour: iso(instant).slice(11, 13),
      instant,
      key: f.ref.prefix,
      rows: facts.reduce((n, x) => n + x.rows, 0),
      bytes: f.dataFiles.reduce((n, o) => n + o.size, 0),
      columns: facts[0]?.columns ?? null,
      files: f.dataFiles.length,
      hasUnreadable: facts.length !== f.dataFiles.length
    })
  }
  return out
}
