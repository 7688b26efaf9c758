// What a restore of archived S3 objects costs, as the provider publishes it: one table of per-tier retrieval prices
// (per GB and per 1,000 requests), and the estimate a user reads before starting. GCS has no restore step.
import { countText, formatBytes } from './counts'
import type { RestoreTier } from './restore-plan'

/** One tier's published price: dollars per GB retrieved and per 1,000 restore requests (one request a file). */
export interface TierPrice {
  readonly perGb: number
  readonly per1000Requests: number
}

/**
 * Amazon S3 list prices for retrievals in us-east-1 (US East, N. Virginia), read 2026-12-02 from
 * https://aws.amazon.com/s3/pricing/ ("Requests & data retrievals"). Other regions differ; AWS changes them
 * rarely. Deep Archive has no Expedited tier (absent here).
 */
export const RESTORE_PRICES = {
  source: 'AWS S3 list prices, us-east-1, read 2026-12-02',
  classes: {
    GLACIER: {
      Expedited: { perGb: 0.03, per1000Requests: 10 },
      Standard: { perGb: 0.01, per1000Requests: 0.05 },
      Bulk: { perGb: 0, per1000Requests: 0.025 }
    },
    DEEP_ARCHIVE: {
      Standard: { perGb: 0.02, per1000Requests: 0.1 },
      Bulk: { perGb: 0.0025, per1000Requests: 0.025 }
    }
  } as Readonly<Record<string, Partial<Readonly<Record<RestoreTier, TierPrice>>>>>
} as const

/** What a GCS connection says where S3 would show a restore's cost: there is no restore step to pay for. */
export const GCS_NO_RESTORE_COST =
  'GCS Nearline, Coldline and Archive objects have no restore step: they are read directly (GCS charges its own retrieval fee per GB read).'

const GB = 1e9

/** A published price exactly as published, at least to the cent: "$0.03", "$0.0025", "$10.00". */
export function dollars(n: number): string {
  const decimals = String(n).split('.')[1]?.length ?? 0
  return `$${n.toFixed(Math.max(2, decimals))}`
}

/** The estimated cost of restoring these files (per archive class) with a tier; null when no price is published. */
export function restoreCostWords(
  classes: readonly { readonly storageClass: string; readonly count: number; readonly bytes: number }[],
  tier: RestoreTier
): string | null {
  const parts: string[] = []
  let total = 0
  for (const c of classes) {
    const p = RESTORE_PRICES.classes[c.storageClass]?.[tier]
    if (!p) return null
    total += (c.bytes / GB) * p.perGb + (c.count / 1000) * p.per1000Requests
    parts.push(
      `${p.perGb === 0 ? 'no charge per GB' : `${dollars(p.perGb)} per GB`} + ${dollars(p.per1000Requests)} per 1,000 requests (${tier}, ${c.storageClass === 'GLACIER' ? 'Glacier Flexible Retrieval' : 'Glacier Deep Archive'})`
    )
  }
  if (parts.length === 0) return null
  const files = classes.reduce((n, c) => n + c.count, 0)
  const bytes = classes.reduce((n, c) => n + c.bytes, 0)
  // To the cent, a half cent up (EPSILON: 1.025 is stored just below itself).
  const estimate = total < 0.005 ? 'less than $0.01' : `$${(Math.round((total + Number.EPSILON) * 100) / 100).toFixed(2)}`
  return `Estimated retrieval cost: ${estimate} for ${countText(files, 'file')} (${formatBytes(bytes)}) at ${parts.join('; ')}. An estimate from ${RESTORE_PRICES.source}; your bill may differ (region, the restored copy's storage while it is kept).`
}
