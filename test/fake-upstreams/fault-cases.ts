import { expect, it } from 'vitest';
import { UpstreamError, type RetryPolicy } from '../../runtime/upstream-http.ts';
import type { FakeUpstream } from './fake-server.ts';

/** Three attempts as in production, with short back-offs; the time-out leaves room for the first fetch of a process, which loads undici. */
export const fastRetry: RetryPolicy = { attempts: 3, backoffMs: 1, timeoutMs: 1000, maxRetryAfterMs: 2000 };

export interface FaultCaseSetup {
  fake: FakeUpstream;
  /** One connector call against `fake` that succeeds when the fake answers normally. */
  call: () => Promise<unknown>;
}

/**
 * The retry contract every connector shares (upstream-http.ts): passing
 * faults are retried until the call succeeds with the same result, and
 * lasting ones end in an UpstreamError. `setup` runs per test.
 */
export function itSurvivesUpstreamFaults(setup: () => Promise<FaultCaseSetup>): void {
  it('retries a rate limit, a server error and a malformed body, then answers as without them', async () => {
    const { fake, call } = await setup();
    const expected = await call();
    const requestsPerCall = fake.requests.length;
    fake.failNext('rate-limit');
    fake.failNext('server-error');
    fake.failNext('malformed');
    expect(await call()).toEqual(expected);
    expect(fake.requests.length).toBe(2 * requestsPerCall + 3);
  });

  it('retries a time-out', async () => {
    const { fake, call } = await setup();
    const expected = await call();
    fake.failNext('slow');
    expect(await call()).toEqual(expected);
  });

  it('gives up with an UpstreamError after its attempts', async () => {
    const { fake, call } = await setup();
    fake.failNext('server-error', fastRetry.attempts!);
    const failure = await call().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: 500 });
    expect(fake.requests.length).toBe(fastRetry.attempts);
  });
}
