import type { NormalizedAuthor, Platform } from '../vocabulary/normalized-post.ts';
import { LiteralGuardedPattern } from './literal-guarded-pattern.ts';
import { unicodeWords } from './unicode-word-boundaries.ts';

export interface AutomationEvidence {
  platform: Platform;
  text: string;
  links: string[];
  author: Pick<NormalizedAuthor, 'name' | 'handle'>;
}

/**
 * Signals that a post is machine-made (spec 1.2 `automated`).
 *
 * Strong signals, each enough alone:
 * - the account says it is a bot: `[bot]` accounts on GitHub, handles or
 *   names with a "bot" word (`rustjobs_bot`, "Planet Tracker Bot");
 * - a status-page template: `[Investigating]`, `Resolved:`, "is having
 *   problems since";
 * - a release-feed template: "Release v1.2.3", "Release: …", "owner/repo:
 *   v1.2.3", "New release:", "New crate release:", a version announced
 *   with a headed list of changes ("25.1 update available. Fixes: …");
 * - a job-board template: `[Hiring]`, `[Job]`, "New job:", "Job alert:",
 *   "Offre d'emploi :", "Job:";
 * - a price tracker's template: "Price drop:", "Preisalarm:", "Baisse de
 *   prix :", "値下げ：";
 * - a shop or ticket listing: "Tickets:", "Back in stock:", "Neu im Shop:";
 * - a promotion template: promo or referral codes, airdrops and giveaways;
 * - a feed post: "New post on…", "Trending on GitHub", "On this day",
 *   "Changelog:", numbered newsletter issues ("This Week in Rust 556:"),
 *   and "New post:" in the other languages posts come in.
 * Weak signals, two needed: three or more hashtags; a link as the last word;
 * an emoji as the first character; a price beside a link (a sales post); a
 * status or changelog account name (`NotionStatus`, "… Changelog",
 * "… Feed"); a feed item (`rss`).
 * A person can write any one weak signal; machines tend to write several.
 */
/** The signal of a status page's post, the one kind of machine-made post that reports a fault as it happens. */
export const statusTemplate = 'status template';

// Each template's alternatives are tried only on text that holds their literals (`LiteralGuardedPattern`): most posts hold none.
const strongTextSignals: [name: string, pattern: LiteralGuardedPattern][] = ([
  [statusTemplate, /^\s*(?:\p{Extended_Pictographic}\s*)?(?:\[(?:investigating|identified|monitoring|resolved|update|maintenance|scheduled)\]|(?:[\w .]+ status\s*[—:-]\s*)?(?:resolved|investigating|identified|monitoring):)|\bis having problems since\b|\bstatus: (?:degraded|partial|major|operational)/u],
  // "Release: Vivaldi 7.3", "owner/repo: 25.01 released", "owner/repo: tag v3_0_2".
  ['release template', /\brelease:? v?\d+\.\d+(?:\.\d+)?\b|^\s*release:|^\S+\/\S+:? (?:v\d+\.\d+|release|tag|v?\d+(?:\.\d+)+ released)\b|\bnew (?:\w+ )?(?:crate )?release:|\brelease \S+-release\b/u],
  ['job template', /^\s*(?:\[(?:hiring|job|jobs|remote)\]|(?:new )?jobs?:)/u],
  // Job-board and price-tracker feeds in the languages posts come in: "Job alert:", "Offre d'emploi :", "Price drop:", "Preisalarm:", "値下げ：".
  ['job template', /^\s*(?:\p{Extended_Pictographic}\s*)?(?:job alert|neue stelle|stellenangebot|offre d'emploi|oferta de (?:empleo|trabajo)|vaga de emprego|offerta di lavoro|vacature|oferta pracy|求人)\s*[:：]/u],
  ['price template', /^\s*(?:\p{Extended_Pictographic}\s*)?(?:price (?:drop|alert|cut|tracker|watch)|deal alert|lowest price|preis(?:alarm|sturz|senkung)|baisse de prix|alerte prix|bajada de precio|alerta de precio|queda de preço|alerta de preço|calo (?:di|del) prezzo|prijsdaling|prijsalarm|obniżka ceny|spadek ceny|値下げ|価格改定)\s*[:：!-]/u],
  // A version announced with a headed list of changes after it, as release feeds and store bots write them: "128.5.2esr is
  // available. Security fixes: …", "25.1 update available. Fixes: …". A person announcing a release tells what is new in a
  // sentence ("Rust 1.83 is out: const extensions…").
  ['release template', /\bv?\d+(?:\.\d+)+\S* (?:is out|is (?:now )?available|(?:has been )?released|update available|is now on [^:.!?]{1,30}|ist (?:da|verfügbar)|est disponible|(?:ya )?está disponible|já está disponível|è disponibile|is (?:nu )?beschikbaar|jest dostępn\p{L}*)[.!:] .*\b(?:(?:bug |security )?fixes|changes|improvements|what's new|release notes|korrekturen|correctifs|correcciones|correções|correzioni)\s*:/u],
  // Shop and ticket listings: "Tickets: …", "Back in stock: …", "Neu im Shop: …".
  ['listing template', /^\s*(?:\p{Extended_Pictographic}\s*)?(?:tickets|on sale now|now on sale|in stock|back in stock|just listed|new in (?:the )?shop|neu im shop|wieder (?:da|verfügbar|lieferbar)|nouveauté|en vente|billets|novedad|entradas|à venda|ingressos|nuovo arrivo|biglietti|nieuw binnen|nieuw in de winkel|bilety|nowość)\s*[:：]/u],
  ['promotion template', /\b(?:promo code|use code|referral link|with this link|airdrop|giveaway|claim free)\b/u],
  // Release notes headed by the product and its version, then what changed: "Planta 4.8: Improved light meter…",
  // "WHOOP 6.2.0: New stress monitor…", "What's new in Monarch 2.41: …". A person tells of a release in a sentence.
  ['release template', /^\s*(?:what's new(?: in)?:? )?[^\n:.!?]{1,40}? v?\d+(?:\.\d+)+\S*\s*[:—–-]\s*(?:fixed|fixes|fix|improved|improvements|added|adds|new|removed|updated|bug fixes|faster|security)\b|^\s*what's new(?: in)?\b[^\n:]{0,40}\d+\.\d+[^\n:]{0,10}:/u],
  // A price tracker's line: the price now beside the one it was ("now $52.46 (was $74.95)", "€399 (was €599)").
  ['price template', /[$€£]\s?\d[\d.,]*\s?\(was [$€£]\s?\d|\d[\d.,]*\s?[€£$] \(was \d/u],
  // Deal feeds and "… of the day" feeds: "Deal:", "Daily deal:", "Type deal:", "Font of the day:".
  ['listing template', /^\s*(?:\p{Extended_Pictographic}\s*)?(?:(?:\w+ )?deals?|deal of the (?:day|week)|\w+ of the (?:day|week))\s*:/u],
  ['feed template', /^\s*(?:\p{Extended_Pictographic}\s*)?(?:new (?:post|blog post|article|video)(?: on| from|\s*:)|trending on github|on this day\b|[\w ]+ changelog:)|^this week in [\w ]+ \d+:/u],
  // The same feed lines in the other languages posts come in ("Nouvel article :", "Neuer Beitrag:", "新着記事：").
  ['feed template', /^\s*(?:\p{Extended_Pictographic}\s*)?(?:neuer (?:beitrag|artikel|blogbeitrag)|neues video|nouvel article|nouveau (?:billet|post|message)|nouvelle vidéo|nuev[oa] (?:post|entrada|artículo|vídeo|video)|nov[oa] (?:post|artigo|vídeo)|nuov[oa] (?:post|articolo|video)|nieuw(?:e)? (?:bericht|artikel|blogpost|video)|nowy (?:wpis|artykuł|post)|nowe wideo)\s*:|^\s*(?:新着記事|新しい記事|ブログ更新)\s*[:：]/u],
] satisfies [string, RegExp][]).map(([name, pattern]) => [name, new LiteralGuardedPattern(unicodeWords(pattern))]);

// "bot" as a separate part of a handle (`rustjobs_bot`, `bot-alerts`) or a
// camel-case suffix (`RustJobsBot`), but not inside a word (`robot`, `talbot`).
const botPart = /\[bot\]$|(?:^|[^\p{L}\p{M}\p{N}])bot(?:$|[^\p{L}\p{M}\p{N}])/iu;
const botHandle = (handle: string) => botPart.test(handle) || /\p{Ll}Bot$/u.test(handle);
const botWord = unicodeWords(/\bbot\b/iu);
const feedAccount = /status|changelog|feed|releases|updates|digest|news ?bot|alerts?$/iu;

export interface AutomationVerdict {
  automated: boolean;
  signals: string[];
}

export function automationSignals(evidence: AutomationEvidence): AutomationVerdict {
  const strong: string[] = [];
  if (botHandle(evidence.author.handle) || botWord.test(evidence.author.name)) strong.push('bot account');
  // The templates are written in lower case and meet lower-cased text: case-insensitive Unicode matching costs several times as much.
  const lower = evidence.text.toLowerCase();
  for (const [name, pattern] of strongTextSignals) if (pattern.test(lower)) strong.push(name);
  if (strong.length > 0) return { automated: true, signals: strong };

  const weak: string[] = [];
  if ((evidence.text.match(/(?:^|\s)#[\p{L}\p{N}_]+/gu) ?? []).length >= 3) weak.push('hashtag stack');
  if (/https?:\/\/\S+\s*$/u.test(evidence.text.trim())) weak.push('ends with a link');
  if (/^\s*\p{Extended_Pictographic}/u.test(evidence.text)) weak.push('emoji lead');
  if (/[$€£]\s?\d/u.test(evidence.text) && /https?:\/\//u.test(evidence.text)) weak.push('price and link');
  if (feedAccount.test(evidence.author.handle) || feedAccount.test(evidence.author.name)) weak.push('feed account');
  if (evidence.platform === 'rss') weak.push('feed item');
  return { automated: weak.length >= 2, signals: weak };
}
