import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../subgraphs/team/member-store.ts';
import { insertSession } from '../subgraphs/team/session-store.ts';
import { attemptsBlockedFor, countAttempt } from '../subgraphs/team/sign-in-attempt-store.ts';
import { addressSubject, claimAttempt } from '../subgraphs/team/sign-in-limits.ts';
import { setUserPassword, verifyPassword } from '../subgraphs/team/user-password.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

// A database of their own: every request of this file comes from 127.0.0.1, and the limits count per address.
let smtp: FakeSmtp;
let earshot: TestEarshot;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  earshot = await startTestEarshot({ env: { EARSHOT_SMTP_URL: smtp.url } });
  // Warmed up without counting anything: the first password check of a process also makes the stand-in
  // hash unknown addresses are checked against, and a busy machine may take longer than the request deadline.
  await verifyPassword('warm-up', null);
  await earshot.graphql('mutation { signInWithPassword(input: { email: "not an address", password: "x" }) { workspaceId } }');
});
afterAll(async () => {
  await earshot?.stop();
  await smtp?.close();
});

const password = 'correct horse battery';
const signIn = (email: string, secret: string, headers: Record<string, string> = {}) =>
  earshot.rest('POST', '/v1/auth/password', { body: { email, password: secret }, headers });
const askForLink = (email: string, headers: Record<string, string> = {}) => earshot.rest('POST', '/v1/auth/magic-link', { body: { email }, headers });

describe('sign-in limits per client address', () => {
  it('refuses every sign-in from an address after 30 failures within 15 minutes, whatever the accounts, and a forged address header changes nothing', async () => {
    await provisionWorkspace(earshot.sql, 'Limited', { ownerEmail: 'kept-out@example.com' });
    await setUserPassword(earshot.sql, 'kept-out@example.com', password);
    // Twenty failures from this address already counted (against other accounts), then ten wrong tries at one more account.
    for (let earlier = 0; earlier < 20; earlier++) await countAttempt(earshot.sql, [{ subject: 'sign-in:address:127.0.0.1', limit: 30 }]);
    for (let attempt = 0; attempt < 10; attempt++) expect((await signIn('guess@example.com', `wrong ${attempt}`)).status).toBe(401);
    const limited = await signIn('kept-out@example.com', password);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    expect(Number(limited.headers.get('retry-after'))).toBe(limited.body.error.retryAfterSeconds);
    expect(limited.headers.getSetCookie()).toEqual([]);

    // The address is the socket's, written by the public server over anything the client sends.
    const forged = await signIn('kept-out@example.com', password, { 'x-earshot-client-address': '203.0.113.9' });
    expect(forged.status).toBe(429);
    const viaGraphQL = await fetch(`${earshot.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-earshot-client-address': '198.51.100.7' },
      body: JSON.stringify({ query: 'mutation { signInWithPassword(input: { email: "kept-out@example.com", password: "correct horse battery" }) { workspaceId } }' }),
    });
    expect((await viaGraphQL.json()).errors[0].extensions.code).toBe('rate_limited');

    // That account itself never failed: only the address is counted out.
    const counts = await earshot.sql<{ subject: string; attempts: number }[]>`
      select subject, sum(attempts)::int as attempts from sign_in_attempts group by subject order by subject`;
    expect(counts).toEqual([
      { subject: 'sign-in:account:guess@example.com', attempts: 10 },
      { subject: 'sign-in:account:guess@example.com:from:127.0.0.1', attempts: 10 },
      { subject: 'sign-in:address:127.0.0.1', attempts: 30 },
    ]);
  }, 60_000);

  // Counted per account alone, ten wrong tries by a stranger locked the owner out of password sign-in for 15 minutes.
  it("keeps a stranger's failures at an account from locking its owner out: 10 per account from one address, 100 from everywhere", async () => {
    // The test before counted this file's own address out.
    await earshot.sql`delete from sign_in_attempts where subject = 'sign-in:address:127.0.0.1'`;
    await provisionWorkspace(earshot.sql, 'Targeted', { ownerEmail: 'targeted@example.com' });
    await setUserPassword(earshot.sql, 'targeted@example.com', password);
    const strangers = ['203.0.113.9', '2001:db8:7:1::5'];
    for (const stranger of strangers) {
      for (let attempt = 0; attempt < 10; attempt++) {
        await countAttempt(earshot.sql, [
          { subject: 'sign-in:account:targeted@example.com', limit: 100 },
          { subject: `sign-in:account:targeted@example.com:from:${addressSubject(stranger)}`, limit: 10 },
        ]);
      }
    }
    expect((await signIn('targeted@example.com', password)).status).toBe(200);

    // Guessing from many addresses still meets a ceiling on the account itself.
    for (let earlier = 0; earlier < 80; earlier++) await countAttempt(earshot.sql, [{ subject: 'sign-in:account:targeted@example.com', limit: 100 }]);
    const guessedOut = await signIn('targeted@example.com', password);
    expect(guessedOut.status).toBe(429);
    expect(guessedOut.body.error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: expect.any(Number) });
  }, 60_000);

  it('limits sign-in links: 5 per address asked for, 20 per client address, every request counted whether or not a user has it', async () => {
    await provisionWorkspace(earshot.sql, 'Linked', { ownerEmail: 'linked@example.com' });
    for (let request = 0; request < 5; request++) expect((await askForLink('linked@example.com')).status).toBe(202);
    const perAccount = await askForLink('Linked@Example.com');
    expect(perAccount.status).toBe(429);
    expect(perAccount.body.error).toMatchObject({ code: 'rate_limited', message: 'Too many sign-in links asked for; try again later' });
    expect(smtp.messages.filter((mail) => mail.envelope.to.includes('linked@example.com'))).toHaveLength(5);

    for (let request = 0; request < 15; request++) expect((await askForLink(`stranger-${request}@example.com`)).status).toBe(202);
    const perAddress = await askForLink('someone-new@example.com', { 'x-earshot-client-address': '192.0.2.1' });
    expect(perAddress.status).toBe(429);
    expect(Number(perAddress.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the window attempts are counted in', () => {
  /** `attempts` counted against `subject` in the minute `minutesAgo` minutes back. */
  const countedEarlier = (subject: string, attempts: number, minutesAgo: number) => earshot.sql`
    insert into sign_in_attempts (subject, window_start, attempts)
    values (${subject}, date_bin('1 minute', now() - make_interval(mins => ${minutesAgo}), timestamptz 'epoch'), ${attempts})`;

  it('slides: tries of the last 15 minutes count wherever a clock window would turn, and older ones stop counting', async () => {
    const limit = (subject: string) => [{ subject, limit: 10 }];
    await countedEarlier('test:slides:recent', 10, 14);
    const blockedFor = await attemptsBlockedFor(earshot.sql, limit('test:slides:recent'));
    // Open again once the minute of those tries has left the window: one to two minutes from now.
    expect(blockedFor).toBeGreaterThanOrEqual(60);
    expect(blockedFor).toBeLessThanOrEqual(120);

    await countedEarlier('test:slides:old', 10, 17);
    expect(await attemptsBlockedFor(earshot.sql, limit('test:slides:old'))).toBeNull();
    // The next attempt of that subject drops the bucket that left the window.
    await countAttempt(earshot.sql, limit('test:slides:old'));
    expect(await earshot.sql`select attempts from sign_in_attempts where subject = 'test:slides:old'`).toEqual([{ attempts: 1 }]);

    // Spread over the window, the 10th try closes it until the minute holding the oldest one needed leaves.
    for (const minutesAgo of [12, 8, 4]) await countedEarlier('test:slides:spread', 3, minutesAgo);
    expect(await attemptsBlockedFor(earshot.sql, limit('test:slides:spread'))).toBeNull();
    await countAttempt(earshot.sql, limit('test:slides:spread'));
    const spread = await attemptsBlockedFor(earshot.sql, limit('test:slides:spread'));
    expect(spread).toBeGreaterThanOrEqual(3 * 60);
    expect(spread).toBeLessThanOrEqual(4 * 60);
  });
});

describe('an attempt', () => {
  it('is counted before it is checked: of 20 made at once against a ceiling of 10, no more than 10 get through', async () => {
    const limits = [{ subject: 'test:at-once', limit: 10 }];
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => claimAttempt(earshot.sql, limits, 'Too many')));
    const through = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(through).toBeGreaterThan(0);
    expect(through).toBeLessThanOrEqual(10);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason.extensions).toMatchObject({ code: 'rate_limited' });
    // Those refused were taken back: what stays counted is what got through.
    const [{ counted }] = await earshot.sql<{ counted: number }[]>`select coalesce(sum(attempts), 0)::int as counted from sign_in_attempts where subject = 'test:at-once'`;
    expect(counted).toBe(through);
  });

  it('taken back (a sign-in that succeeded) counts no more, and its bucket goes once empty', async () => {
    const limits = [{ subject: 'test:taken-back', limit: 10 }];
    const takeBack = await claimAttempt(earshot.sql, limits, 'Too many');
    await claimAttempt(earshot.sql, limits, 'Too many');
    await takeBack();
    expect(await earshot.sql`select attempts from sign_in_attempts where subject = 'test:taken-back'`).toEqual([{ attempts: 1 }]);
    const second = await claimAttempt(earshot.sql, [{ subject: 'test:taken-back-alone', limit: 10 }], 'Too many');
    await second();
    expect(await earshot.sql`select attempts from sign_in_attempts where subject = 'test:taken-back-alone'`).toEqual([]);
  });
});

describe('changing a password', () => {
  it("ends the user's other sessions, in every workspace, and keeps the one that changed it", async () => {
    const first = await provisionWorkspace(earshot.sql, 'First', { ownerEmail: 'rotates@example.com' });
    const second = await provisionWorkspace(earshot.sql, 'Second');
    await addMember(earshot.sql, { workspaceId: second.workspace.id, userId: first.owner!.id, role: 'member' });
    const [current, stolen, elsewhere] = await Promise.all([
      insertSession(earshot.sql, { userId: first.owner!.id, workspaceId: first.workspace.id }),
      insertSession(earshot.sql, { userId: first.owner!.id, workspaceId: first.workspace.id }),
      insertSession(earshot.sql, { userId: first.owner!.id, workspaceId: second.workspace.id }),
    ]);
    const other = await provisionWorkspace(earshot.sql, 'Other person', { ownerEmail: 'bystander@example.com' });
    const bystander = await insertSession(earshot.sql, { userId: other.owner!.id, workspaceId: other.workspace.id });
    const whoami = (session: { token: string }) => earshot.rest('GET', '/v1/whoami', { headers: { cookie: `earshot_session=${session.token}` } });
    for (const session of [current, stolen, elsewhere]) expect((await whoami(session)).status).toBe(200);

    const changed = await earshot.rest('PUT', '/v1/auth/password', {
      headers: { cookie: `earshot_session=${current.token}`, 'x-csrf-token': current.csrfToken },
      body: { newPassword: 'a brand new password' },
    });
    expect(changed.status).toBe(204);
    expect((await whoami(current)).status).toBe(200);
    for (const session of [stolen, elsewhere]) {
      const ended = await whoami(session);
      expect(ended.status).toBe(401);
      expect(ended.body.error.code).toBe('unauthorized');
    }
    expect((await whoami(bystander)).status).toBe(200);
  });
});

describe('the address counted', () => {
  it('is an IPv4 address as is (also written as IPv6) and the /64 of an IPv6 one', () => {
    expect(addressSubject('192.0.2.10')).toBe('192.0.2.10');
    expect(addressSubject('::ffff:192.0.2.10')).toBe('192.0.2.10');
    expect(addressSubject('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressSubject('2001:db8:0:a::1')).toBe('2001:db8:0:a::/64');
    expect(addressSubject('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressSubject('::1')).toBe('0:0:0:0::/64');
  });
});
