// Secrets (static S3 secret keys) kept apart from connections. In Electron they are encrypted with the OS
// keychain through safeStorage; where the only backend is "basic_text" (Linux without a keyring) saving is
// refused, with the reason. Tests use the in-memory store. No secret is ever logged or sent to the renderer.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

export interface SecretStore {
  get(ref: string): Promise<string | null>
  set(ref: string, secret: string): Promise<void>
  delete(ref: string): Promise<void>
}

export class SecretStoreUnavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecretStoreUnavailable'
  }
}

export class MemorySecretStore implements SecretStore {
  private readonly secrets = new Map<string, string>()
  async get(ref: string): Promise<string | null> {
    return this.secrets.get(ref) ?? null
  }
  async set(ref: string, secret: string): Promise<void> {
    this.secrets.set(ref, secret)
  }
  async delete(ref: string): Promise<void> {
    this.secrets.delete(ref)
  }
}

/** The part of Electron's safeStorage this store uses (injected by the shell; services never import electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plain: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux only: "basic_text" means no keyring, i.e. no real protection. */
  getSelectedStorageBackend?(): string
}

export class SafeStorageSecretStore implements SecretStore {
  constructor(
    private readonly safe: SafeStorageLike,
    /** JSON file of ref → base64 ciphertext. */
    private readonly file: string
  ) {}

  /** Why secrets cannot be saved here, or null when they can. */
  unavailableReason(): string | null {
    if (!this.safe.isEncryptionAvailable()) return 'No system keychain is available to encrypt secrets, so the app will not store one. Use an AWS profile or the default credential chain instead.'
    if (this.safe.getSelectedStorageBackend?.() === 'basic_text') return 'No keyring (such as GNOME Keyring or KWallet) is running, so a secret would be stored practically in plain text. The app refuses: start a keyring, or use an AWS profile or the default credential chain instead.'
    return null
  }

  private async read(): Promise<Record<string, string>> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.file, 'utf8'))
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {}
    } catch {
      return {}
    }
  }

  private async write(all: Record<string, string>): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.${process.pid}.tmp`
    await writeFile(tmp, JSON.stringify(all), { mode: 0o600 })
    await rename(tmp, this.file)
  }

  async get(ref: string): Promise<string | null> {
    const enc = (await this.read())[ref]
    if (enc === undefined) return null
    if (!this.safe.isEncryptionAvailable()) throw new SecretStoreUnavailable('The system keychain is not available to decrypt the saved secret.')
    return this.safe.decryptString(Buffer.from(enc, 'base64'))
  }

  async set(ref: string, secret: string): Promise<void> {
    const why = this.unavailableReason()
    if (why) throw new SecretStoreUnavailable(why)
    const all = await this.read()
    all[ref] = this.safe.encryptString(secret).toString('base64')
    await this.write(all)
  }

  async delete(ref: string): Promise<void> {
    const all = await this.read()
    delete all[ref]
    await this.write(all)
  }
}
