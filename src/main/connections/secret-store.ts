// Secrets (static S3 secret keys) kept apart from connections. In Electron they are encrypted with the OS
// keychain through safeStorage; where the only backend is "basic_text" (Linux without a keyring) saving is
// refused, with the reason. Tests use the in-memory store. No secret is ever logged or sent to the renderer.
import { basename } from 'node:path'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

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
  private readonly saved: SavedStateFile<Record<string, string>>

  constructor(
    private readonly safe: SafeStorageLike,
    /** JSON file of ref → base64 ciphertext. */
    file: string
  ) {
    const decode = (parsed: unknown): Decoded<Record<string, string>> => {
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value: {}, problems: [`${basename(file)} holds no saved secrets.`] }
      const value: Record<string, string> = {}
      const problems: string[] = []
      for (const [ref, enc] of Object.entries(parsed)) {
        if (typeof enc === 'string') value[ref] = enc
        else problems.push(`The saved secret ${ref} in ${basename(file)} is not readable and was skipped: enter it again.`)
      }
      return { value, problems }
    }
    this.saved = new SavedStateFile(file, { empty: () => ({}), decode, encode: (all) => JSON.stringify(all) })
  }

  /** Why secrets cannot be saved here, or null when they can. */
  unavailableReason(): string | null {
    if (!this.safe.isEncryptionAvailable())
      return 'No system keychain is available to encrypt secrets, so the app will not store one. Use an AWS profile or the default credential chain instead.'
    if (this.safe.getSelectedStorageBackend?.() === 'basic_text')
      return 'No keyring (such as GNOME Keyring or KWallet) is running, so a secret would be stored practically in plain text. The app refuses: start a keyring, or use an AWS profile or the default credential chain instead.'
    return null
  }

  private async read(): Promise<Record<string, string>> {
    return (await this.saved.read()).value
  }

  /** What the user should know about the secrets file (damaged, kept aside). */
  async problems(): Promise<readonly string[]> {
    return (await this.saved.read()).problems
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
    const enc = this.safe.encryptString(secret).toString('base64')
    await this.saved.update((all) => ({ ...all, [ref]: enc }))
  }

  async delete(ref: string): Promise<void> {
    await this.saved.update((all) => Object.fromEntries(Object.entries(all).filter(([k]) => k !== ref)))
  }
}
