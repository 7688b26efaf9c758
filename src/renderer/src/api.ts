// The renderer's side of the API contract. Under Electron the preload exposes one method per call
// (window.exportExplorer); in a browser the web host answers POST /api/<token>/<call>. It never receives a
// credential.
import type { ApiName, ArgsOf, ResultOf } from '../../shared/api-contract'

type Bridge = { readonly [N in ApiName]: (args: ArgsOf<N>) => Promise<{ result?: ResultOf<N>; error?: string }> }

declare global {
  interface Window {
    exportExplorer?: Bridge & { readonly appName: string }
  }
}

export async function call<N extends ApiName>(name: N, args: ArgsOf<N>): Promise<ResultOf<N>> {
  const bridge = window.exportExplorer
  if (bridge) {
    const reply = await (bridge[name] as (a: ArgsOf<N>) => Promise<{ result?: ResultOf<N>; error?: string }>)(args)
    if (reply.error !== undefined) throw new Error(reply.error)
    return reply.result as ResultOf<N>
  }
  const base = document.querySelector('meta[name="ee-api"]')?.getAttribute('content')
  if (!base) throw new Error('This page was not opened by Export Explorer (no API address).')
  const res = await fetch(`${base}${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) })
  const body = (await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }))) as { result?: ResultOf<N>; error?: string }
  if (!res.ok || body.error !== undefined) throw new Error(body.error ?? `${name} failed: ${res.status}`)
  return body.result as ResultOf<N>
}
