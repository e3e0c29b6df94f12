import { describe, expect, it } from 'vitest';
import { repositoryEvents } from '../subgraphs/keywords/matching/repository-events.ts';

const day = 86_400_000;
const start = new Date('2026-11-01T00:00:00Z');
const at = (days: number) => new Date(start.getTime() + days * day);
const observation = (stars: number, starsLastWeek: number | null = null) => ({
  fullName: 'acme/earshot',
  stars,
  starsLastWeek,
  createdAt: new Date('2026-10-20T00:00:00Z'),
});

describe('repository events (spec 2.1.3)', () => {
  it('reports new on first sight, traction once at 10 stars within 30 days, and milestones past 100', () => {
    const first = repositoryEvents(observation(3), undefined, at(0));
    expect(first.events.map((e) => e.kind)).toEqual(['new']);

    const traction = repositoryEvents(observation(12), first.next, at(5));
    expect(traction.events.map((e) => e.kind)).toEqual(['traction']);
    expect(repositoryEvents(observation(14), traction.next, at(6)).events).toEqual([]);

    const late = repositoryEvents(observation(12), { ...first.next, firstSeenAt: at(-40) }, at(5));
    expect(late.events).toEqual([]);

    const hundred = repositoryEvents(observation(130), traction.next, at(7));
    expect(hundred.events.map((e) => e.kind)).toContain('stars');
    expect(repositoryEvents(observation(140), hundred.next, at(8)).events.map((e) => e.kind)).not.toContain('stars');
    expect(repositoryEvents(observation(260), hundred.next, at(9)).events.map((e) => e.kind)).toContain('stars');
  });

  it('knows a week of growth only from the platform or a snapshot at least a week old', () => {
    const first = repositoryEvents(observation(200), undefined, at(0));
    expect(first.events.find((e) => e.kind === 'growth')).toBeUndefined();
    const tooSoon = repositoryEvents(observation(260), first.next, at(3));
    expect(tooSoon.events.find((e) => e.kind === 'growth')).toBeUndefined();
    const week = repositoryEvents(observation(290), tooSoon.next, at(8));
    expect(week.events.find((e) => e.kind === 'growth')).toEqual({ kind: 'growth', stars: 290, weeklyStars: 90 });
    const told = repositoryEvents(observation(500, 150), undefined, at(0));
    expect(told.events.find((e) => e.kind === 'growth')).toEqual({ kind: 'growth', stars: 500, weeklyStars: 150 });
  });
});
