import { z } from 'zod';

/** An e-mail address as users give it: trimmed, compared lower-cased. */
export const emailAddress = z.string().trim().max(254, 'must be at most 254 characters').pipe(z.email('must be an e-mail address'));

export const isEmailAddress = (value: string) => emailAddress.safeParse(value).success;
