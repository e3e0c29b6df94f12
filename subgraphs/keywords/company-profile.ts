import { isIPv4 } from 'node:net';
import { z } from 'zod';
import type { Sql } from '../../runtime/database.ts';
import type { PothosBuilder } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput } from '../validate-input.ts';
import { type CompanyProfileRow, findCompanyProfile, saveCompanyProfile } from './workspace-settings-store.ts';

/** Free text that null or blank clears. */
const profileText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .transform((value) => (value === null || value.trim() === '' ? null : value.trim()));

/** A site address; `acme.com` is read as `https://acme.com`. */
const website = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  // Described as the addresses it takes: a host with a dot, an optional http(s) scheme and path, or '' (which clears it, as null does).
  .meta({ pattern: '^(?:(?:[Hh][Tt][Tt][Pp][Ss]?://)?[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+(?:[/?#]\\S*)?)?$' })
  .nullable()
  .transform((value, ctx) => {
    if (value === null || value === '') return null;
    const withScheme = /^https?:\/\//i.test(value) ? value : `https://${value}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a web address such as https://acme.com' });
      return z.NEVER;
    }
    // The host as written: the URL parser reads a number as an IPv4 address, so "1" became https://0.0.0.1.
    const written = withScheme.replace(/^https?:\/\//i, '').split(/[/?#:]/)[0].toLowerCase();
    if (!url.hostname.includes('.') || url.username || url.password || (isIPv4(url.hostname) && url.hostname !== written)) {
      ctx.addIssue({ code: 'custom', message: 'must be a web address such as https://acme.com' });
      return z.NEVER;
    }
    return url.pathname === '/' && !url.search && !url.hash ? url.origin : url.href;
  });

const competitorList = z
  .array(z.string().trim().min(1, 'must be 1 to 100 characters').max(100, 'must be 1 to 100 characters'))
  .max(50, 'at most 50 items')
  .nullable()
  .transform((names) => {
    const seen = new Set<string>();
    return (names ?? []).filter((name) => !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()));
  });

/**
 * PATCH /v1/company-profile (spec 2.11 item 6): what the classifier reads
 * about the company for every keyword of the default group. Omitted fields
 * stay; null or blank clears one.
 */
export const companyProfilePatchInput = z.strictObject({
  name: profileText(100).optional().meta({ description: 'The company or product name, up to 100 characters' }),
  description: profileText(2000).optional().meta({ description: 'What the company does, up to 2000 characters' }),
  website: website.optional().meta({ description: 'Its web address, up to 500 characters; `acme.com` is stored as `https://acme.com`' }),
  competitors: competitorList.optional().meta({ description: 'At most 50 names of 1 to 100 characters, duplicates (any case) dropped; replaces the list' }),
  guidelines: profileText(4000).optional().meta({ description: 'What counts as relevant and what does not, up to 4000 characters' }),
});

export async function patchCompanyProfile(sql: Sql, workspaceId: string, rawPatch: unknown): Promise<CompanyProfileRow> {
  const patch = parseInput(companyProfilePatchInput, rawPatch);
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) return findCompanyProfile(sql, workspaceId);
  return saveCompanyProfile(sql, workspaceId, changes);
}

/** The CompanyProfile type, its query and its PATCH mutation. */
export function addCompanyProfileSchema(builder: PothosBuilder) {
  const CompanyProfile = builder.objectRef<CompanyProfileRow>('CompanyProfile').implement({
    description: 'What the classifier reads about the company (spec 2.11 item 6); the default group reads it as its description',
    fields: (t) => ({
      name: t.exposeString('name', { nullable: true }),
      description: t.exposeString('description', { nullable: true }),
      website: t.exposeString('website', { nullable: true }),
      competitors: t.exposeStringList('competitors'),
      guidelines: t.exposeString('guidelines', { nullable: true }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'Null until first changed' }),
    }),
  });

  const CompanyProfilePatchInput = builder.inputType('CompanyProfilePatchInput', {
    description: 'Omitted fields stay; null clears',
    fields: (t) => ({
      name: t.string(),
      description: t.string(),
      website: t.string(),
      competitors: t.stringList(),
      guidelines: t.string(),
    }),
  });

  builder.queryField('companyProfile', (t) =>
    t.field({ type: CompanyProfile, resolve: (_root, _args, ctx) => findCompanyProfile(ctx.sql, requireAuth(ctx).workspaceId) }),
  );
  builder.mutationField('updateCompanyProfile', (t) =>
    t.field({
      type: CompanyProfile,
      args: { input: t.arg({ type: CompanyProfilePatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchCompanyProfile(ctx.sql, requireAuth(ctx).workspaceId, args.input),
    }),
  );
}
