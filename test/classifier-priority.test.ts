import { describe, expect, it } from 'vitest';
import { mentionPriority, type PriorityInput } from '../subgraphs/mentions/mention-priority.ts';

const now = new Date('2025-03-01T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
const base: PriorityInput = { relevance: 70, intents: [], followers: 500, publishedAt: hoursAgo(2), now };

describe('mention priority', () => {
  it('ranks by relevance first: no reach or intent lifts an irrelevant mention over a relevant one', () => {
    const relevantQuiet = mentionPriority({ ...base, relevance: 40, followers: 0, publishedAt: hoursAgo(24 * 30) });
    const irrelevantLoud = mentionPriority({ ...base, relevance: 39, intents: ['buy_intent', 'complaint'], followers: 5_000_000, publishedAt: now });
    expect(irrelevantLoud).toBeLessThan(relevantQuiet);
    expect(mentionPriority({ ...base, relevance: 90 })).toBeGreaterThan(mentionPriority({ ...base, relevance: 60 }));
  });

  it('orders intents by what is at stake: buying, then complaints, then questions and comparisons, then praise', () => {
    const scores = (['buy_intent', 'complaint', 'question', 'praise'] as const).map((intent) => mentionPriority({ ...base, intents: [intent] }));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(scores).size).toBe(4);
    expect(mentionPriority({ ...base, intents: ['comparison'] })).toBe(mentionPriority({ ...base, intents: ['question'] }));
    expect(mentionPriority({ ...base, intents: ['praise'] })).toBeGreaterThan(mentionPriority(base));
  });

  it('grows with reach and fades with age, within 0 to 100', () => {
    expect(mentionPriority({ ...base, followers: 100_000 })).toBeGreaterThan(mentionPriority({ ...base, followers: 100 }));
    expect(mentionPriority({ ...base, followers: null })).toBe(mentionPriority({ ...base, followers: 0 }));
    expect(mentionPriority({ ...base, publishedAt: hoursAgo(1) })).toBeGreaterThan(mentionPriority({ ...base, publishedAt: hoursAgo(48) }));
    expect(mentionPriority({ ...base, publishedAt: new Date(now.getTime() + 60_000) })).toBe(mentionPriority({ ...base, publishedAt: now }));
    const highest = mentionPriority({ relevance: 100, intents: ['buy_intent', 'complaint', 'question', 'comparison', 'praise'], followers: 10_000_000, publishedAt: now, now });
    expect(highest).toBe(100);
    expect(mentionPriority({ ...base, relevance: 0 })).toBe(0);
  });
});
