import { describe, expect, it } from 'vitest';
import { createBuiltInClassifier } from '../classifier/built-in-classifier.ts';
import type { ClassificationInput, ClassifiedKeyword } from '../classifier/classifier-types.ts';
import type { KeywordKind } from '../vocabulary/keyword-kinds.ts';
import type { Platform } from '../vocabulary/normalized-post.ts';
import { relevanceLine } from '../vocabulary/relevance.ts';

/**
 * A keyword as a new user first creates it: a term that is also an everyday
 * word, a kind, and nothing that names its sense (no context, no group
 * description, no company profile). None of these terms or posts is in an
 * evaluation set.
 */
function bare(term: string, kind: KeywordKind = 'brand'): ClassifiedKeyword {
  return { id: `kw_${term.toLowerCase()}`, term, kind, context: null, groupDescription: null };
}

let sequence = 0;
function post(term: string, text: string, platform: Platform = 'reddit', kind: KeywordKind = 'brand'): ClassificationInput {
  sequence++;
  return {
    mentionId: `mm_${sequence}`,
    post: {
      platform,
      url: `https://${platform}.example/${sequence}`,
      text,
      publishedAt: new Date('2025-03-01T09:00:00Z'),
      links: [],
      author: { platformId: `p${sequence}`, name: `p${sequence}`, handle: `p${sequence}`, url: `https://${platform}.example/u/p${sequence}`, avatarUrl: null, followers: 40 },
    },
    keyword: bare(term, kind),
    company: null,
  };
}

const classifier = createBuiltInClassifier();

async function relevanceOf(inputs: ClassificationInput[]): Promise<{ text: string; relevance: number; note: string }[]> {
  const outcomes = await classifier.classifyBatch(inputs);
  return outcomes.map((outcome, index) => {
    if (!outcome.ok) throw new Error(outcome.error);
    return { text: inputs[index].post.text, relevance: outcome.classification.relevance, note: outcome.classification.note };
  });
}

describe('built-in classifier, a keyword with nothing that names its sense', () => {
  it('scores posts that use an everyday-word brand as a name at or above the relevance line', async () => {
    const scored = await relevanceOf([
      post('Lantern', 'Has anyone tried Lantern for uptime monitoring? Thinking of dropping our current setup.'),
      post('Lantern', 'Lantern support took three days to answer a billing question.'),
      post('Beacon', 'Beacon vs Plausible for a small blog, which would you pick?'),
      post('Beacon', 'We moved to Beacon last quarter and the onboarding was painless'),
      post('Pebble', 'pebble is a solid app for splitting rent with roommates'),
      post('Pebble', 'Pebble Inc just raised its prices again'),
      post('Quill', 'Been using Quill for invoices for a year now, no complaints'),
      post('Quill', "Can't log in to my Quill account since this morning, anyone else?"),
      post('Sprout', 'Thinking about paying for Sprout, is the pro plan worth it?'),
      post('Marble', 'The new Marble release finally adds dark mode'),
      post('Harbor', "Harbor's pricing page is confusing, what does a seat cost?"),
      post('Thicket', 'Cancelled Thicket today, the sync kept breaking', 'x', 'competitor'),
      post('Anchor', 'Anchor is the easiest podcast hosting service around'),
      post('Canvas', 'canvas down again?? cant submit my assignment'),
      post('Acme', 'Acme is great'),
      post('Acme', 'Acme is terrible, support never replies'),
      post('Quill', 'Quill is honestly worth it for freelancers'),
      post('Acme', 'Show HN: Acme – a faster way to ship', 'hackernews'),
      post('Acme', 'Acme raises $10M Series A', 'news'),
      post('Acme', 'Acme rocks!', 'x'),
      post('Pebble', 'Crashes every time I open it after the last update.', 'appstore'),
    ]);
    expect(scored.filter(({ relevance }) => relevance < relevanceLine)).toEqual([]);
  });

  it('keeps posts that use the everyday word, an idiom or another name below the line', async () => {
    const scored = await relevanceOf([
      post('Earshot', 'She was out of earshot when I called her name.'),
      post('Acme', 'That dessert was the acme of French pastry.'),
      post('Lantern', 'We hung a paper lantern over the porch for the party.'),
      post('Pebble', "There's a pebble stuck in my shoe again."),
      post('Beacon', 'The lighthouse beacon was visible for miles.'),
      post('Sprout', 'Every sprout in the garden came up after the rain.'),
      post('Harbor', 'Harbor Freight has a sale on drills this weekend.'),
      post('Anchor', 'The anchor went down with the ship.'),
      post('Sage', 'He was a sage advisor to three presidents.'),
      post('Sage', 'The sage is great in this stuffing recipe.'),
      post('Anchor', 'The anchor released its grip on the seabed.'),
      post('Harbor', 'We walked along the Harbor at sunset and watched the boats come in.'),
    ]);
    expect(scored.filter(({ relevance }) => relevance >= relevanceLine)).toEqual([]);
  });

  it('leaves a keyword whose context names the sense to that context', async () => {
    const described: ClassifiedKeyword = { ...bare('Lantern'), context: 'Lantern, the camping lights and outdoor gear shop' };
    const text = 'Has anyone tried Lantern for uptime monitoring? Thinking of dropping our current setup.';
    const [withContext, without] = await relevanceOf([{ ...post('Lantern', text), keyword: described }, post('Lantern', text)]);
    expect(withContext.note).not.toContain('used as a name');
    expect(without.note).toContain('used as a name');
  });
});
