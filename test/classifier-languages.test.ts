import { describe, expect, it } from 'vitest';
import { loadPostReaders } from '../classifier/built-in-classifier.ts';
import { automationSignals } from '../classifier/automation-signals.ts';
import { detectIntents } from '../classifier/intents.ts';
import { detectLanguage } from '../classifier/language.ts';
import { readSentiment } from '../classifier/sentiment.ts';
import { stanceCues } from '../classifier/stance-cues.ts';
import { glossedWords } from '../classifier/word-glossary.ts';

const noWords: ReadonlySet<string> = new Set();
const cuesOf = (text: string, language: string) => readSentiment(text, language, noWords).cues.map((cue) => [cue.cue, cue.score]);

describe('the classifier in Polish, the ninth language it reads', () => {
  it('reads opinions, negations, irony and intents of Polish posts', async () => {
    const loaded = await loadPostReaders();
    expect(detectLanguage(loaded.languageDetector, 'Znowu nie działa logowanie do aplikacji banku, trzeci raz w tym tygodniu.')).toBe('pl');
    expect(cuesOf('Naprawdę świetny czytnik, polecam.', 'pl')).toEqual([['polecam', 3], ['świetn', 3 * 1.3]]);
    expect(cuesOf('Nie polecam, strata pieniędzy.', 'pl')).toEqual([['nie polecam', -3], ['strata pieniędzy', -3]]);
    expect(readSentiment('Świetnie, znowu nie działa.', 'pl', noWords)).toMatchObject({ ironic: true, score: -5 });
    const intentsOf = (text: string) => detectIntents({ text, platform: 'x', opinion: readSentiment(text, 'pl', noWords), productsNamed: 0 });
    expect(intentsOf('Czy ktoś używa Revoluta zamiast mBanku? Co polecacie?')).toEqual(['buy_intent', 'question', 'comparison']);
    expect(intentsOf('Aplikacja nie działa od rana, nadal nie mogę się zalogować.')).toEqual(['complaint']);
    expect(intentsOf('Świetny czytnik, polecam każdemu.')).toEqual(['praise']);
    expect(stanceCues('za tę cenę spodziewałem się więcej, a po tygodniu się zepsuł')).toEqual(['broke', 'expected-more']);
  });
});

describe('the classifier in Swedish, the tenth language it reads', () => {
  it('reads opinions, negations, irony, stance cues and intents of Swedish posts', async () => {
    const loaded = await loadPostReaders();
    expect(detectLanguage(loaded.languageDetector, 'Appen fungerar inte igen efter uppdateringen, tredje gången den här veckan.')).toBe('sv');
    expect(cuesOf('Verkligen smidig kvarn, rekommenderar.', 'sv')).toEqual([['rekommenderar', 3], ['smidig', 2 * 1.3]]);
    expect(cuesOf('Lådan var inte bra och skärmen gick sönder.', 'sv')).toEqual([['gick sönder', -2], ['bra', -0.75 * 2]]);
    // Inflected forms read as their entry: "dåliga", "trasiga".
    expect(readSentiment('Dåliga batterier, trasiga knappar.', 'sv', noWords).score).toBeLessThan(0);
    expect(readSentiment('Toppen, appen kraschar igen.', 'sv', noWords)).toMatchObject({ ironic: true });
    expect(readSentiment('Tack för inget, tre veckor utan lampa.', 'sv', noWords).ironic).toBe(true);
    expect(readSentiment('Snällt av dem att stänga butiken en timme tidigare.', 'sv', noWords).ironic).toBe(true);
    expect(readSentiment('Två år med samma hörlurar. Inget att klaga på.', 'sv', noWords).understatesPraise).toBe(true);
    expect(stanceCues('lampan gick sönder igen, varför händer det här?')).toEqual(['again', 'broke', 'fault-question']);
    expect(stanceCues('skickade tillbaka den, för dyr för det den gör')).toEqual(['sent-back', 'too-much']);
    // The first time is no fault come back.
    expect(stanceCues('första gången jag provade')).toEqual([]);
    const intentsOf = (text: string) => detectIntents({ text, platform: 'x', opinion: readSentiment(text, 'sv', noWords), productsNamed: 0 });
    expect(intentsOf('Appen fungerar inte sedan i morse och supporten svarar inte.')).toContain('complaint');
    expect(intentsOf('Älskar den nya kameran, rekommenderar den till alla.')).toContain('praise');
    expect(intentsOf('Bytte från Tibber till Greenely och appen är mycket enklare än förut.')).toContain('comparison');
    expect(intentsOf('Vet någon om den går att koppla till två telefoner')).toContain('question');
  });
});

describe('intents across languages', () => {
  it('reads a want to acquire or to move told in the first person as buy intent, in any language', () => {
    const intentsOf = (text: string, language: string) => detectIntents({ text, platform: 'x', opinion: readSentiment(text, language, noWords), productsNamed: 0 });
    for (const [text, language] of [
      ['Does the reader sync highlights? Ready to order this week.', 'en'],
      ['Does it import OPML? I want to switch before the trip.', 'en'],
      ['¿Alguien sabe si está traducida al español? Quiero comprarla.', 'es'],
      ["L'anglais est-il accessible pour un niveau B2 ? Je pense l'acheter.", 'fr'],
      ['Alguém usa com Hotmail? Preciso saber antes de migrar o escritório.', 'pt'],
      ['Werkt de wachtrij op CarPlay? Wil weten voordat ik overstap.', 'nl'],
      ['Does the kettle come in white? About to sign up for the descaling plan.', 'en'],
      ["Does it ship to Canada? I'd order two if it does.", 'en'],
      ['Where can I still buy the old charger?', 'en'],
      ['¿Funciona con tarjetas europeas? Me gustaría pagarlo en euros.', 'es'],
      ['Sto per comprare la versione da 40 litri: qualcuno la usa?', 'it'],
      ['Vorrei acquistarlo, ma le taglie non sono chiare.', 'it'],
      ["L'appli gère-t-elle deux comptes ? Je compte prendre l'abonnement annuel.", 'fr'],
      ['Quelqu’un a fait un sinistre chez eux ? Je pense souscrire pour ma location.', 'fr'],
      ['Estoy pensando en pasar todo el estudio a la app nueva.', 'es'],
      ['Funderar på att köpa en ny kvarn till jul.', 'sv'],
      ['Ska byta från Outlook på Macen. Är den värd prenumerationen?', 'sv'],
      ['The bulb died after 8 months. Switching to LED, done with halide.', 'en'],
      ['Le comparateur trouve 60 € de moins ailleurs. Je change.', 'fr'],
    ]) {
      expect(intentsOf(text, language), text).toContain('buy_intent');
    }
    // Wanting something that is no purchase, and a note to check code before an upgrade, are not.
    expect(intentsOf('I want to understand how the queue works.', 'en')).not.toContain('buy_intent');
    expect(intentsOf('Check your FFI code before upgrading.', 'en')).not.toContain('buy_intent');
    // What one should buy, said of anyone, is no want of the writer's.
    expect(intentsOf('Hur vet man vilken storlek man ska köpa?', 'sv')).not.toContain('buy_intent');
  });
});

describe('opinion words across languages', () => {
  it('reads a word of blame before a word of praise as its degree', () => {
    expect(cuesOf('The impact driver is stupid powerful.', 'en')).toEqual([['powerful', 2 * 1.3]]);
    expect(cuesOf('Die Kamera ist brutal gut.', 'de')).toEqual([['gut', 2 * 1.3]]);
    expect(cuesOf('That was a stupid update.', 'en')).toEqual([['stupid', -2]]);
  });

  it('reads a thing worth every euro, cent or krona as praise, in any language', () => {
    for (const [text, language] of [
      ['Teuer, aber jeden Euro wert.', 'de'],
      ['Cher, mais ça vaut chaque centime.', 'fr'],
      ['Caro, pero vale cada peso.', 'es'],
      ['Caro, mas vale cada centavo.', 'pt'],
      ['Caro, ma vale ogni euro.', 'it'],
      ['Duur, maar elke euro waard.', 'nl'],
      ['Dyr, men värd varenda krona.', 'sv'],
    ]) expect(readSentiment(text, language, noWords).score, text).toBeGreaterThan(0);
  });

  it('reads a lone closing word of disbelief as sarcasm, but not as the answer to a question', () => {
    expect(readSentiment('Transmission shudder at 40k miles. Dealer says it is great. Sure.', 'en', noWords)).toMatchObject({ ironic: true, cues: [{ cue: 'great', score: -3 }] });
    expect(readSentiment('Is it any good? Sure.', 'en', noWords).ironic).toBe(false);
  });

  it('reads praise that trails off in doubt, or kindness thanked where none was done, as sarcasm', () => {
    expect(readSentiment('Renewed without a claim and the price went up 31%. Loyalty pays, apparently.', 'en', noWords)).toMatchObject({ ironic: true, score: -3 });
    expect(readSentiment('Timer ran all weekend: 61 hours on the invoice. client was thrilled, I\'m sure', 'en', noWords).ironic).toBe(true);
    expect(readSentiment('The kettle died after 14 months and they offered a 15% code. Very generous of them.', 'en', noWords).ironic).toBe(true);
    expect(readSentiment('Lovely of the shop to send the sofa with no legs.', 'en', noWords).ironic).toBe(true);
    expect(readSentiment('Le service client a raccroché. Très sympa de leur part.', 'fr', noWords).ironic).toBe(true);
    // Doubt about something that praises nothing, and kindness itself, are no irony.
    expect(readSentiment('The parcel left the depot, apparently.', 'en', noWords).ironic).toBe(false);
    expect(readSentiment('A kind man at the shop fixed the tap for free.', 'en', noWords).ironic).toBe(false);
  });

  it('takes back praise said right before "until", and not "until now" or an earlier shout-out', () => {
    expect(readSentiment('The lamp is fine until you need it dimmed.', 'en', noWords).score).toBeLessThan(0);
    expect(readSentiment('Die Lampe ist toll, bis man sie dimmen will.', 'de', noWords).score).toBeLessThan(0);
    expect(readSentiment('Die Lampe ist toll bis jetzt.', 'de', noWords).score).toBeGreaterThan(0);
    expect(readSentiment('Shoutout to the engineer who stayed on my ticket until 1am.', 'en', noWords).score).toBeGreaterThan(0);
  });

  it('reads loving how something goes, naming nothing good, as irony, and loving how easy it is as praise', () => {
    expect(readSentiment('Love how the kettle decides to switch off the second I turn around.', 'en', noWords).ironic).toBe(true);
    expect(readSentiment("J'adore comment la bouilloire s'éteint dès que je tourne le dos.", 'fr', noWords).ironic).toBe(true);
    expect(readSentiment('Love how easy the kettle is to clean.', 'en', noWords)).toMatchObject({ ironic: false, score: 4 });
  });

  it('takes a purchase made again for no fault come back', () => {
    expect(stanceCues('nach zehn jahren wie neu. würde ich wieder kaufen.')).toEqual(['lasted', 'would-again']);
    expect(stanceCues('der akku ist schon wieder leer.')).toEqual(['again']);
  });

  it('reads a thing worse than it was, a question that complains and a thing lacking, in any language', () => {
    expect(stanceCues('alguém sabe por que demora 3 segundos para abrir? antes era instantâneo.')).toEqual(['worse-since', 'fault-question']);
    expect(stanceCues('seit dem letzten update startet die app langsam.')).toEqual(['worse-since']);
    expect(stanceCues('¿en serio nadie ha arreglado todavía el cursor?')).toEqual(['fault-question']);
    expect(stanceCues('why does the lamp switch itself off at night?')).toEqual(['fault-question']);
    expect(stanceCues('bella interfaccia, ma manca la versione web.')).toEqual(['lacks']);
    expect(stanceCues('how do i switch the lamp off at night?')).toEqual([]);
  });
});

describe('the glossary relevance reads other languages through', () => {
  it('reads the words it knows as English in their place, and leaves the term and English posts alone', () => {
    expect(glossedWords(['les', 'oiseaux', 'du', 'jardin', 'cura'], 'fr', new Set(['cura']))).toEqual(['les', 'bird', 'du', 'garden', 'cura']);
    expect(glossedWords(['vögel', 'im', 'garten'], 'de', noWords)).toEqual(['bird', 'im', 'garden']);
    expect(glossedWords(['aplikacji', 'banku'], 'pl', noWords)).toEqual(['app', 'bank']);
    expect(glossedWords(['the', 'oiseaux'], 'en', noWords)).toEqual(['the', 'oiseaux']);
  });

  it('reads a German or Dutch compound by its first part, which names its field, and leaves other languages\' words whole', () => {
    expect(glossedWords(['akkuschrauber', 'kaffeemaschine', 'tierarzt'], 'de', noWords)).toEqual(['battery', 'coffee', 'animal']);
    expect(glossedWords(['koffietentje'], 'nl', noWords)).toEqual(['coffee']);
    // A head of under four letters is an inflection, read as before; French does not join nouns so.
    expect(glossedWords(['akkus', 'cafétéria'], 'de', noWords)).toEqual(['battery', 'cafétéria']);
    expect(glossedWords(['cafétéria'], 'fr', noWords)).toEqual(['cafétéria']);
  });
});

describe('machine-made feed lines in other languages', () => {
  it('reads "New post:" in each language as a feed template, and a person\'s post naming an article as no template', () => {
    const automated = (text: string) => automationSignals({ platform: 'x', text, links: [], author: { name: 'Lea', handle: 'lea' } }).automated;
    for (const text of ['Neuer Beitrag: Zehn Tipps für den Garten', 'Nouvel article : le guide des vélos', 'Nueva entrada: cómo elegir un portátil', 'Novo post: receitas rápidas', 'Nuovo articolo: la guida', 'Nieuw bericht: de beste fietsen', 'Nowy wpis: jak wybrać laptop', '新着記事：自転車の選び方']) {
      expect(automated(text), text).toBe(true);
    }
    expect(automated('Ich habe einen neuen Beitrag über Fahrräder geschrieben, Feedback willkommen.')).toBe(false);
  });
});

describe('machine-made release, job and listing lines', () => {
  const automated = (text: string) => automationSignals({ platform: 'x', text, links: [], author: { name: 'Lea', handle: 'lea' } }).automated;

  it('reads release feeds, job boards and shop listings as templates, and a person announcing a release in a sentence as none', () => {
    for (const text of [
      'New post: Ten tips for the garden #gardening',
      'Job: Senior Accountant – Lime & Partners, Leeds. Apply by Friday.',
      'Release: Foxglove 7.3.1 (Stable). Security fixes; crash fix in sync.',
      'lantern-dev/lantern: 25.01 released. New themes, 60+ contributors.',
      'Lantern 12.4.1 is available. Security fixes: 3 high, 2 moderate.',
      'Tickets: Spring concert – City Hall, Sat 14 Dec, 19:00. From £28.',
      'Neu im Shop: Brettspiel "Sternfahrt" – ab 8 Jahren, 29,99 €.',
    ]) {
      expect(automated(text), text).toBe(true);
    }
    expect(automated('Rust 1.83 is out: const extensions for &mut references, and a pile of newly const-stable APIs.')).toBe(false);
    expect(automated('@lantern/client 3.11: useQuery renders twice after refetch(). It was a single render in 3.10.')).toBe(false);
  });
});

describe('intents by the form of a post, in any language', () => {
  const intentsOf = (text: string, language: string) => detectIntents({ text, platform: 'x', opinion: readSentiment(text, language, noWords), productsNamed: 0 });

  it('reads a question offering the other option as the better one as a comparison', () => {
    expect(intentsOf('¿Las botas de marca blanca aguantan o es mejor pagar las originales?', 'es')).toContain('comparison');
    expect(intentsOf('Weet iemand of de app ook offline werkt, of kan ik beter een papieren kaart kopen?', 'nl')).toContain('comparison');
    expect(intentsOf('A bicicleta elétrica compensa ou é melhor alugar um carro?', 'pt')).toContain('comparison');
    expect(intentsOf('Should I repair the old lamp or is it better to buy a new one?', 'en')).toContain('comparison');
    // "o melhor" is "the best", no second option.
    expect(intentsOf('Este é o melhor café da cidade.', 'pt')).not.toContain('comparison');
  });

  it('reads choosing between two, coming from one to another and two names weighed in Polish as a comparison', () => {
    expect(intentsOf('Trying to pick between the two kettles for a small office. Thoughts?', 'en')).toContain('comparison');
    expect(intentsOf('Coming from a paper planner, is the app worth it?', 'en')).toContain('comparison');
    expect(intentsOf('Probé otra marca y volví a la de siempre.', 'es')).toContain('comparison');
    expect(intentsOf('La tenda è comoda, ma lenta rispetto ad altre.', 'it')).toContain('comparison');
    expect(intentsOf('Kettle czy Brewer na stary piec? Zależy mi na cenie.', 'pl')).toContain('comparison');
    expect(intentsOf('Entre semana y fin de semana la cafetería abre a las ocho.', 'es')).not.toContain('comparison');
  });

  it('reads money paid for a thing that broke as a complaint, in any words', () => {
    expect(intentsOf('Paid $35 for the lunch box and the zip fell off on day two.', 'en')).toContain('complaint');
    expect(intentsOf('Une lampe à 80 € qui se casse au bout de trois semaines.', 'fr')).toContain('complaint');
    expect(intentsOf('Il trolley da 120 euro si è rotto al primo viaggio.', 'it')).toContain('complaint');
    // A thing that broke with no money paid, or money with nothing broken, is not read so by this rule.
    expect(intentsOf('Paid $35 for the lunch box, it keeps soup warm until noon.', 'en')).not.toContain('complaint');
  });

  it('reads a question asking how to mend a fault as a complaint', () => {
    expect(intentsOf('The hinge on my laptop cracked again. Any cheap fixes?', 'en')).toContain('complaint');
    expect(intentsOf('Mi cafetera gotea otra vez por abajo. ¿Hay forma de arreglarlo?', 'es')).toContain('complaint');
    expect(intentsOf('The strap on the bag broke. Ideas?', 'en')).toContain('complaint');
    // Asking how to do something, with no fault told, is a question only.
    expect(intentsOf('How do I reset the clock on the oven? Any tips?', 'en')).toEqual(['question']);
  });

  it('reads one product set against another as a comparison whichever wins, in any language', () => {
    for (const [text, language] of [
      ['Unlike the old kettle, this one switches itself off.', 'en'],
      ['Im Gegensatz zu meinem alten Rucksack hält dieser dicht.', 'de'],
      ['Contrairement à mon ancienne lampe, celle-ci tient toute la nuit.', 'fr'],
      ['Me cambié a otra marca de zapatillas y no vuelvo.', 'es'],
      ['Troquei o aspirador antigo por um sem fio.', 'pt'],
      ['Sono passato a un altro gestore e pago la metà.', 'it'],
      ['Ik ben overgestapt naar een andere fietsenmaker.', 'nl'],
      // An accented letter ends these phrases, where `\b`, which knows only ASCII letters, finds no word's end.
      ['On range tout dans le classeur à la place de Trello.', 'fr'],
      ['On a migré de la vieille appli vers la nouvelle.', 'fr'],
      ['Je cherche une alternative à cette appli.', 'fr'],
    ] as const) {
      expect(intentsOf(text, language), text).toContain('comparison');
    }
    expect(intentsOf('The kettle switches itself off when the water boils.', 'en')).not.toContain('comparison');
  });
});
