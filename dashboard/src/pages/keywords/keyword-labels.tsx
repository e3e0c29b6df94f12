import type { KeywordHealthStatus, KeywordKind } from '../../graphql/graphql';

/** How keyword states read in lists and on the keyword's page (spec 2.1, 2.1.4). */

export const kindOptions: [KeywordKind, string][] = [
  ['brand', 'Brand'],
  ['competitor', 'Competitor'],
  ['topic', 'Topic'],
];

const healthTone: Record<KeywordHealthStatus, string> = {
  healthy: 'chip-good',
  new: '',
  quiet: 'chip-warn',
  noisy: 'chip-bad',
  capped: 'chip-warn',
  paused: 'chip-bad',
};

/** Why a keyword is muted, if it is: the wallet, the noise brake or the user. */
export function pauseReason(keyword: { muted: boolean; pausedForBalance: boolean; pausedForNoise: boolean; pausedForCap: boolean }): string | undefined {
  if (keyword.pausedForBalance) return 'paused: balance';
  if (keyword.pausedForNoise) return 'paused: noise brake';
  if (keyword.muted) return 'muted';
  if (keyword.pausedForCap) return 'at its cap';
  return undefined;
}

export function HealthChip({ keyword }: { keyword: { stats: { health: KeywordHealthStatus }; muted: boolean; pausedForBalance: boolean; pausedForNoise: boolean; pausedForCap: boolean } }) {
  const reason = pauseReason(keyword);
  return (
    <>
      <span class={`chip ${healthTone[keyword.stats.health]}`}>{keyword.stats.health}</span>
      {reason && <span class="muted"> {reason}</span>}
    </>
  );
}

/** Share of scored matches that were noise over 14 days; null with nothing scored. */
export const noiseShare = (noise: { scored: number; relevant: number }): number | null => (noise.scored ? (noise.scored - noise.relevant) / noise.scored : null);
