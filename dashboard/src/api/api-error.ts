/** A failure the API reported, by the spec's stable code (part 7); `field` names the offending input when there is one. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
  }
}

const signedOutListeners = new Set<() => void>();

/** Called when any request finds the session over (401): the shell goes back to the sign-in page. */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function notifySignedOut(): void {
  for (const listener of signedOutListeners) listener();
}
