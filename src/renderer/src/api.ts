// The renderer's side of the API contract. Over the web host it posts to /api/<token>/<call>; under Electron
// the preload will expose the same calls. It never receives a credential.
import type { ApiContract, ApiName } from '../../shared/api-contract'

export async function call<N extends ApiName>(name: N, args: ApiContract[N]['args']): Promise<ApiContract[N]['result']> {
  const base = document.querySelector('meta[name="ee-api"]')?.getAttribute('content')
  if (!base) throw new Error('This page was not opened by Export Explorer (no API address).')
  const res = await fetch(`${base}${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) })
  if (!res.ok) throw new Error(`${name} failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as ApiContract[N]['result']
}
