import { z } from 'zod';

/**
 * The instants PostgreSQL's timestamptz reads as ISO 8601 text: the years 1
 * to 9999 in UTC. JavaScript also reads year 0 and six-digit years, and an
 * offset can carry 9999-12-31 into year 10000; sent on, they failed the
 * statement (500) instead of the input (400).
 */
const earliest = Date.parse('0001-01-01T00:00:00.000Z');
const latest = Date.parse('9999-12-31T23:59:59.999Z');

export const isStorableInstant = (instant: Date) => instant.getTime() >= earliest && instant.getTime() <= latest;

/** A body's timestamp: ISO 8601 with an offset, of an instant PostgreSQL can store. */
export const timestampInput = (message: string) =>
  z.iso.datetime({ offset: true, message }).refine((text) => isStorableInstant(new Date(text)), message);
