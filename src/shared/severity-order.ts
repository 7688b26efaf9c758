// The one order of finding severities: errors, then warnings, then notes. The incidents list, the hour inspector
// and anything else that ranks findings use it, so they never disagree on what comes first.
import type { Finding, Severity } from './timeline'

export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 }

/** An hour's findings as someone reads them: by severity first (a missing table before a stray .crc file, even
 * when the missing table was later superseded), open before resolved within a severity, else as they came. */
export function bySeverity<F extends Pick<Finding, 'severity' | 'resolved'>>(findings: readonly F[]): F[] {
  return [...findings].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || Number(a.resolved !== null) - Number(b.resolved !== null))
}
