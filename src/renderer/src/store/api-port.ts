// What the store needs of main: the typed calls and pushed events of src/shared/api-contract.ts. The renderer
// passes its transport (IPC or HTTP + Server-Sent Events); the slices' tests pass one over a real Workspace.
import type { ApiName, ArgsOf, EventName, EventOf, ResultOf } from '../../../shared/api-contract'

export interface ApiPort {
  call<N extends ApiName>(name: N, args: ArgsOf<N>): Promise<ResultOf<N>>
  /** Listens to one event main pushes; returns the unsubscribe. */
  subscribe<E extends EventName>(name: E, listener: (payload: EventOf<E>) => void): () => void
}
