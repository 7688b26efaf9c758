// Plain words for each finding kind and manifest state (the codes stay in tooltips and in the CLI).
import type { FindingKind, ManifestState } from '../../../shared/timeline'

export const KIND_WORDS: Record<FindingKind, { one: string; many: (n: number) => string }> = {
  missing: { one: 'Table missing', many: (n) => `${n} tables missing` },
  failed: { one: 'Delivery failed', many: (n) => `${n} deliveries failed` },
  late: { one: 'Arrived late', many: (n) => `${n} tables arrived late` },
  pending_not_caught_up: { one: 'Pending, not caught up in 6 hours', many: (n) => `${n} tables pending, not caught up in 6 hours` },
  manifest_mismatch: { one: 'Manifest disagrees with the folders', many: (n) => `Manifest disagrees with the folders of ${n} tables` },
  manifest_malformed: { one: 'Manifest unreadable', many: () => 'Manifest unreadable' },
  manifest_absent: { one: 'No manifest', many: () => 'No manifest' },
  archived: { one: 'File archived (restore needed)', many: (n) => `${n} tables with archived files (restore needed)` },
  delivered_through_lag: { one: 'Delivered-through lags behind', many: (n) => `${n} tables whose delivered-through lags behind` },
  ignored_key: { one: 'File not read', many: (n) => `${n} files not read` },
  off_schedule: { one: 'Folder dated off schedule', many: (n) => `${n} folders dated off schedule` },
  manifest_contradiction: { one: 'Manifest contradicts itself', many: () => 'Manifest contradicts itself' },
  manifest_warning: { one: 'Manifest warning', many: (n) => `${n} manifest warnings` },
  empty_copy: { one: 'Empty copy (no Parquet file)', many: (n) => `${n} empty copies (no Parquet file)` },
  corrupt_file: { one: 'Unreadable file left out', many: (n) => `${n} tables with unreadable files left out` },
  feed_stopped: { one: 'The feed stopped', many: (n) => `The feed stopped ${n} times` },
  volume_anomaly: { one: 'Rows or bytes far from the usual', many: (n) => `${n} deliveries far from the usual volume` },
  schema_change: { one: 'A column added, dropped or retyped', many: (n) => `${n} column changes` }
}

export const MANIFEST_WORDS: Record<ManifestState, string> = {
  complete: 'manifest complete',
  incomplete: 'manifest incomplete',
  absent: 'manifest absent',
  malformed: 'manifest unreadable',
  not_due: 'manifest not due yet'
}
