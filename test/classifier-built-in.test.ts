import { describe, expect, it } from 'vitest';
import type { Platform } from '../vocabulary/normalized-post.ts';
import { createBuiltInClassifier } from '../classifier/built-in-classifier.ts';
import type { Classification } from '../classifier/classification.ts';
import type { ClassificationInput, ClassifiedKeyword, CompanyProfile } from '../classifier/classifier-types.ts';

const rust: ClassifiedKeyword = {
  id: 'kw_rust',
  term: 'Rust',
  kind: 'topic',
  context: 'Rust the programming language: cargo, crates and the borrow checker. Not corrosion, not the survival game.',
  groupDescription: null,
};
const notion: ClassifiedKeyword = { id: 'kw_notion', term: 'Notion', kind: 'competitor', context: 'Notion, the notes and wiki app (notion.so)', groupDescription: null };
const pebble: ClassifiedKeyword = {
  id: 'kw_pebble',
  term: 'Pebble',
  kind: 'topic',
  context: 'Pebble, the habit-tracking app for iPhone and Android. Not stones, pebbles on a beach or the old smartwatch.',
  groupDescription: null,
};
/** Pebble with a context that names its sense and rules nothing out: how a post writes the name decides. */
const pebbleApp: ClassifiedKeyword = { ...pebble, id: 'kw_pebble_app', context: 'Pebble, the habit-tracking app for iPhone and Android.' };
/** A budgeting app named by a word of boats and ports, for glosses. */
const budget: ClassifiedKeyword = { id: 'kw_harbor_money', term: 'Harbor', kind: 'topic', context: 'Harbor, the personal budgeting app. Not ports, boats or the Harbor juice bar.', groupDescription: null };
/** A person's name too: readings of an English word's use must leave it alone. */
const weberGrills: ClassifiedKeyword = { id: 'kw_weber', term: 'Weber', kind: 'competitor', context: 'Weber, the maker of grills and barbecues.', groupDescription: null };
const tablo: CompanyProfile = {
  name: 'Tablo',
  description: 'Collaborative docs and wiki workspace for small teams',
  website: 'https://tablo.app',
  competitors: ['Notion', 'Coda'],
  guidelines: null,
};

let sequence = 0;
function post(text: string, keyword: ClassifiedKeyword, company: CompanyProfile | null = null, options: { platform?: Platform; handle?: string; name?: string } = {}): ClassificationInput {
  sequence++;
  const handle = options.handle ?? `person${sequence}`;
  return {
    mentionId: `mm_${sequence}`,
    post: {
      platform: options.platform ?? 'x',
      url: `https://x.example/${handle}/status/${sequence}`,
      text,
      publishedAt: new Date('2025-03-01T09:00:00Z'),
      links: text.match(/https?:\/\/\S+/g) ?? [],
      author: { platformId: handle, name: options.name ?? handle, handle, url: `https://x.example/${handle}`, avatarUrl: null, followers: 300 },
    },
    keyword,
    company,
  };
}

const classifier = createBuiltInClassifier();

async function classify(...inputs: ClassificationInput[]): Promise<Classification[]> {
  const outcomes = await classifier.classifyBatch(inputs);
  return outcomes.map((outcome) => {
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.classification;
  });
}

/** How much higher a post scores than its control, the same words written another way. */
async function relevanceGap(keyword: ClassifiedKeyword, read: string, control: string): Promise<number> {
  const [first, second] = await classify(post(read, keyword), post(control, keyword));
  return first.relevance - second.relevance;
}

describe('built-in classifier', () => {
  it("builds a keyword's sense profile again when its kind changes, as a new instance would", async () => {
    const harbor: ClassifiedKeyword = { id: 'kw_harbor', term: 'Harbor', kind: 'topic', context: null, groupDescription: null };
    const text = 'Harbor released a new version of their app';
    const asTopic = (await classifier.classifyBatch([post(text, harbor)]))[0];
    const asBrand = (await classifier.classifyBatch([post(text, { ...harbor, kind: 'brand' })]))[0];
    const fresh = (await createBuiltInClassifier().classifyBatch([post(text, { ...harbor, kind: 'brand' })]))[0];
    if (!asTopic.ok || !asBrand.ok || !fresh.ok) throw new Error('classification failed');
    expect(asBrand.classification.relevance).toBe(fresh.classification.relevance);
    expect(asBrand.classification.relevance).toBeGreaterThan(asTopic.classification.relevance);
  });

  it('answers the same classification for the same input, from any instance', async () => {
    const inputs = [
      post('Cargo keeps rebuilding every crate after I touch build.rs. Any fix?', rust),
      post('Je cherche une alternative à Notion pour toute l\'équipe, des idées ?', notion, tablo),
      post('Release v2.1.0 · acme/notion-sync: fix pagination', notion, tablo, { platform: 'github', handle: 'github-actions[bot]' }),
    ];
    const first = await classifier.classifyBatch(inputs);
    const again = await createBuiltInClassifier().classifyBatch(inputs);
    expect(again).toEqual(first);
    expect(first.map((outcome) => outcome.mentionId)).toEqual(inputs.map((input) => input.mentionId));
    for (const outcome of first) {
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) continue;
      expect(Number.isInteger(outcome.classification.relevance)).toBe(true);
      expect(outcome.classification.relevance).toBeGreaterThanOrEqual(0);
      expect(outcome.classification.relevance).toBeLessThanOrEqual(100);
      expect(outcome.classification.note).toMatch(/^Relevance \d+ \((?:not )?relevant\): [^.]+(?:\.[^ ][^.]*)*\.$/);
    }
  });

  it('scores the same word in an unrelated sense below the line of 40', async () => {
    const [language, corrosion, game] = await classify(
      post('Rewrote our parser in Rust and the borrow checker caught two data races before they shipped.', rust),
      post('The rust on my bike chain is getting worse after all that rain, should I just replace it?', rust),
      post('Rust wipe tonight on the official server, our clan is raiding the big base at 9', rust),
    );
    expect(language.relevance).toBeGreaterThanOrEqual(40);
    expect(corrosion.relevance).toBeLessThan(40);
    expect(game.relevance).toBeLessThan(40);
    expect(corrosion.note).toContain('not relevant');
  });

  it('reads a common-word term written as the common word in another language as that word', async () => {
    const [brand, word] = await classify(
      post('On a remplacé Notion par Tablo pour la doc interne, la recherche est bien plus rapide.', notion, tablo),
      post("Je n'ai aucune notion de droit fiscal et la déclaration est pour demain.", notion, tablo),
    );
    expect(brand.relevance).toBeGreaterThanOrEqual(40);
    expect(word.relevance).toBeLessThan(40);
  });

  it('reads a name that is no English word, written in lower case in a post in another language, as a word of that language', async () => {
    const lamp: ClassifiedKeyword = { id: 'kw_sombra', term: 'Sombra', kind: 'topic', context: 'Sombra, the smart desk lamp and its app.', groupDescription: null };
    const [named, word, englishNamed, englishLowerCase] = await classify(
      post('Compré la lámpara Sombra para el escritorio y la app la apaga sola a medianoche.', lamp),
      post('Compré la lámpara sombra para el escritorio y la app la apaga sola a medianoche.', lamp),
      post('Got the Sombra lamp for my desk and the app switches it off at midnight.', lamp),
      post('Got the sombra lamp for my desk and the app switches it off at midnight.', lamp),
    );
    // The same words, but for the lower case: a log-odds of 1 lower, and only in the other language.
    expect(word.relevance).toBeLessThan(named.relevance - 5);
    expect(englishLowerCase.relevance).toBe(englishNamed.relevance);
  });

  it('reads a capitalised word after a name the writer owns as the model of the thing owned, not another name', async () => {
    const pack: ClassifiedKeyword = { id: 'kw_harbor', term: 'Harbor', kind: 'topic', context: 'Harbor, the maker of backpacks and travel bags.', groupDescription: null };
    const [owned, named] = await classify(
      post('My Harbor Summit has carried my laptop every day for three years.', pack),
      post('The Harbor Summit has carried my laptop every day for three years.', pack),
    );
    expect(owned.relevance).toBeGreaterThan(named.relevance + 5);
    // So after "the new", which announces a release: the word after the name is its line.
    const [released] = await classify(post('The new Harbor Summit has carried my laptop every day for three weeks.', pack));
    expect(released.relevance).toBeGreaterThan(named.relevance + 5);
    expect(released.note).not.toContain('part of another name');
  });

  it('reads a common word owned or opening a sentence as its bare subject as a name, and with an article as the word', async () => {
    const [subject, owned, article, modifier] = await classify(
      post('Pebble has been on my home screen for two years.', pebble),
      post('Opened my Pebble streaks this morning, forty days in a row.', pebble),
      post('The pebble has been on my desk for two years.', pebble),
      post('Pebble beaches on my home coast for two years.', pebble),
    );
    expect(subject.note).toContain("a sentence's subject");
    expect(owned.note).toContain("a sentence's subject");
    expect(article.note).not.toContain("a sentence's subject");
    expect(modifier.note).not.toContain("a sentence's subject");
    expect(subject.relevance).toBeGreaterThan(modifier.relevance);
    // What a company does, said right after its name, makes it a bare subject too ("Fender announces…").
    const [acts] = await classify(post('New post: Pebble announces streak freezes and a home-screen widget.', pebble));
    expect(acts.note).toContain("a sentence's subject");
  });

  it("reads a common word capitalised and taking a possessive bare as a name that owns something, but not after an article or another name", async () => {
    const [owner, article, otherName] = await classify(
      post("Love how Pebble's answer to every feature request is \"out of scope\". Really makes me feel heard.", pebble),
      post("Love how the Pebble's shine lasts after every wave. Really makes me feel calm.", pebble),
      post("Love how Taylor Pebble's answer to every question is \"out of scope\". Really makes me feel heard.", pebble),
    );
    expect(owner.note).toContain("a sentence's subject, as a name");
    expect(owner.relevance).toBeGreaterThanOrEqual(40);
    expect(article.note).not.toContain("a sentence's subject");
    expect(otherName.note).not.toContain("a sentence's subject");
    // Of a word that usually means something else, that reading alone, beside the post's words, lifts it over the line.
    const [subject] = await classify(post('Pebble has been my daily driver for four years. Boring in the best way: it never breaks.', pebbleApp));
    expect(subject.note).toContain("a sentence's subject");
    expect(subject.relevance).toBeGreaterThanOrEqual(40);
    // A person's name takes a possessive as readily ("Mozart's requiem"): only an English word's says it is a name.
    const mozart: ClassifiedKeyword = { id: 'kw_mozart', term: 'Mozart', kind: 'topic', context: 'Mozart, the metronome and tuner app for iPhone.', groupDescription: null };
    const [person] = await classify(post("Love how Mozart's tempo presets cover every style I play.", mozart));
    expect(person.note).not.toContain("a sentence's subject");
  });

  it('reads no case in an English sentence opened in lower case, where the writer capitalises nothing, but reads it mid-sentence and after a quote', async () => {
    const [opening, midSentence, quoted] = await classify(
      post("pebble just told me my streak is at forty days. it's been a good week", pebble),
      post("just told me my streak is at forty days, pebble did. it's been a good week", pebble),
      post('"pebble" just told me my streak is at forty days. it\'s been a good week', pebble),
    );
    expect(opening.note).not.toContain('written as a common word');
    expect(midSentence.note).toContain('"pebble" written as a common word');
    expect(quoted.note).toContain('"pebble" written as a common word');
    expect(opening.relevance).toBeGreaterThan(midSentence.relevance + 10);
  });

  it('reads a name after a verb of using as the product used, whose own line follows it, and a lower-case sentence opening as no bar to a bare subject', async () => {
    const [installed, seen] = await classify(
      post('Installed the Pebble Sprout on my old phone for the kids. Bedtime streaks are a game now.', pebbleApp),
      post('Saw the Pebble Sprout on my old phone for the kids. Bedtime streaks are a game now.', pebbleApp),
    );
    expect(installed.note).toContain('owned, used, an owner');
    expect(installed.note).not.toContain('part of another name');
    expect(seen.note).toContain('"Pebble" is part of another name');
    expect(installed.relevance).toBeGreaterThanOrEqual(40);
    expect(seen.relevance).toBeLessThan(40);
    // A writer who opens sentences in lower case writes the name so too: "pebble just told me" is the subject's.
    const opening = 'pebble just told me my streak is at forty days. it has been a good week';
    expect(await relevanceGap(pebbleApp, opening, `update: ${opening}`)).toBeGreaterThan(8);
  });

  it('reads a verb of using, setting up or switching to a product right before its name, in the languages the classifier reads', async () => {
    // Each control holds the same words, the verb away from the name.
    const pairs = [
      ['Setting up Pebble on the family iPad this weekend, wish me luck.', 'This weekend, Pebble on the family iPad: setting up, wish me luck.'],
      ['Hat jemand Erfahrung mit Pebble auf dem iPad? Ich frage für meine Tochter.', 'Pebble auf dem iPad: hat jemand Erfahrung mit? Ich frage für meine Tochter.'],
      ['Iemand ervaring met Pebble op de iPad? Vraag het voor mijn dochter.', 'Pebble op de iPad: iemand ervaring met? Vraag het voor mijn dochter.'],
      ['Je suis passé à Pebble la semaine dernière, pour ma fille.', 'Pebble la semaine dernière: je suis passé à, pour ma fille.'],
      ['Just donated to Pebble after two years of streaks. Worth every cent.', 'Just Pebble, donated to after two years of streaks. Worth every cent.'],
    ];
    for (const [used, control] of pairs) expect(await relevanceGap(pebbleApp, used, control), used).toBeGreaterThan(5);
  });

  it('reads an English word after a preposition of the service one works on or through as its name, not a person\'s after "with"', async () => {
    expect(await relevanceGap(pebbleApp, 'My whole morning routine lives on Pebble now, streaks and all.', 'My whole morning routine, Pebble, lives on now, streaks and all.')).toBeGreaterThan(5);
    const person = await relevanceGap(weberGrills, 'Spent the whole afternoon with Weber at the match, great seats.', 'Spent the whole afternoon, Weber, with at the match, great seats.');
    expect(Math.abs(person)).toBeLessThan(5);
  });

  it('reads a name moved to from another after a verb of switching as the other\'s peer, but not a route\'s end', async () => {
    const switched = await relevanceGap(pebbleApp, 'Finally switched my whole family from Streaks to Pebble this spring.', 'Finally my whole family from Streaks switched, Pebble this spring.');
    expect(switched).toBeGreaterThan(5);
    const route = await relevanceGap(weberGrills, 'We flew from Chicago to Weber last spring for the wedding.', 'We flew from Chicago last spring to Weber for the wedding.');
    expect(Math.abs(route)).toBeLessThan(5);
  });

  it('reads a bare subject in a clause a conjunction opens, and, of an English word in a post in another language, before that language\'s auxiliaries', async () => {
    const conjunction = await relevanceGap(pebbleApp, 'Tried three trackers this year, but Pebble has kept me going since March.', 'Tried three trackers this year, though Pebble has kept me going since March.');
    expect(conjunction).toBeGreaterThan(8);
    expect(await relevanceGap(pebbleApp, 'Pebble hat mir dieses Jahr jeden Morgen geholfen.', 'Pebble: dieses Jahr jeden Morgen geholfen.')).toBeGreaterThan(8);
    expect(await relevanceGap(pebbleApp, 'Pebble me recuerda cada mañana lo que falta.', 'Pebble: recuerda cada mañana lo que falta.')).toBeGreaterThan(8);
    // A person's or a place's name is as often such a subject ("Weber ha segnato"): only an English word is read so.
    const person = await relevanceGap(weberGrills, 'Weber ha segnato al novantesimo, che partita.', 'Weber: segnato al novantesimo, che partita.');
    expect(Math.abs(person)).toBeLessThan(5);
  });

  it('reads a bare subject before a common verb in the present or an irregular past, but not before a plural noun', async () => {
    const present = await relevanceGap(pebbleApp, 'Pebble reminds me every evening at nine, and I finally stopped skipping days.', 'Pebble paths every evening at nine, and I finally stopped skipping days.');
    expect(present).toBeGreaterThan(8);
    const [past] = await classify(post('Pebble caught me skipping days three times in March, and I finally stopped.', pebbleApp));
    expect(past.relevance).toBeGreaterThanOrEqual(40);
    // A verb in "-s" that a plural noun might be ("shows"), before an object, which a noun takes no more than a name.
    const withObject = await relevanceGap(pebbleApp, 'New phone, but Pebble shows no streaks from last year.', 'New phone, but Pebble shows from last year, no streaks.');
    expect(withObject).toBeGreaterThan(8);
  });

  it('reads a lower-case common word after an article, or before "of", as a common noun, a little further from the name', async () => {
    const notes = (await classify(...['a pebble', 'pebble of sorts', 'pebble'].map((found) => post(`Found ${found} in my habit jar this morning, weird.`, pebbleApp)))).map(({ note }) => note);
    expect(notes.map((note) => note.includes('"pebble" after an article or before "of", as a common noun'))).toEqual([true, true, false]);
    expect(await relevanceGap(pebbleApp, 'Found pebble in my habit jar this morning, weird.', 'Found a pebble in my habit jar this morning, weird.')).toBeGreaterThan(5);
  });

  it('reads a common word capitalised wherever a post has it, at a sentence\'s start too, as a little more of a name where the context rules other senses out', async () => {
    const [capitalised, lowerCaseToo] = await classify(
      post('Pebble streaks reset at midnight since the update.', pebble),
      post('Pebble streaks reset at midnight since the update, says the pebble on my desk.', pebble),
    );
    expect(capitalised.note).toContain('"Pebble" capitalised wherever it occurs');
    expect(capitalised.relevance).toBeGreaterThanOrEqual(40);
    expect(lowerCaseToo.note).not.toContain('capitalised wherever it occurs');
    expect(lowerCaseToo.relevance).toBeLessThan(40);
    // Where the context rules no sense out, another product of the same name is as likely: the capital says no more.
    const [noSenseRuledOut] = await classify(post('Notion templates reset at midnight since the update.', notion));
    expect(noSenseRuledOut.note).not.toContain('capitalised wherever it occurs');
  });

  it('reads no verb a description uses for who makes the product as a word of its sense', async () => {
    const harbor: ClassifiedKeyword = { id: 'kw_harbor_made', term: 'Harbor', kind: 'topic', context: 'Harbor, the budgeting app made by Dockside Labs. Not ports or boats.', groupDescription: null };
    const [made] = await classify(post('Harbor made me stop buying coffee, and my budget finally balances.', harbor));
    expect(made.note).toMatch(/context words budget/);
    expect(made.note).not.toMatch(/context words[^;(]*\bmade/);
  });

  it('reads product talk as the product\'s, never as a sense the context rules out in like words', async () => {
    const lessons: ClassifiedKeyword = { id: 'kw_glint', term: 'Glint', kind: 'topic', context: 'Glint, the language-learning app with five-minute lessons. Not price or sales cuts, sneaker releases, or the glint of light.', groupDescription: null };
    const [paid, premium] = await classify(
      post('glint: paid for premium, still stuck on the same deck', lessons),
      post('Paid for Glint Premium for a year and the Korean course still has no grammar notes.', lessons),
    );
    expect(paid.note).not.toMatch(/words of another sense \([^)]*premium/);
    expect(premium.relevance).toBeGreaterThanOrEqual(60);
  });

  it('reads a name in quotation marks, alone or in a title, as a work\'s title or the word, in any language, unless a product\'s part follows', async () => {
    const backup: ClassifiedKeyword = { id: 'kw_ferry', term: 'Ferry', kind: 'topic', context: 'Ferry, the backup app for Macs. Not boats, novels or films.', groupDescription: null };
    const [app, ...titles] = await classify(
      post('Ferry hat gestern Abend die ganze Platte gesichert, in zehn Minuten.', backup),
      post('Neu im Laden: Kartenspiel "Ferry" für die ganze Familie, ab 8 Jahren.', backup),
      post('Quelqu\'un a lu « The Last Ferry » en VO ? Je pense l\'acheter.', backup),
      post('映画『Ferry』をリマスター版で鑑賞。今見ても美しい。', backup),
      post('Neu im Laden: Kartenspiel „Ferry“ für die ganze Familie, ab 8 Jahren.', backup),
    );
    expect(app.note).not.toContain('quotation marks');
    for (const title of titles) {
      expect(title.note).toContain('"Ferry" in quotation marks');
      expect(title.relevance).toBeLessThan(40);
    }
    const [part, possessive] = await classify(
      post('Installed the "Ferry" app on the office Macs this morning.', backup),
      post("Ferry's 'restore' button saved my thesis.", backup),
    );
    expect(part.note).not.toContain('quotation marks');
    expect(possessive.note).not.toContain('quotation marks');
    // A kind noun of the sense before or after the quote, in the post's language, names the product.
    const kinds = await classify(
      post('Uso la herramienta "Ferry" desde enero.', backup),
      post('Heb je het programma "Ferry" al geprobeerd?', backup),
      post('« Ferry » appli de sauvegarde, enfin installée.', backup),
    );
    for (const kind of kinds) {
      expect(kind.note).not.toContain('quotation marks');
      expect(kind.relevance).toBeGreaterThanOrEqual(50);
    }
  });

  it('reads a gloss after a name, or what a verb of naming says bears it, that names no part of the sense as the writer saying it is something else, in any language', async () => {
    const [plain, ...glossed] = await classify(
      post('Harbor raised my subscription again and the sync still breaks every week.', budget),
      post('Harbor, the old ferry across the bay, raised my ticket again and still breaks down every week.', budget),
      post('Harbor, le vieux bateau de la baie, est encore en panne cette semaine.', budget),
      post('Harbor (the seafood restaurant on the pier, not the budgeting app) doubled its prices.', budget),
      post('Our new puppy is called Harbor and he has chewed through two leads this week.', budget),
      post('Onze nieuwe pup heet Harbor en hij eet echt alles.', budget),
      post('Show HN: Harbor – a tiny job queue for Go services that sheds load before your workers fall over', budget),
    );
    expect(plain.note).not.toContain('glossed');
    for (const other of glossed) expect(other.note).toContain('"Harbor" glossed as something else');
    const [sense, namedSense, dashedSense, clause] = await classify(
      post('Harbor, the budgeting app my sister swore by, finally clicked for me this month.', budget),
      post('My sister swears by a budgeting app called Harbor, so I finally tried it.', budget),
      post('Harbor – the budgeting app my sister swore by – finally clicked for me this month.', budget),
      // A clause after the comma says something of the name; it does not gloss it.
      post('Tried Harbor, the bank sync is broken again.', budget),
    );
    expect(sense.note).not.toContain('glossed');
    expect(namedSense.note).not.toContain('glossed');
    expect(dashedSense.note).not.toContain('glossed');
    expect(clause.note).not.toContain('glossed');
  });

  it('reads a gloss\'s words, and what it denies, as the other thing\'s: never for the sense, still against it', async () => {
    const [denied, against] = await classify(
      post('Harbor (a Lua library for HTTP retries, not the budgeting app) swallows the response body. How do I read the header?', budget),
      post('Harbor (the ferry to the boats in the port) was late again today.', budget),
    );
    expect(denied.note).toContain('"Harbor" glossed as something else (a Lua library for HTTP retries)');
    expect(denied.note).not.toContain('context words');
    expect(denied.relevance).toBeLessThan(30);
    expect(against.note).toContain('words of an excluded sense');
  });

  it('reads "of" and a capitalised word after the term, in English, as the name of a work or an institution the term opens', async () => {
    const [title] = await classify(post('The Pebble of Doom is a brilliant fantasy novel. The last fifty pages wrecked me.', pebbleApp));
    expect(title.note).toContain('"Pebble" is part of another name');
    expect(title.relevance).toBeLessThan(40);
    // The same words, "of" and its capital away from the name.
    expect(await relevanceGap(pebbleApp, 'The Pebble streak of Doom is a brilliant nudge.', 'The Pebble of Doom streak is a brilliant nudge.')).toBeGreaterThan(5);
  });

  it('reads a title in quotation marks whose capitalised words an ampersand joins as a title', async () => {
    const [joined] = await classify(post('Dorffest unter dem Motto "Pebble & Wine", Eintritt 12 €, der Wein aus dem Tetrapack.', pebbleApp));
    expect(joined.note).toContain('in quotation marks, as a title or the word');
  });

  it('reads "the" and a noun phrase right after a name that opens a sentence, with no comma, as a gloss', async () => {
    const [other] = await classify(post('Harbor the landscaping company "trimmed" our hedges down to sticks. Nobody asked them to.', budget));
    expect(other.note).toContain('"Harbor" glossed as something else (the landscaping company');
    expect(other.relevance).toBeLessThan(40);
    // A phrase naming the sense glosses nothing; mid-sentence, "the" opens what the verb says of the name.
    for (const text of ['Harbor the budgeting app finally synced my bank without a fight.', 'Is Harbor the best way to split rent with flatmates?']) {
      const [read] = await classify(post(text, budget));
      expect(read.note, text).not.toContain('glossed');
    }
  });

  it('reads a competitor\'s name that is one everyday English word as the product only where the post capitalises it', async () => {
    const browser: ClassifiedKeyword = { id: 'kw_vivaldi', term: 'Vivaldi', kind: 'brand', context: 'Vivaldi, the web browser. Not the composer and his music.', groupDescription: null };
    const maker: CompanyProfile = { name: 'Vivaldi Technologies', description: 'Makes the Vivaldi web browser.', website: null, competitors: ['Chrome', 'Opera'], guidelines: null };
    const [word, name] = await classify(
      post("Vivaldi's opera Orlando furioso returns to the stage in Ferrara next spring.", browser, maker),
      post('Vivaldi feels faster than Opera on my old laptop.', browser, maker),
    );
    expect(word.note).not.toContain('names Opera');
    expect(word.note).not.toContain('context words opera');
    expect(word.relevance).toBeLessThan(40);
    expect(name.note).toContain('names Opera');
  });

  it('reads the term offered as a name for something as that thing, by the head of its phrase, not the words describing it', async () => {
    const birds: ClassifiedKeyword = { id: 'kw_kestrel_birds', term: 'Kestrel', kind: 'topic', context: 'Kestrel, the free app from the Cornell Lab that identifies birds by sound and photo. Not the falcon, or boats and people named Kestrel.', groupDescription: null };
    const [puppy, french, app] = await classify(
      post('Is Kestrel a good name for a black lab puppy or too obvious?', birds),
      post('Kestrel comme nom pour un chiot, trop mignon ou pas ?', birds),
      post('Is Kestrel a good app for a beginner birder, or should I start with a field guide?', birds),
    );
    expect(puppy.relevance).toBeLessThan(40);
    expect(puppy.note).toContain('"Kestrel" glossed as something else (puppy)');
    expect(french.note).toContain('"Kestrel" glossed as something else (chiot)');
    expect(app.note).not.toContain('glossed');
  });

  it('reads words of other languages that share their stem with the context\'s words as those words, for the sense, a sense ruled out and a gloss', async () => {
    const amps: ClassifiedKeyword = { id: 'kw_lantern_amps', term: 'Lantern', kind: 'topic', context: 'Lantern, the maker of guitar amplifiers and pedals. Not camping lanterns or the Lantern Nebula.', groupDescription: null };
    const [sense, ruledOut, gloss] = await classify(
      post('Mi amplificador Lantern nuevo suena increíble en el ensayo.', amps),
      post('Photo magnifique de la nébuleuse Lantern, prise cette nuit depuis le jardin.', amps),
      post('Lantern, el fabricante de amplificadores, sube los precios otra vez este año.', amps),
    );
    expect(sense.note).toContain('context words amplificador');
    expect(ruledOut.note).toContain('words of an excluded sense (nébuleuse)');
    expect(ruledOut.relevance).toBeLessThan(40);
    expect(gloss.note).not.toContain('glossed as something else');
  });

  it('reads a katakana loanword as the English word of the context it sounds like, but not a short one many words share', async () => {
    const calendar: ClassifiedKeyword = { id: 'kw_lantern_calendar', term: 'Lantern', kind: 'topic', context: 'Lantern, the calendar app with workflows and modal editing for Mac. Not camping lanterns or the Lantern Festival in Australia.', groupDescription: null };
    const [sense, ruledOut, short] = await classify(
      post('Lanternに変えてからカレンダーを開かなくなった。', calendar),
      post('オーストラリアのLantern祭り、すごく綺麗だった。', calendar),
      post('Lanternのモデル、最高。', calendar),
    );
    expect(sense.note).toContain('context words カレンダー');
    expect(ruledOut.note).toContain('words of an excluded sense (オーストラリア)');
    expect(ruledOut.relevance).toBeLessThan(40);
    expect(short.note).not.toContain('モデル');
    // A compound of loanwords the word segmenter cuts in two ("ワーク|フロー") is read whole.
    const [compound] = await classify(post('Lantern のワークフローで翻訳も検索も全部一発。もう手放せない。', calendar));
    expect(compound.note).toContain('context words ワークフロー');
    expect(compound.relevance).toBeGreaterThanOrEqual(40);
  });

  it('reads a bare bracket after the name as a gloss in a post in another language, but not an aside or a word of the sense', async () => {
    const drills: ClassifiedKeyword = { id: 'kw_lantern_drills', term: 'Lantern', kind: 'topic', context: 'Lantern, the maker of cordless drills and their batteries. Not camping lanterns.', groupDescription: null };
    const [japanese, german, sense, aside] = await classify(
      post('Lantern（キャンプ用のランプ）を友だちに借りた。明るくて最高。', drills),
      post('Lantern (Laterne zum Campen) im Garten aufgehängt, sehr gemütlich.', drills),
      post('Lantern (Akku) nach drei Jahren immer noch top.', drills),
      post('Lantern (und die neue Bohrmaschine) sind angekommen.', drills),
    );
    expect(japanese.note).toContain('"Lantern" glossed as something else (キャンプ用のランプ)');
    expect(japanese.relevance).toBeLessThan(40);
    expect(german.note).toContain('"Lantern" glossed as something else (Laterne zum Campen)');
    expect(sense.note).not.toContain('glossed');
    expect(sense.relevance).toBeGreaterThanOrEqual(40);
    expect(aside.note).not.toContain('glossed');
  });

  it('reads a capitalised name joined by a hyphen to a word of another language as a name there, but not in German, which so joins every noun', async () => {
    const backup: ClassifiedKeyword = { id: 'kw_ferry_hyphen', term: 'Ferry', kind: 'topic', context: 'Ferry, the backup app for Macs. Not boats, novels or films.', groupDescription: null };
    const [polish, german] = await classify(
      post('Jak w Ferry-ju przywrócić jeden folder z wczoraj?', backup),
      post('Die Ferry-Verbindung nach Sylt fällt heute aus.', backup),
    );
    expect(polish.relevance).toBeGreaterThanOrEqual(40);
    expect(german.note).toContain('"Ferry" usually means something else');
    expect(german.relevance).toBeLessThan(40);
  });

  it('reads a name written only in lower case as the word, in English too, where the context names the other things the word means', async () => {
    const vpn: ClassifiedKeyword = { id: 'kw_mullvad', term: 'Mullvad', kind: 'topic', context: 'Mullvad, the VPN service. Not the Swedish word for a mole or a spy.', groupDescription: null };
    const [word, named, capitalised] = await classify(
      post('Reading a novel where the mullvad in the ministry is unmasked on the last page.', vpn),
      post('the mullvad app keeps dropping my connection on hotel wifi.', vpn),
      post('Reading on the train while Mullvad keeps my connection private.', vpn),
    );
    expect(word.note).toContain('"mullvad" written as the word the context rules out');
    expect(named.note).not.toContain('the word the context rules out');
    expect(capitalised.note).not.toContain('the word the context rules out');
    expect(word.relevance).toBeLessThan(capitalised.relevance);
  });

  it('reads a model\'s name and number after a name as the product\'s model, but not a year', async () => {
    const packs: ClassifiedKeyword = { id: 'kw_kestrel', term: 'Kestrel', kind: 'topic', context: 'Kestrel, the maker of hiking backpacks. Not the falcon.', groupDescription: null };
    const [model, unnumbered, dated] = await classify(
      post('Kestrel Talon 22 or the other one for day hikes? I sweat a lot.', packs),
      post('Kestrel Talon or the other one for day hikes? I sweat a lot.', packs),
      post('Kestrel Talon 1998 or the other one for day hikes? I sweat a lot.', packs),
    );
    expect(model.note).toContain("named with a model's name and number");
    expect(model.relevance).toBeGreaterThan(unnumbered.relevance);
    expect(dated.note).not.toContain("model's name and number");
  });

  it("reads a capitalised word after a name the writer owns as the model owned, past an adjective or a kind too", async () => {
    const packs: ClassifiedKeyword = { id: 'kw_kestrel', term: 'Kestrel', kind: 'topic', context: 'Kestrel, the maker of hiking backpacks. Not the falcon.', groupDescription: null };
    const [owned, ownedPastKind, notOwned] = await classify(
      post('Great, my new Kestrel Talon arrived with a broken buckle.', packs),
      post('Il mio zaino Kestrel Talon è arrivato con una fibbia rotta.', packs),
      // Not "the new Kestrel Talon": after "the new" the word after the name is the release's line.
      post('Great, the Kestrel Talon arrived with a broken buckle.', packs),
    );
    expect(owned.note).not.toContain('part of another name');
    expect(ownedPastKind.note).not.toContain('part of another name');
    expect(notOwned.note).toContain('part of another name');
    expect(owned.relevance).toBeGreaterThanOrEqual(40);
  });

  it('reads a title or a kinship word before a name as a person\'s name, in any language', async () => {
    const [product, ...people] = await classify(
      post('Pebble at the downtown clinic is the first app that keeps me stretching. Highly recommend.', pebble),
      post('Dr. Pebble at the downtown clinic is the first dentist who listens. Highly recommend.', pebble),
      post('Onkel Pebble hat beim Familienfest wieder über Politik geredet.', pebble),
    );
    expect(product.note).not.toContain('part of another name');
    for (const person of people) {
      expect(person.note).toContain('part of another name');
      expect(person.relevance).toBeLessThan(product.relevance - 10);
    }
  });

  it('reads a tier or edition after a name as the product named, not another name', async () => {
    const [tier, modelTier, otherName] = await classify(
      post('Is Pebble Premium worth it just for the streak reminders?', pebble),
      post('Pebble Family Plus finally lets my kids share one streak board.', pebble),
      post('Is Pebble Creek worth it just for the streak reminders?', pebble),
    );
    expect(tier.relevance).toBeGreaterThanOrEqual(40);
    expect(modelTier.relevance).toBeGreaterThanOrEqual(40);
    expect(tier.note).toContain('tier or edition');
    expect(otherName.relevance).toBeLessThan(tier.relevance - 15);
  });

  it('reads the kinds a context rules out by name ("other products named…", "the adjective") as no sense of their own', async () => {
    const budget: ClassifiedKeyword = { id: 'kw_lantern', term: 'Lantern', kind: 'topic', context: 'Lantern, the budgeting app for freelancers. Not lanterns as lamps, the adjective, or other products and brands named Lantern.', groupDescription: null };
    const [product, lamp] = await classify(
      post('Every budgeting product I tried before Lantern wanted my bank password. This one just reads a CSV of my invoices.', budget),
      post('Which brand of camping lantern lasts longest on one charge?', budget),
    );
    expect(product.relevance).toBeGreaterThanOrEqual(40);
    expect(product.note).not.toContain('excluded sense');
    expect(lamp.relevance).toBeLessThan(40);
    const kettles: ClassifiedKeyword = { id: 'kw_brewer', term: 'Brewer', kind: 'brand', context: 'Brewer, the maker of coffee kettles and grinders. Not people who brew beer, or the Brewer meeting-notes app.', groupDescription: null };
    const [app] = await classify(post('The Brewer app no longer finds my kettle since the last update. Reinstalled it twice.', kettles));
    expect(app.relevance).toBeGreaterThanOrEqual(40);
  });

  it('reads the kinds of namesake a context lists ("events and venues named…") only right beside the name, in any language', async () => {
    const planner: ClassifiedKeyword = { id: 'kw_lantern_planner', term: 'Lantern', kind: 'topic', context: 'Lantern, the calendar and planner app for Mac and iPhone. Not lanterns as lamps, or events, hotels and restaurants named Lantern.', groupDescription: null };
    const [events, hotel, restaurant] = await classify(
      post('Since the last macOS update Lantern shows my Exchange events an hour late. Anyone else?', planner),
      post('Stayed at the Hotel Lantern downtown: the room was clean and quiet.', planner),
      post('Le restaurant Lantern à Lyon a changé de chef et tout est devenu fade.', planner),
    );
    expect(events.relevance).toBeGreaterThanOrEqual(40);
    expect(events.note).not.toContain('excluded sense');
    expect(hotel.relevance).toBeLessThan(40);
    expect(hotel.note).toContain('names a hotel, which the context rules out');
    expect(restaurant.relevance).toBeLessThan(40);
    expect(restaurant.note).toContain('names a restaurant');
    // After the name, a kind in lower case is the app's own ("Lantern events"); one written as part of a name is not.
    const [ownEvents, named, event] = await classify(
      post('Lantern events show up an hour late since the macOS update. Anyone else?', planner),
      post('We had dinner at the Lantern Restaurant last night, the food was great.', planner),
      post('Tickets for the Lantern Event in the park go on sale Friday.', planner),
    );
    expect(ownEvents.note).not.toContain('names a');
    expect(ownEvents.relevance).toBeGreaterThanOrEqual(40);
    expect(named.note).toContain('names a restaurant');
    expect(named.relevance).toBeLessThan(40);
    expect(event.note).toContain('names an event');
    // The context's own word as the post writes it, where the glossary reads it as another ("café" as "coffee").
    const cafes: ClassifiedKeyword = { ...planner, id: 'kw_lantern_cafes', context: 'Lantern, the calendar and planner app for Mac and iPhone. Not cafés and restaurants named Lantern.' };
    const [cafe] = await classify(post('¿Por qué el Lantern Café cobra 5 € por un café con leche? Está bonito, pero no tanto.', cafes));
    expect(cafe.note).toContain('names a café, which the context rules out');
  });

  it('reads a term listed or weighed beside another name as one of its peers, in any language', async () => {
    const [weighed, listed, polish, word, code] = await classify(
      post('Pebble vs Streakly for someone who keeps forgetting to stretch?', pebble),
      post('Our team tried Streakly, Habitica and Pebble this spring.', pebble),
      post('Pebble czy Streakly na nowy telefon?', pebble),
      post('Pebble and sand everywhere after the storm.', pebble),
      // A code of a letter and digits ("S1", "V2") names no peer.
      post('Rewatching the show: season S1 and Pebble Cohle still hit hard.', pebble),
    );
    expect(weighed.relevance).toBeGreaterThanOrEqual(40);
    expect(weighed.note).toContain('listed beside Streakly');
    expect(listed.note).toContain('listed beside');
    expect(polish.note).toContain('listed beside Streakly');
    expect(word.note).not.toContain('listed beside');
    expect(code.note).not.toContain('listed beside');
    // A peer named by an English word ("Streaks", "Bumble", "Calm") is a name where it is capitalised in running text,
    // not where every word of a title is.
    const [englishPeer, title] = await classify(
      post('Pebble or Streaks for someone who keeps forgetting to log their runs?', pebble),
      post('Pebble vs Streaks: Which Habit Tracker Wins This Year', pebble),
    );
    expect(englishPeer.note).toContain('listed beside Streaks');
    expect(englishPeer.relevance).toBeGreaterThanOrEqual(40);
    expect(title.note).not.toContain('listed beside');
  });

  it('reads memberships, trials, orders, models and shops as product talk, in any language', async () => {
    const [membership, order] = await classify(
      post('Cancelled my Pebble membership after the trial ended.', pebble),
      post('Pebble: bestellt im Webshop, das Modell kam nie an.', pebble),
    );
    expect(membership.note).toMatch(/product talk \([^)]*membership/);
    expect(order.note).toMatch(/product talk \([^)]*(?:bestellt|webshop|modell)/);
  });

  it('reads a coined word right after a maker\'s name as its model\'s name, and a word of general text there as another name', async () => {
    const pack: ClassifiedKeyword = { id: 'kw_harbor', term: 'Harbor', kind: 'topic', context: 'Harbor, the maker of backpacks and travel bags. Not harbours for boats or places named Harbor.', groupDescription: null };
    const [model, place] = await classify(
      post('Harbor Trekzo straps are worth it: three winters of commuting and not one broken buckle.', pack),
      post('Harbor Valley straps are worth it: three winters of commuting and not one broken buckle.', pack),
    );
    expect(model.relevance).toBeGreaterThanOrEqual(40);
    expect(model.note).not.toContain('part of another name');
    expect(place.relevance).toBeLessThan(40);
  });

  it('reads a capitalised everyday word after a German article or adjective as a German noun, not a name', async () => {
    const [noun, adjective, name] = await classify(
      post('Der Pebble in unserem Bilderbuch ist so niedlich, meine Tochter will die Geschichte jeden Abend hören.', pebble),
      post('Im Bach liegt so eine glatte Pebble, meine Tochter will jeden Abend hin.', pebble),
      post('Pebble ist so niedlich, meine Tochter will es jeden Abend öffnen.', pebble),
    );
    for (const read of [noun, adjective]) expect(read.relevance).toBeLessThan(Math.min(40, name.relevance - 10));
  });

  it('weighs a word of general text after the name, often the product\'s own line, less than a name before it', async () => {
    const pack: ClassifiedKeyword = { id: 'kw_harbor', term: 'Harbor', kind: 'topic', context: 'Harbor, the maker of backpacks and travel bags. Not harbours for boats or places named Harbor.', groupDescription: null };
    const [line, person] = await classify(
      post('The Harbor Summit backpack arrived with a broken zip. Second bag this year, returning it.', pack),
      post('The Jenna Harbor backpack arrived with a broken zip. Second bag this year, returning it.', pack),
    );
    expect(line.relevance).toBeGreaterThan(person.relevance + 5);
  });

  it('reads an edition after the name as the brand’s own tier or model, not another name', async () => {
    const maps: ClassifiedKeyword = { id: 'kw_compass', term: 'Compass', kind: 'topic', context: 'Compass, the hiking map and route planning app.', groupDescription: null };
    const [edition, model, otherName] = await classify(
      post('Paid for Compass Premium to get the offline maps for the trip.', maps),
      post('Paid for Compass Trail Pro to get the offline maps for the trip.', maps),
      post('Paid for Compass Greenway to get the offline maps for the trip.', maps),
    );
    expect(edition.relevance).toBeGreaterThan(otherName.relevance + 5);
    expect(model.relevance).toBeGreaterThan(otherName.relevance + 5);
  });

  it('reads a context clause ruling senses out to its end, past the initials of a name', async () => {
    const ledger: ClassifiedKeyword = { id: 'kw_walden', term: 'Walden', kind: 'topic', context: "Walden, the budgeting app for couples. Not H. D. Thoreau's book, the pond, camping trips or cabins in the woods.", groupDescription: null };
    const [book] = await classify(post('Reading Walden by the pond on a camping trip, a cabin in the woods and a good book.', ledger));
    expect(book.relevance).toBeLessThan(40);
  });

  it('reads a name of several common words written in lower case as the phrase', async () => {
    const lantern: ClassifiedKeyword = { id: 'kw_lantern', term: 'Night Lamp', kind: 'topic', context: 'Night Lamp, the screen dimming utility for macOS.', groupDescription: null };
    const [named, phrase] = await classify(
      post('Night Lamp dims my screen at sunset and the shortcut toggles it.', lantern),
      post('The night lamp dims my screen at sunset and the shortcut toggles it.', lantern),
    );
    // The same words, but for the lower case: a log-odds of 1 lower.
    expect(phrase.relevance).toBeLessThan(named.relevance - 5);
  });

  it('scores a post naming another thing of the same name that the context rules out below the line, in any language', async () => {
    const drones: ClassifiedKeyword = {
      id: 'kw_drones',
      term: 'Parrot',
      kind: 'topic',
      context: 'Parrot, the French drone maker (the Anafi drones). Not the birds or Parrot OS, the Linux distribution.',
      groupDescription: null,
    };
    const [dutch, portuguese, drone] = await classify(
      post('Parrot OS op een Raspberry Pi? Werkt verrassend goed.', drones),
      post('Alguém conseguiu instalar o Parrot OS em dual boot?', drones),
      post('Parrot Anafi firmware 2.1 fixed the gimbal drift on my drone.', drones),
    );
    expect(dutch.relevance).toBeLessThan(40);
    expect(dutch.note).toContain('names parrot os, which the context rules out');
    expect(portuguese.relevance).toBeLessThan(40);
    expect(drone.relevance).toBeGreaterThanOrEqual(40);
  });

  it('reads a name the context writes in capitals as that name, not an acronym, where posts write it so', async () => {
    const coolers: ClassifiedKeyword = { id: 'kw_coolers', term: 'Yeti', kind: 'brand', context: 'YETI coolers and drinkware. Not the mythical snowman.', groupDescription: null };
    const snowman: ClassifiedKeyword = { ...coolers, id: 'kw_snowman', context: 'Yeti coolers and drinkware. Not the mythical snowman.' };
    const text = 'YETI recalls 1.9 million soft coolers over a magnet hazard.';
    const [capitalsInContext, nameInContext] = await classify(post(text, coolers), post(text, snowman));
    expect(capitalsInContext.note).not.toContain('written as an acronym');
    expect(capitalsInContext.relevance).toBeGreaterThan(nameInContext.relevance);
  });

  it('raises a post that matches the company profile and lowers one the guidelines rule out', async () => {
    const bolt: ClassifiedKeyword = { id: 'kw_bolt', term: 'Bolt', kind: 'brand', context: null, groupDescription: null };
    const rideHailing: CompanyProfile = { name: 'Bolt', description: 'Ride-hailing, scooter rental and food delivery app', website: 'https://bolt.eu', competitors: ['Uber'], guidelines: null };
    const ride = 'Bolt driver waited 10 minutes at the airport pickup and the ride was half the price of a taxi.';
    const [bare, profiled] = await classify(post(ride, bolt), post(ride, bolt, rideHailing));
    expect(profiled.relevance).toBeGreaterThan(bare.relevance);
    expect(profiled.relevance).toBeGreaterThanOrEqual(40);

    const flags: ClassifiedKeyword = { id: 'kw_flags', term: 'feature flags', kind: 'topic', context: 'feature flag management and gradual rollouts', groupDescription: null };
    const excluding: CompanyProfile = { ...tablo, name: 'Flagpole', competitors: [], guidelines: 'Not relevant: browser or compiler feature flags (chrome://flags, GCC options).' };
    const browser = 'Turned on two browser feature flags in Chrome and tabs load faster now';
    const [open, ruledOut] = await classify(post(browser, flags), post(browser, flags, excluding));
    expect(ruledOut.relevance).toBeLessThan(open.relevance);
    expect(ruledOut.relevance).toBeLessThan(40);
  });

  it('reads a comparative word in a post naming something besides the keyword as a comparison, whichever side wins', async () => {
    const [better, worse, plain] = await classify(
      post('My old habit app Streaks felt cluttered. Pebble is simpler and the reminders land better.', pebble),
      post('Mit Streaks vergesse ich alles. Pebble erinnert mich viel besser an meine Gewohnheiten.', pebble),
      post('Pebble keeps my mornings on track, and the widgets are lovely.', pebble),
    );
    expect(better.intents).toContain('comparison');
    expect(worse.intents).toContain('comparison');
    expect(plain.intents).not.toContain('comparison');
  });

  it('reads a post naming a competitor beside the keyword as a comparison', async () => {
    const [switched, weighing, alone] = await classify(
      post('Moved our whole team wiki from Notion to Tablo last month, no regrets.', notion, tablo),
      post('Notion or Coda for a five-person agency?', notion, tablo),
      post('Notion databases finally support formulas in rollups.', notion, tablo),
    );
    expect(switched.intents).toContain('comparison');
    expect(weighing.intents).toEqual(expect.arrayContaining(['question', 'comparison', 'buy_intent']));
    expect(alone.intents).not.toContain('comparison');
  });

  it('detects questions with and without a question mark, and Stack Overflow titles', async () => {
    const [marked, unmarked, stackOverflow, statement] = await classify(
      post('How do I share a single Notion page with a client?', notion, tablo),
      post('Does anyone know how to export Notion pages to Markdown without losing tables', notion, tablo),
      post('Rust lifetime error when returning a reference from a closure', rust, null, { platform: 'stackoverflow' }),
      post('Our Notion workspace now holds every onboarding doc.', notion, tablo),
    );
    expect(marked.intents).toContain('question');
    expect(unmarked.intents).toContain('question');
    expect(stackOverflow.intents).toContain('question');
    expect(statement.intents).not.toContain('question');
  });

  it('reads complaints as negative and praise as positive', async () => {
    const [complaint, praise, news] = await classify(
      post('Notion keeps logging me out on every device and support has not answered in four days.', notion, tablo),
      post('Notion templates saved my semester, honestly the best tool I have used.', notion, tablo),
      post('Notion opens an office in Tokyo this spring.', notion, tablo),
    );
    expect(complaint).toMatchObject({ sentiment: 'negative', intents: expect.arrayContaining(['complaint']) });
    expect(praise).toMatchObject({ sentiment: 'positive', intents: expect.arrayContaining(['praise']) });
    expect(news).toMatchObject({ sentiment: 'neutral', intents: [] });
  });

  it('reads a closing word of praise exclaimed at a body that praises nothing as sarcasm, in any language', async () => {
    const [exported, billed, synced, sincere] = await classify(
      post('Wrote the whole handbook in Notion and it still will not export the toggles to PDF. Brilliant.', notion, tablo),
      post('Notion hat mir den Jahresplan zweimal abgebucht, der Support schickt einen Link zur FAQ. Wunderbar.', notion, tablo),
      post('Notion a encore perdu la moitié de ma page hors ligne. Génial.', notion, tablo),
      post('Notion templates saved my semester, the best tool I have used. Brilliant.', notion, tablo),
    );
    expect([exported.sentiment, billed.sentiment, synced.sentiment, sincere.sentiment]).toEqual(['negative', 'negative', 'negative', 'positive']);
  });

  it('reads a post leaving the tracked product for another as negative, however it praises the other', async () => {
    const [left, leftInPortuguese, joined] = await classify(
      post('Moved the whole team from Notion to Coda in March. Love it, everything is faster and the tables are brilliant.', notion, tablo),
      post('Troquei o Notion pelo Coda no mês passado. Adorei, tudo é mais rápido e as tabelas são ótimas.', notion, tablo),
      post('Moved the whole team from Coda to Notion in March. Love it, everything is faster and the tables are brilliant.', notion, tablo),
    );
    expect([left.sentiment, leftInPortuguese.sentiment, joined.sentiment]).toEqual(['negative', 'negative', 'positive']);
  });

  it('reads a post moving to the tracked product as its praise, whatever faults it tells of the other, and one leaving it as a complaint', async () => {
    const [cameBack, dropped, movedOn] = await classify(
      post('Tried Coda for a month to save money, went back to Notion. Coda lost two of my pages and the sync kept failing.', notion, tablo),
      post('Kept the calendar and the mail client, dropped Notion. The new tool is faster and everything works offline.', notion, tablo),
      post('Nach drei Jahren mit Notion bin ich jetzt zu Obsidian gewechselt. Schnell, lokal, einfach super.', notion, tablo),
    );
    expect([cameBack.sentiment, dropped.sentiment, movedOn.sentiment]).toEqual(['positive', 'negative', 'negative']);
    expect(cameBack.intents).toContain('praise');
    expect(dropped.intents).toContain('complaint');
    expect(movedOn.intents).toContain('complaint');
  });

  it('reads a comparison the tracked product loses as negative, a complaint and a comparison, however it praises the winner', async () => {
    const [lost, won] = await classify(
      post('Used Notion for two years and Coda for one. Coda is faster, and its tables are brilliant.', notion, tablo),
      post('Used Coda for two years and Notion for one. Notion is faster, and its tables are brilliant.', notion, tablo),
    );
    expect(lost).toMatchObject({ sentiment: 'negative', intents: expect.arrayContaining(['complaint', 'comparison']) });
    expect(won.sentiment).toBe('positive');
  });

  it('names the language of a post in ISO 639-1, and none for a word or two', async () => {
    const results = await classify(
      post('We moved every crate of the workspace to the 2024 edition of Rust this week.', rust),
      post('Wir haben unseren Build-Server komplett auf Rust umgestellt und sind sehr zufrieden.', rust),
      post('Quelqu’un utilise Rust pour du traitement audio en temps réel ?', rust),
      post('¿Vale la pena aprender Rust si ya programo en C++ desde hace años?', rust),
      post('Rustで書いたCLIツールが思ったより速くて驚いた。', rust),
      post('Estou a aprender Rust e o compilador ensina mais do que muitos livros.', rust),
      post('Rust!', rust),
    );
    expect(results.map((result) => result.language)).toEqual(['en', 'de', 'fr', 'es', 'ja', 'pt', null]);
  });

  it('flags machine-made posts from their signals and leaves people alone', async () => {
    const [release, status, jobs, person] = await classify(
      post('Release v0.9.3 · rust-lang/cargo-tools: faster registry index updates', rust, null, { platform: 'github', handle: 'github-actions[bot]' }),
      post('[Investigating] Some Notion pages fail to load. Updates at https://status.notion.so', notion, tablo, { handle: 'NotionStatus', name: 'Notion Status' }),
      post('🦀 [Hiring] Rust backend engineer — remote — apply https://jobs.example/12 #rust #jobs #remote', rust, null, { handle: 'rust_jobs_feed' }),
      post('Spent the weekend porting my side project to Rust, the compiler errors are weirdly friendly.', rust),
    );
    expect([release, status, jobs, person].map((result) => result.automated)).toEqual([true, true, true, false]);
    expect(release.intents).toEqual([]);
    // Price trackers and job boards write their templates in every language.
    const [priceDrop, preisalarm, jobAlert, shopper] = await classify(
      post('Price drop: Rust in Action (2nd ed.) now $29.99, was $49.99', rust),
      post('📉 Preisalarm: Rust-Handbuch jetzt 24,90 € statt 39,90 €', rust),
      post("Offre d'emploi : développeuse Rust confirmée, Lyon, CDI", rust),
      post('The price drop on the Rust book finally got me to buy it, chapter 4 is great.', rust),
    );
    expect([priceDrop, preisalarm, jobAlert, shopper].map((result) => result.automated)).toEqual([true, true, true, false]);
    // Release notes headed by a version, a price beside the one it was, deal and "of the day" feeds; a person telling of
    // a release or a price writes a sentence.
    const [notes, whatsNew, wasPrice, deal, ofTheDay, user, buyer] = await classify(
      post('Tablo 3.4.1: Fixed sync with shared boards. Minor performance improvements.', notion, tablo),
      post("What's new in Tablo 2.1: boards open faster, bug fixes.", notion, tablo),
      post('Rust in Action now $29.99 (was $49.99), lowest in 90 days', rust),
      post('Daily deal: Rust for Rustaceans e-book $9.99 today only', rust),
      post('Crate of the day: serde. Serialization for Rust.', rust),
      post('Tablo 3.4 fixed the sync bug I reported, finally.', notion, tablo),
      post('Got Rust in Action for $29.99 and it was worth every cent.', rust),
    );
    expect([notes, whatsNew, wasPrice, deal, ofTheDay, user, buyer].map((result) => result.automated)).toEqual([true, true, true, true, true, false, false]);
  });
});
