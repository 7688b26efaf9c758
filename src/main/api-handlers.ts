// Every call of the API contract, once: arguments validated (they come from a renderer, never trusted), then
// answered by the workspace. The Electron shell (IPC) and the web host (HTTP) both call `dispatch`; they
// differ only in transport: both send a reply as `wireAnswer` makes it (the web host as JSON, `encodeReply`).
// A refusal the user caused is an answer with a code (HTTP 4xx); anything else thrown is a bug (HTTP 500).
import { type ApiName, type ArgsOf, type ResultOf, isApiName } from '../shared/api/calls'
import { validateArgs } from '../shared/api/validate-args'
import { type RefusalCode, RefusalError, type Refused, refusal, refusedAnswer } from '../shared/refusal'
import type { Workspace } from './workspace/workspace'
import { userMessage } from './workspace/user-message'
import { StatementRefused } from './engine/engine-error'
import { errorMessage } from '../shared/error-message'

/** Each refusal's HTTP status in the web host (IPC carries the code alone). */
const STATUS_OF: { readonly [C in RefusalCode]: 400 | 403 | 404 | 409 | 422 } = {
  bad_argument: 400,
  no_call: 404,
  not_found: 404,
  name_taken: 409,
  path_not_allowed: 403,
  builtin: 403,
  no_connection: 409,
  not_supported: 422,
  sql_refused: 422,
  busy: 409,
  nothing_to_do: 422,
  declined: 403
}

export type Reply =
  | { readonly ok: true; readonly result: unknown }
  | ({ readonly ok: false; readonly status: 400 | 403 | 404 | 409 | 422 } & Refused)
  | { readonly ok: false; readonly status: 500; readonly error: string }

type Handlers = { readonly [N in ApiName]: (w: Workspace, args: ArgsOf<N>) => Promise<ResultOf<N>> | ResultOf<N> }

const HANDLERS: Handlers = {
  overview: async (w) => (await w.sessionOrOpenFirst()).snapshot.overview(),
  timeline: async (w, a) => (await w.sessionOrOpenFirst()).snapshot.timelineAnswer(a),
  hour: async (w, a) => (await w.sessionOrOpenFirst()).snapshot.hour(a),
  tableVolume: async (w, a) => (await w.sessionOrOpenFirst()).snapshot.tableVolume(a),
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
  mirrorStatus: (w) => w.mirror.status(),
  mirrorCancel: (w) => w.mirror.cancel(),
  mirrorResume: (w) => w.mirror.resume(),
  mirrorClear: (w) => w.mirror.clear(),
  mirrorSetLimit: (w, a) => w.mirror.setLimit(a),
  followSettings: (w) => w.followSettings(),
  followSetNotify: (w, a) => w.followSetNotify(a),
  followTargetAdd: (w, a) => w.followTargetAdd(a),
  followTargetRemove: (w, a) => w.followTargetRemove(a),
  followTargetTest: (w, a) => w.followTargetTest(a),
  monitorThresholds: (w) => w.monitorThresholds(),
  monitorSetThresholds: (w, a) => w.monitorSetThresholds(a)
}

const refused = (e: RefusalError): Reply => ({ ok: false, status: STATUS_OF[e.code], ...refusedAnswer(e) })

/** A refusal the user caused, whichever part of main refused (the engine says a statement is not one it runs). */
function refusalOf(e: unknown): RefusalError | null {
  if (e instanceof RefusalError) return e
  if (e instanceof StatementRefused) return refusal('sql_refused', e.message)
  return null
}

export async function dispatch(workspace: Workspace, name: string, rawArgs: unknown): Promise<Reply> {
  if (!isApiName(name)) return refused(refusal('no_call', `No call named ${name}.`))
  const checked = validateArgs(name, rawArgs)
  if (!checked.ok) return refused(refusal('bad_argument', checked.reason))
  try {
    const handler = HANDLERS[name] as (w: Workspace, a: unknown) => Promise<unknown> | unknown
    return { ok: true, result: await handler(workspace, checked.args) }
  } catch (e) {
    const r = refusalOf(e)
    return r ? refused(r) : { ok: false, status: 500, error: userMessage(e) }
  }
}

/** A reply as it travels, over IPC and as the web host's JSON body: a value, since a thrown Error crosses
 * ipcMain.handle with its message only (a RefusalError's code would be lost). */
export function wireAnswer(reply: Reply): { readonly result: unknown } | Refused | { readonly error: string } {
  if (reply.ok) return { result: reply.result }
  return 'refused' in reply ? { refused: reply.refused } : { error: reply.error }
}

/**
 * A reply as the web host sends it: status and JSON text. An answer JSON cannot encode (nested too deep for the
 * stack, a cycle, a BigInt) is a bug, but it becomes a 500 with words: the headers are not yet sent, so the client
 * gets a reason instead of an empty reply.
 */
export function encodeReply(name: string, reply: Reply): { readonly status: number; readonly body: string } {
  try {
    return { status: reply.ok ? 200 : reply.status, body: JSON.stringify(wireAnswer(reply)) }
  } catch (e) {
    console.error(`export-explorer: the answer to ${name} could not be encoded`, e)
    const error = `The answer to ${name} could not be encoded as JSON (${errorMessage(e)}). Nothing was changed; report this with the hour or table it was about.`
    return { status: 500, body: JSON.stringify({ error }) }
  }
}
