import { z } from 'zod';
import { type GraphQLRoute, RequestRefusal } from '../../route.ts';
import { octolensBadBody, octolensBase, octolensReadOnly, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

const profileFields = 'name description website competitors guidelines';

const notKept = (description: string) => z.string().nullable().meta({ description: `${description}: not kept by Earshot, always null` });

const octolensCompanySchema = z
  .object({
    id: z.literal(1).meta({ description: 'Always 1: a workspace has one company profile' }),
    name: z.string().nullable(),
    domain: z.string().nullable().meta({ description: 'The host of `website`' }),
    website: z.string().nullable(),
    logo: notKept('A logo address'),
    industry: notKept('The industry'),
    sector: notKept('The sector'),
    tags: notKept('Company tags'),
    description: z.string().nullable().meta({ description: 'What the company does: the classifier reads it' }),
    linkedin: notKept('The LinkedIn page'),
    twitter: notKept('The X handles'),
    relevanceContext: notKept('A disambiguation sentence (each keyword has its own `context`)'),
    productUseCases: notKept('Use cases'),
    competitors: z.string().nullable().meta({ description: 'Comma-separated competitor names; null when none' }),
    companyMoat: notKept('The competitive advantage'),
    relevanceGuidelines: z.string().nullable().meta({ description: 'What counts as relevant and what does not: the classifier reads it' }),
    classificationGuidelines: notKept('Tagging guidance'),
  })
  .meta({ id: 'OctolensCompany' });

function octolensCompany(profile: Record<string, any>): z.output<typeof octolensCompanySchema> {
  return {
    id: 1,
    name: profile.name,
    domain: profile.website ? new URL(profile.website).hostname : null,
    website: profile.website,
    logo: null,
    industry: null,
    sector: null,
    tags: null,
    description: profile.description,
    linkedin: null,
    twitter: null,
    relevanceContext: null,
    productUseCases: null,
    competitors: profile.competitors.length ? profile.competitors.join(', ') : null,
    companyMoat: null,
    relevanceGuidelines: profile.guidelines,
    classificationGuidelines: null,
  };
}

/** Octolens's profile fields Earshot does not keep: sending one answers 501 rather than dropping it unseen. */
const unkeptFields = ['twitter', 'linkedin', 'logo', 'productUseCases', 'relevanceContext', 'classificationGuidelines', 'companyMoat'] as const;

const companyPatch = z.strictObject({
  name: z.string().optional().meta({ description: 'The company or product name' }),
  description: z.string().optional().meta({ description: 'What the company does' }),
  competitors: z.string().optional().meta({ description: 'Competitor names, comma-separated or a JSON array of strings; replaces the list, empty clears it' }),
  relevanceGuidelines: z.string().optional().meta({ description: 'What counts as relevant and what does not' }),
  ...Object.fromEntries(unkeptFields.map((field) => [field, z.string().optional().meta({ description: 'Answers 501 `FEATURE_DISABLED`: not kept by Earshot' })])),
});

/** Octolens's competitors string: a JSON array of names (its web app's form) or names separated by commas. */
function competitorNames(text: string): string[] {
  if (!text.trimStart().startsWith('[')) return text.split(',').map((name) => name.trim()).filter(Boolean);
  let names: unknown;
  try {
    names = JSON.parse(text);
  } catch {
    names = undefined;
  }
  if (Array.isArray(names) && names.every((name) => typeof name === 'string')) return names;
  throw new RequestRefusal({ code: 'validation_error', message: 'competitors: must be names separated by commas or a JSON array of strings', field: 'competitors' });
}

/** The company profile (our `/v1/company-profile`) in Octolens's shape. */
export const octolensCompanyRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: `${octolensBase}/org/company`,
    operationId: 'octolensGetCompany',
    summary: 'The company profile the classifier reads; fields Earshot does not keep are null',
    tag: octolensTag,
    responses: { 200: { description: 'The company profile', schema: octolensCompanySchema }, 401: octolensUnauthorized },
    operation: `query OctolensCompany { companyProfile { ${profileFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: octolensCompany(data.companyProfile) }),
  },
  {
    method: 'PATCH',
    path: `${octolensBase}/org/company`,
    operationId: 'octolensUpdateCompany',
    summary: 'Changes the company profile: omitted fields stay, a blank one clears',
    tag: octolensTag,
    body: companyPatch,
    responses: {
      200: { description: 'The profile after the change', schema: octolensCompanySchema },
      400: octolensBadBody,
      401: octolensUnauthorized,
      403: octolensReadOnly,
      501: { description: `A field Earshot does not keep (${unkeptFields.map((field) => `\`${field}\``).join(', ')}) (\`FEATURE_DISABLED\`); nothing changed` },
    },
    operation: `mutation OctolensUpdateCompany($input: CompanyProfilePatchInput!) { updateCompanyProfile(input: $input) { ${profileFields} } }`,
    variables: ({ body }) => {
      const patch = body as Record<string, string | undefined>;
      const unkept = unkeptFields.filter((field) => patch[field] !== undefined);
      if (unkept.length) throw new RequestRefusal({ code: 'feature_disabled', message: `Earshot does not keep a company's ${unkept.join(', ')}` });
      return {
        input: {
          name: patch.name,
          description: patch.description,
          competitors: patch.competitors === undefined ? undefined : competitorNames(patch.competitors),
          guidelines: patch.relevanceGuidelines,
        },
      };
    },
    result: (data) => ({ status: 200, body: octolensCompany(data.updateCompanyProfile) }),
  },
];
