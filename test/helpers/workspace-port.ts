// The store's transport in Node tests: the same dispatch, answer and event source as the web host's and the IPC's, on a real
// Workspace; and a wait for a condition the store reaches through pushed events.
import { dispatch, wireAnswer } from '../../src/main/api-handlers'
import type { Workspace } from '../../src/main/workspace/workspace'
import { resultOf } from '../../src/renderer/src/common/api-transport'
import type { ApiPort } from '../../src/renderer/src/store/api-port'
import type { ApiName, ArgsOf, ResultOf } from '../../src/shared/api/calls'

export function workspacePort(w: Workspace): ApiPort {
  return {
    async call<N extends ApiName>(name: N, args: ArgsOf<N>): Promise<ResultOf<N>> {
      // As the renderer's transport reads an answer: a refusal is a RefusalError with its code.
      const reply = await dispatch(w, name, args)
      return resultOf(name, wireAnswer(reply) as never, !reply.ok)
    },
    subscribe: (name, listener) => w.events.on((e) => e.name === name && listener(e.payload as never))
  }
}

/** Resolves once `what()` holds, polling every 20 ms; fails after `ms`. */
export async function until(what: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}
