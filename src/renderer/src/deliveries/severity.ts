// The colour of each finding severity, for the overview and the findings list.
import type { Severity } from '../../../shared/timeline'

export const SEVERITY_COLOR: Record<Severity, string> = { error: '#b3261e', warning: '#9a6700', info: '#555' }
