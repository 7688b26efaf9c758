// The answer of "Test connection" in the connection form: green (the export, ready to open), amber (not the
// export's folder, with a one-click "Use …" for each folder that is), red (cannot be used, and why). Plain
// words only; the provider's own words (an error code) are in the tooltip.
import type { ConnectionVerdictView } from '../../../shared/api-contract'

const LOOK: Record<ConnectionVerdictView['level'], { mark: string; heading: string; colour: string; tint: string }> = {
  green: { mark: '✓', heading: 'Ready', colour: '#1a7f37', tint: '#e9f7ee' },
  amber: { mark: '!', heading: 'Not the export’s folder', colour: '#9a6700', tint: '#fff8e5' },
  red: { mark: '✗', heading: 'Cannot be used', colour: '#b3261e', tint: '#fdecea' }
}

/** The words of a "Use …" button: the prefix or folder, or the bucket's top for an empty prefix. */
export const useLabel = (value: string): string => `Use ${value === '' ? 'the bucket’s top' : value}`

export function ConnectionVerdict({ verdict, onUse }: { verdict: ConnectionVerdictView; onUse: (value: string) => void }): React.JSX.Element {
  const look = LOOK[verdict.level]
  return (
    <div
      data-testid="verdict"
      data-ok={verdict.ok}
      data-level={verdict.level}
      role="status"
      title={verdict.detail ?? undefined}
      style={{
        display: 'flex',
        gap: 10,
        alignItems: 'flex-start',
        fontSize: 13,
        margin: '8px 0',
        padding: '8px 10px',
        borderLeft: `4px solid ${look.colour}`,
        background: look.tint,
        borderRadius: 4
      }}
    >
      <span
        aria-hidden="true"
        style={{
          flex: '0 0 20px',
          height: 20,
          borderRadius: 10,
          background: look.colour,
          color: '#fff',
          fontWeight: 700,
          textAlign: 'center',
          lineHeight: '20px'
        }}
      >
        {look.mark}
      </span>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        <b style={{ color: look.colour }}>{look.heading}.</b> <span>{verdict.message}</span>
        {verdict.useInstead.length ? (
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6, marginTop: 6 }}>
            {verdict.useInstead.map((v) => (
              <button key={v} type="button" onClick={() => onUse(v)}>
                {useLabel(v)}
              </button>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  )
}
