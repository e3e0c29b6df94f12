import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError, isAsyncIterable } from '@graphql-tools/utils';
import type { ExecutionResult } from 'graphql';
import type { RequestAuth } from '../../runtime/gateway-signature.ts';
import { atInstant } from '../../runtime/instant-timer.ts';
import { bearerToken, type EarshotGatewayContext, sessionCookie } from '../request-state.ts';

export interface LiveCredentialsOptions {
  /** As the authentication plugin's: what a bearer secret acts as, undefined once it is revoked, expired or unknown. */
  authenticate(secret: string): Promise<RequestAuth | undefined>;
  /** As the authentication plugin's: what a session cookie acts as, undefined once the session has ended. */
  authenticateSession?(token: string): Promise<{ auth: RequestAuth } | undefined>;
  /**
   * How long a credential found live is trusted before an event looks it up
   * again, so a burst of events costs one look-up; its expiry is checked on
   * every event. Default 1 s.
   */
  recheckMs?: number;
  /**
   * Tells `listener` the holder of each credential this process hears
   * changed: an API key's id (revoked, its expiry or scope altered) or a
   * user's id (a session of theirs signed out or ended, an access token or
   * grant revoked, their membership ended), or undefined when changes may
   * have gone unheard; returns the function that stops it. A subscription
   * of that key or user looks its credential up at once, so a revoke ends
   * it without waiting for an event. Without it, only the periodic look-up does.
   */
  onCredentialChange?(listener: (holderId: string | undefined) => void): () => void;
  /**
   * Between events, how often a subscription looks its credential up
   * anyway: the backstop should a change notification be lost. Default 30 s.
   */
  watchMs?: number;
}

/**
 * What the graphql-ws server puts on the context of each operation of a
 * connection: called when the connection's credential stopped working, so
 * that the connection is closed once its subscriptions have ended.
 */
export interface CredentialEndedListener {
  credentialEnded?(): void;
}

const ended = () =>
  createGraphQLError('The API key, access token or session stopped working; subscribe again with a live one', {
    extensions: { code: 'unauthorized', http: { status: 401 } },
  });

/**
 * A subscription ends when its credential stops working (spec 5.6, 4.1: a
 * revoked or expired key, a revoked or expired OAuth token, a session signed
 * out or whose user left): authentication ran once, when the client
 * subscribed, so without this a graphql-ws connection opened with a key kept
 * receiving mentions after the key was revoked. The credential is checked
 * before each event, its expiry exactly and its revocation through the
 * same look-up the authentication plugin makes, and between events too: at
 * its expiry, as soon as its API key or its user's credentials are
 * announced changed, and every
 * `watchMs` (a revoked key's subscription used to stay open, silent, until
 * a mention came). A dead one gets one last `unauthorized` error, the
 * subscription completes, and the connection is told (`credentialEnded`).
 */
export function useLiveCredentials(options: LiveCredentialsOptions): GatewayPlugin {
  const recheckMs = options.recheckMs ?? 1000;
  const watchMs = options.watchMs ?? 30_000;
  return {
    onSubscribe({ args }) {
      const context = args.contextValue as unknown as EarshotGatewayContext & Parameters<typeof bearerToken>[0] & CredentialEndedListener;
      const auth = context.auth;
      if (!auth) return;
      const token = bearerToken(context);
      const session = token ? undefined : sessionCookie(context);
      const lookUp = token
        ? async () => (await options.authenticate(token)) !== undefined
        : session && options.authenticateSession
          ? async () => (await options.authenticateSession!(session)) !== undefined
          : undefined;
      let checkedAt = Date.now();
      const isLive = async (now = false) => {
        if (auth.expiresAt !== null && Date.now() >= Date.parse(auth.expiresAt)) return false;
        if (!lookUp || (!now && Date.now() - checkedAt < recheckMs)) return true;
        const live = await lookUp();
        checkedAt = Date.now();
        return live;
      };
      const watch = (check: () => void) => {
        const interval = setInterval(check, watchMs).unref();
        const cancelExpiry = auth.expiresAt === null ? undefined : atInstant(Date.parse(auth.expiresAt), check);
        // An API key's subscriptions hear of their key; a token's or session's, of their user.
        const holderId = auth.apiKeyId ?? auth.userId;
        const stopHearing = options.onCredentialChange?.((changed) => {
          if (changed === undefined || changed === holderId) check();
        });
        return () => {
          clearInterval(interval);
          cancelExpiry?.();
          stopHearing?.();
        };
      };
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) return;
          setResult(whileLive(result as AsyncIterable<ExecutionResult>, isLive, watch, () => context.credentialEnded?.()));
        },
      };
    },
  };
}

/**
 * The source's results while the credential lives, then one `unauthorized`
 * error and the end. `watch` calls its check whenever the credential may
 * have died between events; it returns the function that stops watching.
 * Written as a plain iterator, not a generator: a generator's `return()`
 * waits for the pending `next()`, so a client that unsubscribed would hold
 * its upstream until the next event came.
 */
function whileLive(
  source: AsyncIterable<ExecutionResult>,
  isLive: (now?: boolean) => Promise<boolean>,
  watch: (check: () => void) => () => void,
  credentialEnded: () => void,
): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  let died!: () => void;
  const death = new Promise<'died'>((resolve) => (died = () => resolve('died')));
  const check = () => {
    // A look-up the database cannot answer leaves the subscription as it is: the next check decides.
    isLive(true).then((live) => live || died(), () => {});
  };
  const stopWatching = watch(check);
  // A change announced after the credential was authenticated but before the watch began went unheard.
  check();
  const finish = async (): Promise<IteratorResult<ExecutionResult>> => {
    if (!finished) {
      finished = true;
      stopWatching();
      await iterator.return?.();
    }
    return { done: true, value: undefined };
  };
  const end = async (): Promise<IteratorResult<ExecutionResult>> => {
    await finish();
    credentialEnded();
    return { done: false, value: { errors: [ended()] } };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return { done: true, value: undefined };
      let next: IteratorResult<ExecutionResult> | 'died';
      try {
        next = await Promise.race([iterator.next(), death]);
      } catch (error) {
        finished = true;
        stopWatching();
        throw error;
      }
      if (next === 'died') return end();
      if (next.done || finished) {
        finished = true;
        stopWatching();
        return { done: true, value: undefined };
      }
      if (!(await isLive())) return end();
      return next;
    },
    return: finish,
    async throw(error: unknown) {
      await finish();
      throw error;
    },
  };
}
