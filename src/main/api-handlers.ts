// Every call of the API contract, once: arguments validated (they come from a renderer, never trusted), then
// answered by the workspace. The Electron shell (IPC) and the web host (HTTP) both call `dispatch`; they
// differ only in transport; the web host sends a reply as `encodeReply` encodes it.
import { type ApiName, type ArgsOf, type ResultOf, isApiName, validateArgs } from '../shared/api-contract'
import type { Workspace } from './workspace/workspace'
import { userMessage } from './workspace/user-message'
import { errorMessage } from '../shared/error-message'

export type Reply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly status: 400 | 404 | 500; readonly error: string }

type Handlers = { readonly [N in ApiName]: (w: Workspace, args: ArgsOf<N>) => Promise<ResultOf<N>> | ResultOf<N> }

const HANDLERS: Handlers = {
  overview: async (w) => (await w.sessionOrOpenFirst()).snapshot.overview(),
  timeline: async (w, a) => (await w.sessionOrOpenFirst()).snapshot.timeline(a),
  hour: async (w, a) => (await w.sessionOrOpenFirst()).snapshot.hour(a),
  connections: (w) => w.connections(),
  connectionGet: (w, a) => w.connectionGet(a),
  connectionSave: (w, a) => w.connectionSave(a),
  connectionTest: (w, a) => w.connectionTest(a),
  connectionOpen: (w, a) => w.connectionOpen(a),
  connectionDelete: (w, a) => w.connectionDelete(a),
  awsProfiles: (w) => w.awsProfiles(),
  refresh: (w, a) => w.refresh(a),
  refreshStatus: (w) => w.refreshStatus(),
  refreshCancel: (w) => w.refreshCancel(),
  engineSource: (w, a) => w.engineSource(a),
  exportDefaults: (w) => w.exportDefaults(),
  chooseSavePath: (w, a) => w.chooseSavePath(a),
  exportStart: (w, a) => w.exportStart(a),
  exportStatus: (w, a) => w.exportStatus(a),
  exportCancel: (w, a) => w.exportCancel(a),
  showInFolder: (w, a) => w.showInFolder(a),
  history: (w) => w.history(),
  historyAdd: (w, a) => w.historyAdd(a),
  ddl: (w, a) => w.ddl(a),
  restorePlan: (w, a) => w.restorePlan(a),
  restoreStart: (w, a) => w.restoreStart(a),
  restoreStatus: (w) => w.restoreStatus(),
  mirrorStatus: (w) => w.mirrorStatus(),
  mirrorCancel: (w) => w.mirrorCancel(),
  mirrorResume: (w) => w.mirrorResume(),
  mirrorClear: (w) => w.mirrorClear(),
  mirrorSetLimit: (w, a) => w.mirrorSetLimit(a)
}

export async function dispatch(workspace: Workspace, name: string, rawArgs: unknown): Promise<Reply> {
  if (!isApiName(name)) return { ok: false, status: 404, error: `No call named ${name}.` }
  const checked = validateArgs(name, rawArgs)
  if (!checked.ok) return { ok: false, status: 400, error: checked.reason }
  try {
    const handler = HANDLERS[name] as (w: Workspace, a: unknown) => Promise<unknown> | unknown
    return { ok: true, result: await handler(workspace, checked.args) }
  } catch (e) {
    return { ok: false, status: 500, error: userMessage(e) }
  }
}

/**
 * A reply as the web host sends it: status and JSON text. An answer JSON cannot encode (nested too deep for the
 * stack, a cycle, a BigInt) is a bug, but it becomes a 500 with words: the headers are not yet sent, so the client
 * gets a reason instead of an empty reply.
 */
export function encodeReply(name: string, reply: Reply): { readonly status: number; readonly body: string } {
  try {
    return { status: reply.ok ? 200 : reply.status, body: JSON.stringify(reply.ok ? { result: reply.result } : { error: reply.error }) }
  } catch (e) {
    console.error(`export-explorer: the answer to ${name} could not be encoded`, e)
    const error = `The answer to ${name} could not be encoded as JSON (${errorMessage(e)}). Nothing was changed; report this with the hour or table it was about.`
    return { status: 500, body: JSON.stringify({ error }) }
  }
}
