import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import { relevanceLine } from '../vocabulary/relevance.ts';
import { eventually, startTestEarshot, type TestEarshot } from './harness.ts';
import { redditPost } from './scored-mentions.ts';

/**
 * A week of posts for "Mercury", replayed day by day through the real score
 * job, as two workspaces track the same term with the same context: one
 * judges the first two days (20 verdicts, issue 19 point 4), the other never
 * judges. The tracked sense is the startup bank; the car insurer and the
 * outboard motors of the same name are the noise its context does not rule
 * out. `bank` marks the tracked sense.
 */
const context = 'Mercury, the online bank for startups: business checking, debit cards, wires and treasury';
const week: { text: string; bank: boolean }[][] = [
  [
    { text: 'Opened a Mercury account for the LLC today, onboarding took ten minutes and the debit cards ship this week', bank: true },
    { text: 'Mercury Insurance raised my car premium by 30% at renewal with no claims, time to shop around', bank: false },
    { text: 'Is Mercury fine for a two-founder startup or should we stay with a big bank for wire transfers?', bank: true },
    { text: 'The Mercury 150 outboard on our bass boat finally needs a new water pump impeller', bank: false },
    { text: 'Switched payroll funding to Mercury and the ACH transfers now land a day earlier', bank: true },
    { text: 'Filed a claim with Mercury Insurance after the hail storm and the adjuster came out in two days', bank: false },
    { text: 'Mercury treasury pays interest on the idle cash of our seed round, better than our old savings account', bank: true },
    { text: 'Anyone running a Mercury Verado on a center console? Wondering about fuel burn at cruise', bank: false },
    { text: 'Mercury froze our business account for a compliance review and support only answers by email', bank: true },
    { text: 'Mercury Insurance customer service kept me on hold for an hour to add my teenage driver to the policy', bank: false },
  ],
  [
    { text: 'Mercury invoicing lets our customers pay by card and the money lands in checking the next day', bank: true },
    { text: 'Mercury outboard dealer quoted 900 for the 100 hour service on the boat motor, is that normal?', bank: false },
    { text: 'Sent an international wire from Mercury to a contractor in Portugal, fees lower than expected', bank: true },
    { text: 'Mercury Insurance denied the rental car reimbursement even though my policy lists it', bank: false },
    { text: 'Mercury added virtual cards per vendor, now every SaaS subscription has its own card and limit', bank: true },
    { text: 'Winterizing the Mercury outboard: fogging oil, stabilizer in the tank, drain the lower unit', bank: false },
    { text: 'Mercury or Brex for a pre-seed startup bank account? We mostly need cards and wires', bank: true },
    { text: 'Got a quote from Mercury Insurance for home and auto bundled and it beat the big names', bank: false },
    { text: 'Mercury support reopened our account after the review and apologised for the delay', bank: true },
    { text: 'The Mercury prop on my pontoon boat hit a rock, the dealer says the gearcase is fine', bank: false },
  ],
  [
    { text: 'Moved our operating cash to Mercury and connected it to the accounting software in five minutes', bank: true },
    { text: 'Mercury Insurance paid the collision claim in a week, no complaints about the body shop either', bank: false },
    { text: 'Mercury debit card was declined abroad even with a travel notice set, anyone else?', bank: true },
    { text: 'Mercury 9.9 kicker motor will not idle below 1000 rpm after sitting all winter', bank: false },
    { text: 'Mercury raised FDIC sweep coverage so our whole round is insured across partner banks', bank: true },
    { text: 'Mercury Insurance policy renewal letter says my deductible doubled, is that legal in California?', bank: false },
    { text: 'Our accountant likes Mercury because transaction exports match the statements line for line', bank: true },
    { text: 'Repowered the old boat with a Mercury four stroke and it is half as loud at the dock', bank: false },
    { text: 'Mercury approval took three days for our Delaware C corp with a foreign founder', bank: true },
    { text: 'Mercury Insurance app lets you upload photos of the damage but the claim still took a month', bank: false },
  ],
  [
    { text: 'Paid our first contractor invoices from Mercury with scheduled payments and approvals', bank: true },
    { text: 'Mercury outboard warranty covered the powerhead failure at 80 hours, great dealer support', bank: false },
    { text: 'Mercury customer support fixed a failed ACH return in an hour, better than any big bank', bank: true },
    { text: 'Switched my auto policy to Mercury Insurance and saved 400 a year on two cars', bank: false },
    { text: 'We closed our Mercury account after they stopped serving our country, moving to Wise', bank: true },
    { text: 'Mercury trim and tilt stuck in the down position, is it the relay or the pump?', bank: false },
    { text: 'Mercury bill pay reads the invoice PDF and fills in the amount and due date for us', bank: true },
    { text: 'Mercury Insurance total loss offer on my car was way below market value, how do I negotiate?', bank: false },
    { text: 'Mercury card spend limits per employee finally stopped the surprise software charges', bank: true },
    { text: 'Mercury 115 versus Yamaha 115 on an aluminum fishing boat, which holds value better?', bank: false },
  ],
  [
    { text: 'Mercury treasury yield dropped this month but the cash is still better there than in checking', bank: true },
    { text: 'Mercury Insurance agent added roadside assistance to my policy for six dollars a month', bank: false },
    { text: 'Mercury wire to Germany arrived the next day and the exchange rate was fair', bank: true },
    { text: 'The Mercury outboard on the rental boat cut out twice in the middle of the lake', bank: false },
    { text: 'Our startup got a Mercury venture debt offer alongside the bank account', bank: true },
    { text: 'Mercury Insurance canceled my policy over one late payment, now nobody will quote me', bank: false },
    { text: 'Mercury statements and receipt matching saved our bookkeeper hours at month end', bank: true },
    { text: 'Mercury SmartCraft gauges show the engine hours and fuel flow on the boat console', bank: false },
    { text: 'Set up Mercury user roles so our bookkeeper can view transactions but not send payments', bank: true },
    { text: 'Mercury Insurance claim for a cracked windshield was approved over the phone in ten minutes', bank: false },
  ],
  [
    { text: 'Mercury sent a 1099 for the interest on our treasury account, easy to file', bank: true },
    { text: 'Changing the lower unit oil on a Mercury outboard takes twenty minutes with a pump', bank: false },
    { text: 'Is Mercury safe after the partner bank news? We keep payroll and taxes in the account', bank: true },
    { text: 'Mercury Insurance rates for young drivers in Texas are the lowest I found', bank: false },
    { text: 'Applied to Mercury for our nonprofit and they asked for the bylaws and the board list', bank: true },
    { text: 'Mercury outboard impeller kit and thermostat replaced, the motor runs cool again', bank: false },
    { text: 'Mercury mobile app makes approving bill payments from my phone painless', bank: true },
    { text: 'Mercury Insurance adjuster wrote the estimate before even looking at the bumper', bank: false },
    { text: 'We pay our whole remote team from Mercury through the payroll integration', bank: true },
    { text: 'Mercury 25 horsepower tiller is the perfect motor for a small jon boat', bank: false },
  ],
  [
    { text: 'Mercury account statements for the audit were one click, the auditors were impressed', bank: true },
    { text: 'Mercury Insurance premium went up again after my neighbor filed a claim, makes no sense', bank: false },
    { text: 'Mercury finally supports check deposits by photo for our business account', bank: true },
    { text: 'Mercury outboard rebuilt carburetor and now it starts on the first pull', bank: false },
    { text: 'Wire from our investor landed in Mercury the same afternoon, closing went smoothly', bank: true },
    { text: 'Mercury Insurance gave me a discount for the telematics driving app', bank: false },
    { text: 'Mercury cashback card pays 1.5% on our ad spend, which adds up fast', bank: true },
    { text: 'Mercury Racing engines on the offshore powerboats at the poker run were insane', bank: false },
    { text: 'Mercury two factor login on a new laptop needed support to reset, took a day', bank: true },
    { text: 'Mercury Insurance home policy would not cover the water damage from the roof leak', bank: false },
  ],
];

const taughtDays = 2;

let earshot: TestEarshot;

/** A workspace tracking "Mercury" in the bank's sense. */
async function trackingWorkspace(name: string) {
  const created = await earshot.createWorkspace(name);
  const keyword = await earshot.rest('POST', '/v1/keywords', { key: created.apiKey, body: { term: 'Mercury', context, platforms: [] } });
  expect(keyword.status, JSON.stringify(keyword.body)).toBe(201);
  return { key: created.apiKey, workspaceId: created.workspace.id, keywordId: keyword.body.id as string };
}

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(() => earshot?.stop());

/** The noise share of what a keyword keeps as relevant: off-sense posts over all posts scored relevant. */
function noiseShare(scored: { relevance: number; bank: boolean }[]): number {
  const kept = scored.filter((post) => post.relevance >= relevanceLine);
  return kept.filter((post) => !post.bank).length / kept.length;
}

describe('verdicts that teach (issue 19 point 4)', () => {
  it("replays a week: 20 verdicts on the first two days lower the noise share of the next five days' posts", async () => {
    const taught = await trackingWorkspace('Taught');
    const untaught = await trackingWorkspace('Untaught');
    const scored: { day: number; bank: boolean; taught: number; untaught: number }[] = [];
    const start = Date.parse('2026-03-02T08:00:00Z');

    for (const [day, posts] of week.entries()) {
      const items = posts.map(({ text }, i) => ({ ...redditPost(text), publishedAt: new Date(start + day * 86_400_000 + i * 3_600_000) }));
      const stored = await storeMatchedPosts(
        earshot.sql,
        items.map((post) => ({
          post,
          matches: [taught, untaught].map(({ keywordId, workspaceId }) => ({ keywordId, workspaceId, fuzzy: false })),
        })),
      );
      const ids = stored.map((mention) => mention.id);
      await earshot.sendJob('score', { mentionIds: ids });
      const rows = await eventually(
        () => earshot.sql<{ id: string; keywordId: string; text: string; relevance: number | null }[]>`
          select m.id, m.keyword_id, p.text, m.relevance from mentions m join posts p on p.id = m.post_id where m.id = any(${ids})`,
        (rows) => rows.every((row) => row.relevance !== null),
      );
      for (const post of posts) {
        const byKeyword = (keywordId: string) => rows.find((row) => row.keywordId === keywordId && row.text === post.text)!;
        scored.push({ day, bank: post.bank, taught: byKeyword(taught.keywordId).relevance!, untaught: byKeyword(untaught.keywordId).relevance! });
        if (day < taughtDays) {
          const response = await earshot.rest('PATCH', `/v1/mentions/${byKeyword(taught.keywordId).id}`, { key: taught.key, body: { relevant: post.bank } });
          expect(response.status).toBe(200);
        }
      }
    }

    const verdicts = await earshot.sql<{ n: number }[]>`select count(*)::int as n from mentions where keyword_id = ${taught.keywordId} and verdict_relevant is not null`;
    expect(verdicts[0].n).toBe(20);
    const later = scored.filter((post) => post.day >= taughtDays);
    expect(later).toHaveLength(50);
    const before = noiseShare(later.map((post) => ({ relevance: post.untaught, bank: post.bank })));
    const after = noiseShare(later.map((post) => ({ relevance: post.taught, bank: post.bank })));
    const recall = (relevance: 'taught' | 'untaught') => later.filter((post) => post.bank && post[relevance] >= relevanceLine).length / later.filter((post) => post.bank).length;
    console.info(
      `noise share of days 3-7 before verdicts ${(before * 100).toFixed(0)}%, after 20 verdicts ${(after * 100).toFixed(0)}%;` +
        ` tracked-sense posts kept ${(recall('untaught') * 100).toFixed(0)}% → ${(recall('taught') * 100).toFixed(0)}%`,
    );
    expect(before).toBeGreaterThan(0.1);
    expect(after).toBeLessThan(before / 2);
    // Teaching away the noise must not teach away the tracked sense.
    expect(recall('taught')).toBeGreaterThanOrEqual(0.9);
    // Until the verdicts exist, both workspaces score alike.
    for (const post of scored.filter((post) => post.day === 0)) expect(post.taught).toBe(post.untaught);
  });
});
