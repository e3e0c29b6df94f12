import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { execute } from '../../api/graphql-client';
import { useAction, useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { WalletPageQuery } from '../../graphql/graphql';
import { DailyChart } from '../../ui/daily-chart';
import { TextField } from '../../ui/fields';
import { count, dateTime, money, counted } from '../../ui/format';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { PageHeader, PageLoading, Section } from '../../ui/page';
import { DataTable } from '../../ui/data-table';
import { ActionForm } from '../../ui/action-form';
import { Figures } from '../../ui/figures';

const WalletPageDocument = graphql(`
  query WalletPage($month: String) {
    wallet {
      status
      balanceCents
      pendingCents
      effectiveCents
      dailyBurnCents
      daysLeft
      nextDayCents
      activeKeywords
      pausedKeywords
      cappedKeywords
      mutedKeywords
      onWelcomeCredit
      welcomeCredit { cents capMentions }
      lastTopUp { amountCents creditedAt source }
      topUpBounds { minCents maxCents }
    }
    usage { matchesToday commentsToday monthToDateCents }
    usageDays(days: 30) { day spentCents matches }
    usageBreakdown(month: $month) {
      month
      keywords { keywordId term deleted keywordDays keywordCents billableMentions mentionCents billableComments commentCents totalCents }
      totals { keywordDays keywordCents billableMentions mentionCents billableComments commentCents totalCents }
    }
  }
`);

const StartTopUpDocument = graphql(`
  mutation StartTopUp($input: StartTopUpInput!) {
    startTopUp(input: $input) { id checkoutUrl }
  }
`);

const ConfirmTopUpDocument = graphql(`
  mutation ConfirmTopUp($id: ID!) {
    confirmTopUp(id: $id) { id status amountCents }
  }
`);

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** The months a breakdown can be asked for: this one and the eleven before it. */
function recentMonths(): string[] {
  const now = new Date();
  return Array.from({ length: 12 }, (_, back) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7));
}

/** A month's cost figures (spec 2.1.4 `cost`): count and cents of each charged item, then the total. */
function CostCells({ cost }: { cost: WalletPageQuery['usageBreakdown']['totals'] }) {
  return (
    <>
      <td class="number">
        {count(cost.keywordDays)} · {money(cost.keywordCents)}
      </td>
      <td class="number">
        {count(cost.billableMentions)} · {money(cost.mentionCents)}
      </td>
      <td class="number">
        {count(cost.billableComments)} · {money(cost.commentCents)}
      </td>
      <td class="number">{money(cost.totalCents)}</td>
    </>
  );
}

/** Stripe Checkout sends the payer back to `/?top_up=…&status=paid|cancelled`; the shell forwards it here. */
function TopUpReturn({ orderId, status, onCredited }: { orderId: string; status: string; onCredited(): void }) {
  const confirm = useAction(async () => {
    const { confirmTopUp } = await execute(ConfirmTopUpDocument, { id: orderId });
    onCredited();
    return `${money(confirmTopUp.amountCents)} was added to the wallet.`;
  });
  const asked = useRef(false);
  useEffect(() => {
    if (status !== 'paid' || asked.current) return;
    asked.current = true;
    void confirm.run();
  }, [orderId, status]);
  if (status !== 'paid') return <Notice tone="warning">The top-up was cancelled; nothing was charged.</Notice>;
  if (confirm.outcome) return <Notice tone="success">{confirm.outcome}</Notice>;
  if (confirm.error) return <ErrorNotice error={confirm.error} title="The payment is not credited yet" />;
  // Before the confirmation runs, and after a later action cleared what it said.
  return confirm.busy || !asked.current ? <Loading label="Confirming the payment" /> : null;
}

/** Balance, days left, burn, daily spend and matches, the per-keyword breakdown by month, and top-ups through Stripe Checkout (spec 2.11, 4.4). */
export default function WalletPage() {
  const { query } = useLocation();
  const [month, setMonth] = useState(thisMonth);
  const page = useQuery(WalletPageDocument, { month });
  const [amount, setAmount] = useState('50');
  const topUp = useAction(async () => {
    const { startTopUp } = await execute(StartTopUpDocument, { input: { amountCents: Math.round(Number(amount) * 100) } });
    if (startTopUp.checkoutUrl) location.assign(startTopUp.checkoutUrl);
  });

  if (!page.data) {
    return <PageLoading title="Wallet & usage" error={page.error} label="Loading the wallet" />;
  }
  const { wallet, usage, usageDays, usageBreakdown } = page.data;
  const bounds = wallet.topUpBounds;

  return (
    <>
      <PageHeader title="Wallet & usage" />
      {query.top_up && <TopUpReturn orderId={query.top_up} status={query.status ?? ''} onCredited={() => void page.refetch()} />}
      {wallet.status === 'paused' && <Notice tone="warning">The wallet cannot cover another day: every keyword is paused until a top-up.</Notice>}
      {wallet.status === 'low' && <Notice tone="warning">The balance is low: under a fifth of the last credit.</Notice>}
      <Figures
        figures={[
          ['Balance', money(wallet.balanceCents)],
          ['After pending charges', money(wallet.effectiveCents)],
          ['Burn a day', money(wallet.dailyBurnCents)],
          ['Days left', wallet.daysLeft ?? '—'],
          ['Spent this month', money(usage.monthToDateCents)],
          ['Matches today', count(usage.matchesToday)],
        ]}
      />
      <p class="muted">
        {counted(wallet.activeKeywords, 'keyword')} running, {count(wallet.pausedKeywords)} paused for balance, {count(wallet.cappedKeywords)} at their cap, {count(wallet.mutedKeywords)} muted.
        {wallet.onWelcomeCredit && ` On the ${money(wallet.welcomeCredit.cents)} welcome credit: at most ${counted(wallet.welcomeCredit.capMentions, 'mention')} per keyword a month until the first top-up.`}
        {wallet.lastTopUp && ` Last credit ${money(wallet.lastTopUp.amountCents)} on ${dateTime(wallet.lastTopUp.creditedAt)}.`}
      </p>

      <Section title="Top up">
        <ActionForm class="top-up" onSubmit={() => void topUp.run()}>
          <TextField
            label="Amount in dollars"
            type="number"
            min={bounds.minCents / 100}
            max={bounds.maxCents / 100}
            step={0.01}
            required
            value={amount}
            onInput={setAmount}
            hint={`${money(bounds.minCents)} to ${money(bounds.maxCents)}; paid on Stripe's checkout page`}
          />
          <button type="submit" disabled={topUp.busy}>
            {topUp.busy ? 'Opening checkout…' : 'Top up with Stripe'}
          </button>
        </ActionForm>
        <ErrorNotice error={topUp.error} />
      </Section>

      <Section title="Daily spend and matches, last 30 days">
        <DailyChart days={usageDays} title="Daily spend and matches (UTC days)" />
      </Section>

      <Section title="Cost by keyword">
        <label class="inline-select">
          <span>Month (UTC)</span>
          <select value={month} onChange={(event) => setMonth(event.currentTarget.value)}>
            {recentMonths().map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <DataTable
          label={`Cost by keyword in ${usageBreakdown.month}`}
          columns={['Keyword', { label: 'Keyword days', number: true }, { label: 'Mentions', number: true }, { label: 'Comments', number: true }, { label: 'Total', number: true }]}
          footer={
            <tr>
              <th scope="row">All keywords</th>
              <CostCells cost={usageBreakdown.totals} />
            </tr>
          }
        >
          {usageBreakdown.keywords.map((row) => (
            <tr key={row.keywordId}>
              <th scope="row">{row.deleted ? <span class="muted">{row.keywordId} (deleted)</span> : <a href={`/keywords/${row.keywordId}`}>{row.term}</a>}</th>
              <CostCells cost={row} />
            </tr>
          ))}
        </DataTable>
      </Section>
    </>
  );
}
