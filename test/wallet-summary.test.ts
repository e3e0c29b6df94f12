import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditWalletByOperator } from '../subgraphs/billing/credits.ts';
import { addKeywords, chargeMentions } from './billing-seed.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let apiKey: string;

const summaryFields = `status balanceCents pendingCents effectiveCents dailyBurnCents daysLeft nextDayCents resumeCostCents
  activeKeywords pausedKeywords cappedKeywords mutedKeywords lastCreditCents lowBalanceCents onWelcomeCredit
  welcomeCredit { cents active capMentions capPer } topUpBounds { minCents maxCents }`;
const restOfTheWallet = `lastTopUp { amountCents source orderId } autoRecharge { enabled state } thisMonth { billableMentions mentionCents totalCents }`;

beforeAll(async () => {
  earshot = await startTestEarshot();
  const created = await earshot.createWorkspace('Wallet summary');
  apiKey = created.apiKey;
  const now = new Date();
  const [keyword] = await addKeywords(earshot.sql, created.workspace.id, 3);
  await earshot.sql`update keywords set muted = true where id in (select id from keywords where workspace_id = ${created.workspace.id} and id <> ${keyword.id} limit 1)`;
  // Charges two days ago count in the daily burn (the last 7 whole days) and, in most of a month, in this month's cost.
  await chargeMentions(earshot.sql, keyword, 4, new Date(now.getTime() - 2 * 86_400_000));
  await creditWalletByOperator(earshot.sql, { workspaceId: created.workspace.id, cents: 1234, at: now });
});
afterAll(async () => {
  await earshot?.stop();
});

async function walletOf(query: string) {
  const response = await earshot.graphql(query, {}, apiKey);
  expect(response.body.errors).toBeUndefined();
  return response.body.data;
}

describe('a wallet asked for its figures alone', () => {
  it('answers them as the whole wallet does, asked directly and through the workspace', async () => {
    const { wallet: whole } = await walletOf(`{ wallet { ${summaryFields} ${restOfTheWallet} } }`);
    const { lastTopUp, autoRecharge, thisMonth, ...figures } = whole;
    // The seeding shows in the figures: a muted keyword, last week's charges beside the keyword days, the operator's credit.
    expect(figures).toMatchObject({ activeKeywords: 2, mutedKeywords: 1, lastCreditCents: 1234 });
    expect(figures.dailyBurnCents).toBeGreaterThan(figures.nextDayCents);
    expect(lastTopUp).toEqual({ amountCents: 1234, source: 'operator', orderId: null });
    expect(autoRecharge.enabled).toBe(false);

    expect((await walletOf(`{ wallet { ${summaryFields} } }`)).wallet).toEqual(figures);
    expect((await walletOf(`{ whoami { workspace { wallet { ${summaryFields} } } } }`)).whoami.workspace.wallet).toEqual(figures);
    expect((await walletOf(`{ whoami { workspace { wallet { ${summaryFields} ${restOfTheWallet} } } } }`)).whoami.workspace.wallet).toEqual(whole);
  });

  it('reads the rest of the wallet when a fragment or a field beyond the figures asks for it', async () => {
    const { wallet: whole } = await walletOf(`{ wallet { ${summaryFields} ${restOfTheWallet} } }`);
    expect((await walletOf(`{ wallet { balanceCents ...month } } fragment month on Wallet { thisMonth { billableMentions mentionCents totalCents } }`)).wallet).toEqual({
      balanceCents: whole.balanceCents,
      thisMonth: whole.thisMonth,
    });
    expect((await walletOf(`{ wallet { status ... on Wallet { lastTopUp { amountCents source orderId } } } }`)).wallet).toEqual({ status: whole.status, lastTopUp: whole.lastTopUp });
    expect((await walletOf(`{ wallet { balanceCents autoRecharge { enabled state } } }`)).wallet).toEqual({ balanceCents: whole.balanceCents, autoRecharge: whole.autoRecharge });
  });
});
