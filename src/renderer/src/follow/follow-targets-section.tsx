// The Follow panel's targets: the webhooks and commands the open connection's incident changes are told to (after
// each refresh, each change once), a form that adds one, and per target "Send a test", its problem and its last
// deliveries with their answers. A webhook shows only its origin and path: main keeps its URL in the secret store.
import { useState } from 'react'
import { FOLLOW_TARGET_KINDS, type FollowSettingsView, type FollowTargetKind } from '../../../shared/api/views'
import { countText } from '../../../shared/counts'
import { timeText } from '../common/time'
import { appStore, useApp } from '../store/use-app-store'
import css from './follow-panel.module.css'

const KIND_WORDS: Record<FollowTargetKind, string> = { webhook: 'Webhook', command: 'Command' }
const PLACEHOLDER: Record<FollowTargetKind, string> = {
  webhook: 'https://hooks.example.com/services/…',
  command: 'a command run with the incident as JSON on its standard input'
}

export function FollowTargetsSection({ follow }: { readonly follow: FollowSettingsView }): React.JSX.Element {
  const [kind, setKind] = useState<FollowTargetKind>('webhook')
  const [value, setValue] = useState('')
  const testing = useApp((s) => s.followTesting)
  const error = useApp((s) => s.followTargetError)
  const zone = useApp((s) => s.zone)
  const { addFollowTarget, removeFollowTarget, testFollowTarget } = appStore.getState()
  const submit = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    if (await addFollowTarget(kind, value)) setValue('')
  }
  return (
    <div className={css.targets}>
      <h3 className={css.subtitle}>Webhooks and commands</h3>
      <p className={css.muted}>
        After each refresh, an incident that opens, changes or resolves is told once to each target: a webhook gets it as JSON (Slack’s incoming webhooks take
        it too), a command on its standard input and as EE_* variables. A new target is told the changes from the next refresh on.
      </p>
      <form className={css.row} onSubmit={(e) => void submit(e)}>
        <select aria-label="target kind" value={kind} onChange={(e) => setKind(e.target.value as FollowTargetKind)}>
          {FOLLOW_TARGET_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
        <input
          className={css.input}
          aria-label={kind === 'webhook' ? 'webhook URL' : 'command'}
          placeholder={PLACEHOLDER[kind]}
          value={value}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" disabled={value.trim() === ''}>
          Add {kind}
        </button>
      </form>
      {kind === 'webhook' && follow.secretStorage ? <p className={css.problem}>{follow.secretStorage}</p> : null}
      {kind === 'command' ? <p className={css.muted}>A command runs as you, in a shell, each time it is told.</p> : null}
      {error ? (
        <p role="alert" className={css.problem}>
          {error}
        </p>
      ) : null}
      {follow.targets.length === 0 ? (
        <p data-testid="targets-none" className={css.muted}>
          No webhook or command yet.
        </p>
      ) : (
        <ul data-testid="targets" className={css.list}>
          {follow.targets.map((t) => (
            <li key={t.id} data-testid="target" className={css.target}>
              <div className={css.targetHead}>
                <span className={css.kind}>{KIND_WORDS[t.kind]}</span>
                <code className={css.name} title={t.name}>
                  {t.name}
                </code>
                <button onClick={() => void testFollowTarget(t.id)} disabled={testing === t.id}>
                  {testing === t.id ? 'Sending…' : 'Send a test'}
                </button>
                <button className={css.link} onClick={() => void removeFollowTarget(t.id)}>
                  Remove
                </button>
              </div>
              {t.problem ? (
                <p data-testid="target-problem" className={css.problem}>
                  {t.problem}
                  {t.pending > 0 ? ` (${countText(t.pending, 'change')} still to tell)` : ''}
                </p>
              ) : null}
              {t.deliveries.length === 0 ? (
                <p className={css.muted}>Nothing told yet.</p>
              ) : (
                <table data-testid="deliveries" className={css.deliveries}>
                  <tbody>
                    {t.deliveries.map((d) => (
                      <tr key={`${d.at}|${d.summary}`}>
                        <td className={css.when}>{timeText(d.at, zone)}</td>
                        <td>{d.test ? <strong>Test</strong> : d.summary}</td>
                        <td data-testid="delivery-answer" className={d.ok ? css.ok : css.failed}>
                          {d.ok ? d.answer : `failed: ${d.answer}`}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
