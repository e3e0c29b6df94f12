import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createGraphQLError, isAsyncIterable } from '@graphql-tools/utils';
import { type ExecutionResult, print } from 'graphql';
import type { EarshotGatewayContext } from '../request-state.ts';

export interface SharedSubscriptionsOptions {
  /** Most results one subscriber may have waiting before it is ended with `subscriber_too_slow`; default 1,000, as the mentions subgraph holds. */
  maxWaitingResults?: number;
}

type Subscription = AsyncIterableIterator<ExecutionResult>;

/** One subscription to the subgraphs, its results handed to every client that asked the same. */
interface SharedSubscription {
  /** A client's own iterator over the results from now on; undefined once the shared one has ended. */
  join(): Subscription | undefined;
}

/**
 * Clients of this process that subscribe with the same credential to the
 * same operation and variables share one subscription to the subgraphs:
 * each event is fetched and planned once (the mentions subgraph's event,
 * fields of other subgraphs) and its result sent to each of them. Ten
 * dashboards of one workspace cost the subgraphs what one does. Every
 * client is still authenticated and counted on its own (those plugins ran
 * before); the shared subscription carries the first client's request id.
 * A client that stops reading gets its own bounded queue and is ended
 * alone; the shared subscription ends when its last client leaves.
 */
export function useSharedSubscriptions(options: SharedSubscriptionsOptions = {}): GatewayPlugin {
  const maxWaitingResults = options.maxWaitingResults ?? 1000;
  const shared = new Map<string, Promise<SharedSubscription | undefined>>();

  const share = (key: string, source: Subscription): SharedSubscription => {
    const clients = new Set<(result: ExecutionResult | Error | null) => void>();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      shared.delete(key);
      void source.return?.();
    };
    void (async () => {
      try {
        for await (const result of source) for (const deliver of clients) deliver(result);
        for (const deliver of clients) deliver(null);
      } catch (error) {
        for (const deliver of clients) deliver(error as Error);
      }
      end();
    })();

    return {
      join() {
        if (ended) return undefined;
        const waiting: (ExecutionResult | Error | null)[] = [];
        let tooSlow = false;
        let finished = false;
        let wake: (() => void) | undefined;
        const deliver = (item: ExecutionResult | Error | null) => {
          if (waiting.length >= maxWaitingResults) {
            tooSlow = true;
            waiting.length = 0;
            leave();
          } else {
            waiting.push(item);
          }
          wake?.();
        };
        const leave = () => {
          clients.delete(deliver);
          if (clients.size === 0) end();
        };
        clients.add(deliver);
        const iterator: Subscription = {
          async next() {
            while (!finished) {
              if (waiting.length) {
                const item = waiting.shift()!;
                if (item === null) break;
                if (item instanceof Error) {
                  finished = true;
                  throw item;
                }
                return { value: item, done: false };
              }
              if (tooSlow) {
                finished = true;
                const error = createGraphQLError(`This subscription fell more than ${maxWaitingResults} results behind and was ended; subscribe again`, {
                  extensions: { code: 'subscriber_too_slow' },
                });
                return { value: { errors: [error] }, done: false };
              }
              await new Promise<void>((resolve) => (wake = resolve));
              wake = undefined;
            }
            finished = true;
            return { value: undefined, done: true };
          },
          async return() {
            finished = true;
            leave();
            wake?.();
            return { value: undefined, done: true };
          },
          [Symbol.asyncIterator]() {
            return iterator;
          },
        };
        return iterator;
      },
    };
  };

  return {
    onSubscribe({ args, subscribeFn, setSubscribeFn }) {
      const { auth } = args.contextValue as Partial<EarshotGatewayContext>;
      if (!auth) return;
      const key = JSON.stringify([auth, args.operationName ?? null, args.variableValues ?? null, print(args.document)]);
      setSubscribeFn(async (subscribeArgs) => {
        const existing = shared.get(key);
        if (existing) return (await existing)?.join() ?? subscribeFn(subscribeArgs);
        const own = Promise.resolve(subscribeFn(subscribeArgs));
        // A refusal (a single result, not a stream) is this client's alone: the next one asks again.
        const started = own.then(
          (result) => (isAsyncIterable(result) ? share(key, result as Subscription) : undefined),
          () => undefined,
        );
        shared.set(key, started);
        const subscription = await started;
        if (!subscription) shared.delete(key);
        return subscription?.join() ?? own;
      });
    },
  };
}
