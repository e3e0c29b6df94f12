import { z } from 'zod';

/** An e-mail address as users give it: trimmed, compared lower-cased. */
// Described as the address it must be: the pipe alone shows clients the text it starts as.
export const emailAddress = z.string().trim().max(254, 'must be at most 254 characters').pipe(z.email('must be an e-mail address')).meta({ format: 'email' });

export const isEmailAddress = (value: string) => emailAddress.safeParse(value).success;
