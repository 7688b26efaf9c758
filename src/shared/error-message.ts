// The one way to get the words out of something thrown: an Error's message, a string as it is, anything else
// as JSON (never "[object Object]"). Values that are not errors reach here from workers, engines and JSON.

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message
  if (typeof e === 'string') return e
  if (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message
  try {
    return JSON.stringify(e) ?? String(e)
  } catch {
    return String(e)
  }
}
