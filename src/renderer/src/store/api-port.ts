// What the store needs of main: the typed calls and pushed events of src/shared/api/. The renderer
// passes its transport (IPC or HTTP + Server-Sent Events); the slices' tests pass one over a real Workspace.
import type { ApiName, ArgsOf, ResultOf } from '../../../shared/api/calls'
import type { EventName, EventOf } from '../../../shared/api/events'

export interface ApiPort {
  call<N extends ApiName>(name: N, args: ArgsOf<N>): Promise<ResultOf<N>>
  /** Listens to one event main pushes; returns the unsubscribe. */
  subscribe<E extends EventName>(name: E, listener: (payload: EventOf<E>) => void): () => void
}
