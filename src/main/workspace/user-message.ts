// The words a user reads for anything main throws: a bucket's error says what to do, anything else its message.
import { errorMessage } from '../../shared/error-message'
import { BucketError } from '../bucket/bucket-errors'

/** A message the user can act on, whatever was thrown. */
export const userMessage = (e: unknown): string => (e instanceof BucketError ? e.userMessage : errorMessage(e))
