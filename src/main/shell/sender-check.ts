// Who may call main over IPC: only our page, in the main frame of our own window. The shapes are the parts
// of Electron's WebFrameMain and WebContents the check reads, so plain Node tests can give it real values.
import type { RendererLocation } from './renderer-location'

/** The fields of Electron's WebFrameMain this check reads. */
export interface FrameShape {
  readonly url: string
  readonly parent: FrameShape | null
  readonly processId: number
  readonly routingId: number
}

/** The fields of Electron's WebContents this check reads. */
export interface ContentsShape {
  readonly id: number
  readonly mainFrame: FrameShape
}

/**
 * True when the call came from the main frame of `window`'s own contents, showing our page. The URL is compared
 * by protocol and host: for app://export-explorer/…, WHATWG URL (Node and Electron's main process) gives the
 * origin "null", so an origin comparison would refuse every call of the real window.
 */
export function isTrustedSender(
  frame: FrameShape | null | undefined,
  sender: ContentsShape,
  window: { readonly webContents: ContentsShape } | null,
  expected: Pick<RendererLocation, 'protocol' | 'host'>
): boolean {
  if (!frame || !window) return false
  // By id, not by wrapper identity: another window's contents, or a subframe, is refused.
  if (sender.id !== window.webContents.id) return false
  const main = sender.mainFrame
  if (frame.parent !== null || frame.processId !== main.processId || frame.routingId !== main.routingId) return false
  let url: URL
  try {
    url = new URL(frame.url)
  } catch {
    return false
  }
  return url.protocol === expected.protocol && url.host === expected.host
}
