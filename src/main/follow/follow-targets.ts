// Telling a follow target (issue 22): a webhook (POST JSON with Slack's `text`, retried with back-off) or a command
// (the incident as JSON on standard input and as environment variables), each named as a user may see it (a webhook's
// origin and path: its query may hold a token). The headless `watch` and the app's Follow panel both send through it.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import pRetry from 'p-retry'
import { countText } from '../../shared/counts'
import { errorMessage } from '../../shared/error-message'
import { payloadEnv, type IncidentPayload } from '../../shared/follow/incident-payload'

/** A target: its key (a hash: a webhook URL is a secret), its name as shown, and how to tell it one payload. */
export interface Target {
  readonly key: string
  readonly name: string
  /** Resolves with the answer in words ("HTTP 200", "exit code 0"); rejects with what went wrong, the URL's query never said. */
  send(p: IncidentPayload, signal: AbortSignal): Promise<string>
}

export const targetHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 24)

/** Per request; a webhook that does not answer in time is retried like one that failed. */
const WEBHOOK_TIMEOUT_MS = 10_000
const EXEC_TIMEOUT_MS = 60_000

export interface WebhookOptions {
  /** Retries after the first attempt (default EXPORT_EXPLORER_WEBHOOK_RETRIES, else 3). */
  readonly retries?: number
  /** The first back-off (doubled each retry; default 500 ms). */
  readonly minTimeoutMs?: number
}

/** A path segment this long is likely a token (Slack's and Discord's webhooks keep theirs in the path). */
const TOKEN_LIKE = 16

/**
 * The origin and path of a webhook URL, a token-like segment cut to its first 4 characters: what may be shown, logged
 * or saved in plain text (the query and the user part are never said).
 */
export function webhookName(url: string): string {
  const u = new URL(url)
  const path = u.pathname
    .split('/')
    .map((s) => (s.length >= TOKEN_LIKE ? `${s.slice(0, 4)}…` : s))
    .join('/')
  return `${u.origin}${path}`
}

export function webhookTarget(url: string, opts: WebhookOptions = {}): Target {
  const name = webhookName(url)
  const retries = opts.retries ?? Number(process.env['EXPORT_EXPLORER_WEBHOOK_RETRIES'] ?? 3)
  return {
    key: `webhook:${targetHash(url)}`,
    name,
    async send(p, signal) {
      return pRetry(
        async () => {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(p),
            signal: AbortSignal.any([signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)])
          })
          await res.arrayBuffer().catch(() => undefined)
          if (res.status < 200 || res.status > 299) throw new Error(`it answered HTTP ${res.status}`)
          return `HTTP ${res.status}`
        },
        { retries, minTimeout: opts.minTimeoutMs ?? 500, factor: 2, signal }
      ).catch((e: unknown) => {
        // fetch's own error hides the cause ("fetch failed"): say the cause, never the URL's query.
        const cause = (e as { cause?: { code?: string; message?: string } }).cause
        throw new Error(`the webhook ${name} could not be told after ${countText(retries + 1, 'attempt')}: ${cause?.code ?? cause?.message ?? errorMessage(e)}`)
      })
    }
  }
}

export interface CommandOptions {
  /** Where the command's output goes: the terminal (watch) or nowhere (the app, which has none). */
  readonly output?: 'inherit' | 'ignore'
}

export function commandTarget(cmd: string, opts: CommandOptions = {}): Target {
  const output = opts.output ?? 'inherit'
  return {
    key: `exec:${targetHash(cmd)}`,
    name: `the command "${cmd}"`,
    send: (p, signal) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(cmd, {
          shell: true,
          stdio: ['pipe', output, output],
          env: { ...process.env, ...payloadEnv(p) },
          signal,
          timeout: EXEC_TIMEOUT_MS
        })
        child.on('error', (e) => reject(new Error(`the command "${cmd}" could not run: ${errorMessage(e)}`)))
        child.on('close', (code, sig) =>
          code === 0 ? resolve('exit code 0') : reject(new Error(`the command "${cmd}" ended with ${sig ? `signal ${sig}` : `exit code ${code}`}`))
        )
        child.stdin.on('error', () => undefined)
        child.stdin.end(`${JSON.stringify(p)}\n`)
      })
  }
}
