// A real GCS JSON API server on 127.0.0.1: firebase-tools' Cloud Storage emulator, started in-process with
// its rules runtime switched off (the GCS routes never consult rules; the runtime would need Java and a
// download). Installed apart from the app, under test/gcs-emulator (npm ci --prefix test/gcs-emulator).
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LOCAL_METADATA_DIR } from '../../src/main/bucket/local-sidecar'

export interface GcsServer {
  readonly endpoint: string
  /** Uploads a bucket folder, keeping each file's modification time as the object's time. */
  seed(bucket: string, folder: string, keyPrefix?: string): Promise<number>
  /** Uploads one object, its time the one given (a delivery landing while a test runs). */
  put(bucket: string, key: string, data: Buffer, mtime: Date): Promise<void>
  close(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

interface Emulator {
  start(): Promise<void>
  stop(): Promise<void>
  _rulesRuntime: { start: () => Promise<void>; stop: () => Promise<void> }
  _rulesManager: { start: () => Promise<void>; stop: () => Promise<void> }
  _persistence: { reset(dir: string): void }
  getPersistenceTmpDir(): string
  uploadService: { mediaUpload(r: { bucketId: string; objectId: string; dataRaw: Buffer; authorization?: string }): unknown }
  adminStorageLayer: { uploadObject(upload: unknown): Promise<{ updated: Date; timeCreated: Date }> }
}

export async function startGcsServer(): Promise<GcsServer> {
  const req = createRequire(join(import.meta.dirname, '../gcs-emulator/package.json'))
  let mod: { StorageEmulator: new (args: Record<string, unknown>) => Emulator }
  let registry: { EmulatorRegistry: { start(e: Emulator): Promise<void>; stop(name: string): Promise<void> } }
  try {
    mod = req('firebase-tools/lib/emulator/storage/index.js')
    registry = req('firebase-tools/lib/emulator/registry.js')
  } catch (e) {
    throw new Error(`The GCS emulator is not installed (${(e as Error).message}). Run: npm ci --prefix test/gcs-emulator`)
  }
  const port = await freePort()
  const emulator = new mod.StorageEmulator({ projectId: 'demo-export-explorer', host: '127.0.0.1', port, rules: [], auto_download: false })
  const noop = async (): Promise<void> => {}
  emulator._rulesRuntime.start = noop
  emulator._rulesRuntime.stop = noop
  emulator._rulesManager.start = noop
  emulator._rulesManager.stop = noop
  // Its blobs in a folder of its own: the emulator's default (<tmp>/firebase/storage/blobs) is one for every process, and
  // stop() removes it whole, so a file running beside this one (or another checkout's run) would lose its objects.
  const blobs = await mkdtemp(join(tmpdir(), 'ee-gcs-blobs-'))
  emulator.getPersistenceTmpDir = () => blobs
  emulator._persistence.reset(blobs)
  // The registry tells the emulator its own address (object metadata carries URLs).
  await registry.EmulatorRegistry.start(emulator)
  const put = async (bucket: string, key: string, data: Buffer, mtime: Date): Promise<void> => {
    const upload = emulator.uploadService.mediaUpload({ bucketId: bucket, objectId: key, dataRaw: data, authorization: 'Bearer owner' })
    const md = await emulator.adminStorageLayer.uploadObject(upload)
    md.updated = mtime
    md.timeCreated = mtime
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    put,
    async seed(bucket, folder, keyPrefix = '') {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true })
      const { stat } = await import('node:fs/promises')
      let n = 0
      for (const e of entries) {
        if (!e.isFile()) continue
        const abs = join(e.parentPath, e.name)
        const rel = abs
          .slice(folder.length + 1)
          .split('/')
          .join('/')
        if (rel.startsWith(`${LOCAL_METADATA_DIR}/`)) continue
        await put(bucket, keyPrefix + rel, await readFile(abs), (await stat(abs)).mtime)
        n++
      }
      return n
    },
    close: () => registry.EmulatorRegistry.stop('storage')
  }
}
