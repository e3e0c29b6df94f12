import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError, isAsyncIterable } from '@graphql-tools/utils';
import type { ExecutionResult } from 'graphql';
import type { RequestAuth } from '../../runtime/gateway-signature.ts';
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
 * receiving mentions after the key was revoked. Before each event the
 * credential is checked, its expiry exactly and its revocation through the
 * same look-up the authentication plugin makes; a dead one gets one last
 * `unauthorized` error and the subscription completes.
 */
export function useLiveCredentials(options: LiveCredentialsOptions): GatewayPlugin {
  const recheckMs = options.recheckMs ?? 1000;
  return {
    onSubscribe({ args }) {
      const context = args.contextValue as unknown as EarshotGatewayContext & Parameters<typeof bearerToken>[0];
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
      const isLive = async () => {
        if (auth.expiresAt !== null && Date.now() >= Date.parse(auth.expiresAt)) return false;
        if (!lookUp || Date.now() - checkedAt < recheckMs) return true;
        const live = await lookUp();
        checkedAt = Date.now();
        return live;
      };
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) return;
          setResult(whileLive(result as AsyncIterable<ExecutionResult>, isLive));
        },
      };
    },
  };
}

/**
 * The source's results while the credential lives, then one `unauthorized`
 * error and the end. Written as a plain iterator, not a generator: a
 * generator's `return()` waits for the pending `next()`, so a client that
 * unsubscribed would hold its upstream until the next event came.
 */
function whileLive(source: AsyncIterable<ExecutionResult>, isLive: () => Promise<boolean>): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  const finish = async (): Promise<IteratorResult<ExecutionResult>> => {
    if (!finished) {
      finished = true;
      await iterator.return?.();
    }
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return { done: true, value: undefined };
      const next = await iterator.next();
      if (next.done || finished) {
        finished = true;
        return { done: true, value: undefined };
      }
      if (!(await isLive())) {
        await finish();
        return { done: false, value: { errors: [ended()] } };
      }
      return next;
    },
    return: finish,
    async throw(error: unknown) {
      await finish();
      throw error;
    },
  };
}
