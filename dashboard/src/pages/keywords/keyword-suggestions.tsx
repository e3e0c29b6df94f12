import type { KeywordPageQuery } from '../../graphql/graphql';
import { count, money, percent, counted } from '../../ui/format';

export type Suggestion = KeywordPageQuery['keywordSuggestions'][number];

const titles: Record<Suggestion['type'], string> = {
  excluded_terms: 'Exclude terms',
  excluded_authors: 'Exclude authors',
  required_terms: 'Require terms',
  platforms: 'Drop platforms',
  context: 'Write a context',
};

/** What applying the suggestion does, in the measured figures of spec 2.6, before anyone clicks. */
export function effectText(effect: NonNullable<Suggestion['effect']>): string {
  const { sample } = effect;
  const noiseBefore = sample.noise + sample.relevant ? sample.noise / (sample.noise + sample.relevant) : 0;
  const keptNoise = sample.noise - sample.noiseRemoved;
  const keptRelevant = sample.relevant - sample.relevantRemoved;
  const noiseAfter = keptNoise + keptRelevant ? keptNoise / (keptNoise + keptRelevant) : 0;
  return [
    `Removes ${counted(effect.noiseRemoved, 'noisy match', 'noisy matches')}`,
    `and ${count(effect.relevantRemoved)} relevant`,
    `(noise ${percent(noiseBefore)} → ${percent(noiseAfter)}),`,
    `saving ${money(effect.centsSaved)} over the last 30 days`,
    effect.exact ? '(measured on every scored match).' : `(estimated from the newest ${counted(sample.noise + sample.relevant, 'scored match', 'scored matches')}).`,
  ].join(' ');
}

/** One suggestion with its button; the page runs the apply and says how it went, as the card may be gone once applied. */
export function SuggestionCard({ suggestion, applying, onApply }: { suggestion: Suggestion; applying: boolean; onApply(): void }) {
  const headingId = `suggestion-${suggestion.type}-${suggestion.values.join('-')}`.replace(/\W+/g, '-');
  return (
    <article class="suggestion" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {titles[suggestion.type]}: {suggestion.values.join(', ')}
        {suggestion.source === 'ai' && <span class="chip"> AI</span>}
      </h3>
      <p>{suggestion.why}</p>
      {suggestion.effect && <p class="effect">{effectText(suggestion.effect)}</p>}
      <details>
        <summary>The exact change</summary>
        <pre class="secret">{JSON.stringify(suggestion.patch, null, 2)}</pre>
      </details>
      <button type="button" disabled={applying} onClick={onApply}>
        {applying ? 'Applying…' : `Apply: ${titles[suggestion.type].toLowerCase()} ${suggestion.values.join(', ')}`}
      </button>
    </article>
  );
}
