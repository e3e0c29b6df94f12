import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { TypedDocumentString } from '../graphql/graphql';
import { execute } from './graphql-client';

export interface QueryState<R> {
  data: R | undefined;
  error: unknown;
  loading: boolean;
  /** Runs the query again, keeping what is shown until the answer comes. */
  refetch(): Promise<void>;
  /** Changes what is shown without asking the server (after a mutation answered the new state). */
  setData(update: (data: R) => R): void;
}

/** Runs a typed query now and whenever its variables change; a newer answer always wins over an older one. */
export function useQuery<R, V>(document: TypedDocumentString<R, V>, variables: V): QueryState<R> {
  const [data, setDataState] = useState<R>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const key = JSON.stringify(variables ?? {});
  const latest = useRef(0);
  const run = useCallback(async () => {
    const ticket = ++latest.current;
    setLoading(true);
    try {
      const answer = await (execute as (d: TypedDocumentString<R, V>, v: V) => Promise<R>)(document, JSON.parse(key));
      if (ticket === latest.current) {
        setDataState(answer);
        setError(undefined);
      }
    } catch (failure) {
      if (ticket === latest.current) setError(failure);
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [document, key]);
  useEffect(() => {
    void run();
  }, [run]);
  const setData = useCallback((update: (current: R) => R) => setDataState((current) => (current === undefined ? current : update(current))), []);
  return { data, error, loading, refetch: run, setData };
}

export interface ActionState<A extends unknown[], R = unknown> {
  run(...args: A): Promise<void>;
  busy: boolean;
  error: unknown;
  /** What the action answered, for its success notice; undefined once another action starts. */
  outcome: R | undefined;
  reset(): void;
}

/**
 * Clears every action's outcome and error: a person starting an action no
 * longer reads what an earlier one said (an "Invitation sent" after the
 * invitation was withdrawn), only, when it ends, what this one says.
 */
const outcomeClearers = new Set<() => void>();

/** A user action (a mutation and what follows it) with its busy state and its outcome or error, for buttons and forms. */
export function useAction<A extends unknown[], R = unknown>(action: (...args: A) => Promise<R>): ActionState<A, R> {
  const [busy, setBusy] = useState(false);
  const [settled, setSettled] = useState<{ outcome?: R; error?: unknown }>({});
  const current = useRef(action);
  current.current = action;
  useEffect(() => {
    const clear = () => setSettled({});
    outcomeClearers.add(clear);
    return () => void outcomeClearers.delete(clear);
  }, []);
  const run = useCallback(async (...args: A) => {
    for (const clear of outcomeClearers) clear();
    setBusy(true);
    try {
      setSettled({ outcome: await current.current(...args) });
    } catch (failure) {
      setSettled({ error: failure });
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error: settled.error, outcome: settled.outcome, reset: () => setSettled({}) };
}

/** A user action run once, when the page first shows (a link's page spending its token), however often it renders. */
export function useActionOnce(action: () => Promise<unknown>): ActionState<[]> {
  const started = useRef(false);
  const state = useAction(action);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void state.run();
  }, []);
  return state;
}
