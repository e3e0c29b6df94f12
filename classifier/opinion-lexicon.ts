/**
 * Words and phrases that carry an opinion about a product or service, scored
 * like AFINN (-5 to +5), per language. AFINN-165 and wink-nlp's lexicon are
 * general English: they miss what product talk is made of ("slow", "outage",
 * "overpriced", "just works"), and neither has any other language. The
 * entries of other languages are registered with the `sentiment` package as
 * its languages; English ones are layered over wink-nlp. The intent rules
 * read the same entries for complaints and praise. Entries the word tokenizer
 * would split (a space, hyphen, slash or apostrophe) are matched as phrases.
 */
export const opinionLexicons: Record<string, Record<string, number>> = {
  en: {
    slow: -2, slower: -1, sluggish: -2, laggy: -2, lag: -2, freezes: -2, froze: -2, crash: -2, crashes: -2, crashed: -2,
    crashing: -2, broken: -2, buggy: -2, glitch: -1, glitchy: -2, outage: -2, downtime: -2,
    'is down': -2, 'was down': -2, 'went down': -2, 'not working': -2, "doesn't work": -2, 'does not work': -2,
    'stopped working': -2, fails: -2, failing: -2, overpriced: -3, unreadable: -2, expensive: -1, pricey: -1,
    'too expensive': -2, 'price increase': -2, 'hidden fees': -2, overcharged: -3, 'charged twice': -3, refund: -1,
    'no refund': -2, 'still waiting': -2, stuck: -2, missing: -1, 'never again': -3, rough: -1, bloated: -2, 'a mess': -2,
    messy: -1, unusable: -3, unreliable: -2, flaky: -2, confusing: -2, 'hard to use': -2, 'takes forever': -2,
    worst: -3, disappointing: -2, frustrating: -2, annoying: -2, hate: -3, lost: -1, wasted: -2, cancel: -1,
    exhausting: -2, lossy: -2, weak: -1, 'gone downhill': -3, 'went downhill': -3, 'going downhill': -2,
    'just works': 3, smooth: 2, fast: 1, faster: 1, instant: 1, 'game changer': 3, 'worth it': 2,
    'worth every penny': 3, 'no-brainer': 2, best: 2, recommend: 2, 'highly recommend': 3, solid: 2, kudos: 3,
    thanks: 2, 'thank you': 2, easy: 1, painless: 2, helpful: 2, lifesaver: 3, enjoy: 2, love: 3, excited: 2,
    finally: 1, sane: 1, nicer: 2, cleaner: 2, smoother: 2, gorgeous: 3, 'hard to beat': 2, degraded: -2,
    'having problems': -2, 'having issues': -2,
    'chef\'s kiss': 3, '10/10': 3, 'no regrets': 2, 'zero regrets': 2, 'never looked back': 3, 'never going back': 2,
    "can't go back": 2, 'blown away': 3, 'mind blown': 3, 'mind-blowing': 3, shoutout: 2, 'shout out': 2, 'props to': 2,
    'hats off': 3, underrated: 2, goated: 3, slaps: 2, snappy: 2, buttery: 2, effortless: 2, intuitive: 2,
    'well designed': 2, 'well documented': 2, 'a breeze': 2, 'a joy': 3, 'love how': 3, 'love that': 3, 'so good': 3,
    'way better': 2, 'much better': 2, 'works great': 3, 'works perfectly': 3, 'works flawlessly': 3, 'rock solid': 3,
    'saved me': 2, 'saved us': 2, 'saved my': 2, 'spoiled me': 2, 'ruined every other': 3, 'nailed it': 3,
    'killer feature': 3, 'huge fan': 3, 'big fan': 2, 'gives me chills': 3, 'game-changer': 3, 'life saver': 3,
    'pleasantly surprised': 3,
    'a joke': -2, 'is a joke': -3, 'keeps crashing': -3, 'keeps freezing': -3, 'keeps failing': -3, 'keeps breaking': -3,
    'keeps logging me out': -2, 'locked out': -2, 'ate my': -2, 'lost my': -2, 'lost all': -2, 'deleted my': -2,
    'wiped my': -2, 'closed my account': -3, 'froze my account': -3, 'no response': -2, 'no reply': -2,
    'never replied': -2, ghosted: -2, janky: -2, clunky: -2, meh: -1, 'half-baked': -2, 'half baked': -2,
    nightmare: -3, dealbreaker: -2, 'deal breaker': -2, 'deal-breaker': -2, 'rip-off': -3, ripoff: -3, 'rip off': -3,
    'cash grab': -3, 'money grab': -3, enshittification: -3, 'price hike': -2, downgrade: -2, 'step backwards': -2,
    'gave up': -2, 'giving up': -2, 'fed up': -3, 'sick of': -3, 'tired of': -2, 'not impressed': -2, 'not worth': -2,
    'waste of': -3, overkill: -1, absurd: -2, 'technical debt': -1, 'tech debt': -1, footgun: -2, footguns: -2,
    trash: -3, garbage: -2, 'a pain': -2, 'pain in the': -3, 'getting worse': -3, 'broke again': -3,
    'no issues': 2, 'no problems': 2, 'without issues': 2, 'without a hitch': 3, 'zero issues': 2, 'breath of fresh air': 3,
    goosebumps: 3, iconic: 2, "i'm so in": 2, 'how i lived without': 3, 'how did i live without': 3, 'out of hand': -2,
    'logged me out': -2, 'kept throwing': -2, 'keeps throwing': -2, glitches: -2, 'breaks something': -2, begging: -1,
    incident: -1, investigating: -1, disruption: -2, delayed: -1,
    sturdy: 2, dependable: 2, trustworthy: 2, sleek: 2, handy: 2, convenient: 1, cozy: 2, cosy: 2, tasty: 2, stellar: 3,
    faultless: 3, 'hassle-free': 2, flimsy: -2, wobbly: -2, 'cheaply made': -2, shoddy: -2, subpar: -2, 'sub-par': -2, mediocre: -2,
    underwhelming: -2, overrated: -2, lackluster: -2, lacklustre: -2, leaky: -2, soggy: -2, bland: -1, fiddly: -1, rubbish: -2,
    weakest: -2, uglier: -2, tedious: -2, elegant: 2, elegance: 2, 'surprisingly well': 2, 'well argued': 2, depressing: -2,
  },
  de: {
    gut: 2, super: 3, toll: 3, klasse: 3, genial: 3, großartig: 3, hervorragend: 3, zufrieden: 2, empfehlenswert: 3,
    empfehlen: 2, praktisch: 2, schneller: 1, einfach: 1, hilfreich: 2, angenehm: 2, liebe: 3, endlich: 1,
    günstig: 1, günstiger: 1, danke: 2, schlecht: -2, langsam: -2, teuer: -2, 'zu teuer': -3, kaputt: -3, fehler: -1,
    absturz: -2, abgestürzt: -2, stürzt: -2, 'funktioniert nicht': -2, nervt: -2, nervig: -2, ärgerlich: -2,
    enttäuscht: -2, enttäuschend: -2, leider: -1, katastrophe: -3, schlimm: -2, fehlt: -1, problem: -1, probleme: -1,
    freundlich: 2, pünktlich: 1, chaotisch: -2, unübersichtlich: -2, nerven: -2,
    perfekt: 3, wunderbar: 3, fantastisch: 3, ausgezeichnet: 3, prima: 2, schön: 2, zuverlässig: 2, stabil: 1,
    begeistert: 3, beste: 2, besser: 1, 'lohnt sich': 2, 'lohnt sich nicht': -2, intuitiv: 2, übersichtlich: 2,
    schrecklich: -3, furchtbar: -3, mies: -2, unbrauchbar: -3, nutzlos: -2, umständlich: -2, kompliziert: -1,
    unzuverlässig: -2, instabil: -2, frustrierend: -2, enttäuschung: -2, katastrophal: -3, abzocke: -3, träge: -2,
    hasse: -3, schade: -1,
    spitze: 3, 'der hammer': 3, geil: 3, empfehle: 2, top: 2, lahm: -2, verbuggt: -2, 'hängt sich auf': -2,
    'stürzt ab': -2, 'kein support': -2, frechheit: -3, unverschämt: -3, 'ein witz': -2, 'nie wieder': -3, reinfall: -3,
    zeitverschwendung: -3, geldverschwendung: -3, überteuert: -3,
    'ohne probleme': 2, 'ohne murren': 2, 'läuft stabil': 2, elegant: 2, eleganz: 2, altbacken: -2, albtraum: -3, deprimierend: -2, durchgefallen: -2, durchfallen: -2, durchfalle: -2,
    'keine antwort': -2, störung: -2,
    beeindruckend: 3, meisterwerk: 3, empfehlung: 2, niedlich: 2, 'jeden cent wert': 3, 'jeden euro wert': 3, langweilig: -2,
    'rausgeschmissenes geld': -3,
    bequem: 2, traumhaft: 3, unerreicht: 3, flüssig: 2, lecker: 2, gemütlich: 2, stolz: 2, 'macht spaß': 3, genieße: 2, robust: 2, leise: 1, mühelos: 2, gelungen: 2, ätzend: -3, grottig: -3, nervtötend: -3, unbequem: -2, wackelig: -2,
  },
  fr: {
    bien: 1, bon: 2, bonne: 2, super: 3, génial: 3, géniale: 3, excellent: 3, excellente: 3, parfait: 3, agréable: 2,
    rapide: 1, pratique: 2, recommande: 2, top: 2, merci: 2, adore: 3, 'pas cher': 2, mauvais: -2, mauvaise: -2,
    nul: -3, nulle: -3, lent: -2, lente: -2, cher: -1, 'trop cher': -3, bug: -1, bugs: -1, plante: -2, erreur: -1,
    bloqué: -2, bloquée: -2, 'ne marche pas': -2, 'ne fonctionne pas': -2, déçu: -2, déçue: -2, horrible: -3,
    pire: -3, problème: -1, énervant: -2, galère: -2, 'hors de prix': -3,
    formidable: 3, magnifique: 3, impeccable: 3, fiable: 2, efficace: 2, intuitif: 2, intuitive: 2, bravo: 3,
    satisfait: 2, satisfaite: 2, ravi: 3, ravie: 3, meilleur: 2, meilleure: 2, mieux: 1, aime: 2, terrible: -2,
    catastrophe: -3, catastrophique: -3, lamentable: -3, inutilisable: -3, inutile: -2, décevant: -2, décevante: -2,
    déception: -2, arnaque: -3, lenteur: -2, instable: -2, compliqué: -1, compliquée: -1, pénible: -2, énerve: -2,
    déteste: -3, dommage: -1,
    'trop bien': 3, 'au top': 3, 'une tuerie': 3, kiffe: 3, incroyable: 3, bluffant: 3, chapeau: 2, nickel: 2, bof: -1,
    'une blague': -2, honteux: -3, scandaleux: -3, 'plus jamais': -3, 'perte de temps': -3, buggé: -2, rame: -2,
    'aucune réponse': -2, 'sans réponse': -2,
    'sans problème': 2, 'sans souci': 2, 'sans accroc': 3, élégant: 2, élégance: 2, fade: -2, 'à la poubelle': -2, cauchemar: -3, déprimant: -2, réclamation: -1, 'message automatique': -1, panne: -2,
    impressionnant: 3, impressionnante: 3, "chef-d'œuvre": 3, réactif: 2, réactive: 2, honnête: 2, 'vaut le coup': 2, 'vaut chaque centime': 3, 'vaut chaque euro': 3,
    ennuyeux: -2, soporifique: -2, 'argent jeté': -3,
    fier: 2, fière: 2, confortable: 2, délicieux: 2, génialissime: 3, sublime: 3, adorable: 2, 'trop mignon': 2, solide: 2, fluide: 2, silencieux: 1, réussi: 2, réussie: 2, 'coup de cœur': 3, inconfortable: -2, bruyant: -1, fragile: -1, médiocre: -2, 'à fuir': -3, 'tombe à plat': -2, raté: -2, ratée: -2,
  },
  es: {
    bien: 1, bueno: 2, buena: 2, genial: 3, excelente: 3, increíble: 3, recomendable: 3, recomiendo: 2, rápido: 1,
    fácil: 2, barato: 1, gracias: 2, encanta: 3, mejor: 2, malo: -2, mala: -2, lento: -2, caro: -2, 'muy caro': -3,
    error: -1, falla: -2, fallo: -2, 'no funciona': -2, 'vale cada centavo': 3, 'vale cada euro': 3, 'vale cada peso': 3, horrible: -3, pésimo: -3, peor: -3, problema: -1,
    decepcionado: -2,
    perfecto: 3, perfecta: 3, maravilla: 3, maravilloso: 3, fantástico: 3, estupendo: 3, encantado: 3, encantada: 3,
    contento: 2, contenta: 2, útil: 2, práctico: 2, fiable: 2, 'vale la pena': 2, 'no vale la pena': -2, terrible: -3,
    fatal: -3, lamentable: -3, desastre: -3, inútil: -2, decepción: -2, decepcionante: -2, frustrante: -2,
    molesto: -2, estafa: -3, complicado: -1, inestable: -2, 'se cuelga': -2, odio: -3, lástima: -1,
    'una pasada': 3, 'me encanta': 3, vergüenza: -2, 'nunca más': -3, 'pérdida de tiempo': -3, 'no sirve': -2,
    'se traba': -2, 'sin respuesta': -2, asco: -3,
    'sin problemas': 2, 'de maravilla': 3, desesperación: -3, elegancia: 2, elegante: 2, 'no vuelvo': -3, 'de juguete': -2, 'con gusto': 2, deprimente: -2, 'una pesadilla': -3, rechazó: -2, rechazado: -2, rechazada: -2,
    'se me cierra': -2, 'se cierra': -2, 'sin motivo': -2, 'ningún motivo': -2, 'y nada': -1, esperando: -1, caída: -2,
    impresionante: 3, 'obra maestra': 3, 'valió la pena': 2, aburrido: -2, 'dinero tirado': -3, 'tirar el dinero': -3,
    cómodo: 2, cómoda: 2, precioso: 3, preciosa: 3, delicioso: 2, orgulloso: 2, orgullosa: 2, sólido: 2, fluido: 2, silencioso: 1, 'me flipa': 3, 'una joya': 3, incómodo: -2, incómoda: -2, ruidoso: -1, frágil: -1, mediocre: -2, cutre: -2, 'una porquería': -3, chapuza: -3,
  },
  pt: {
    bom: 2, boa: 2, ótimo: 3, ótima: 3, excelente: 3, incrível: 3, recomendo: 3, melhor: 2, rápido: 1, fácil: 2,
    barato: 1, obrigado: 2, adoro: 3, finalmente: 1, ruim: -2, lento: -2, caro: -2, erro: -1, 'não funciona': -2,
    péssimo: -3, pior: -3, problema: -1, decepcionado: -2, 'vale cada centavo': 3, 'vale cada euro': 3,
    perfeito: 3, perfeita: 3, maravilhoso: 3, maravilhosa: 3, fantástico: 3, sensacional: 3, 'vale a pena': 2,
    'não vale a pena': -2, amei: 3, gostei: 2, satisfeito: 2, útil: 2, prático: 2, confiável: 2, horrível: -3,
    terrível: -3, lixo: -3, travando: -2, travou: -2, inútil: -2, decepção: -2, decepcionante: -2, frustrante: -2,
    chato: -2, irritante: -2, instável: -2, complicado: -1, odeio: -3, pena: -1,
    'show de bola': 3, 'mandou bem': 3, parabéns: 3, 'nunca mais': -3, 'perda de tempo': -3, vergonha: -3,
    'sem resposta': -2, porcaria: -3, bugado: -2, trava: -2,
    'sem problemas': 2, 'vivia sem': 3, elegância: 2, elegante: 2, 'não volto': -3, 'de tirar o fôlego': 3, estável: 1, deprimente: -2, 'um pesadelo': -3, 'dar erro': -2, 'dando erro': -2, 'deu erro': -2, 'fora do ar': -2,
    impressionante: 3, 'obra-prima': 3, 'valeu a pena': 2, entediante: -2, 'dinheiro jogado fora': -3,
    confortável: 2, lindo: 2, linda: 2, delicioso: 2, orgulhoso: 2, sólido: 2, fluido: 2, silencioso: 1, 'uma joia': 3, desconfortável: -2, barulhento: -1, frágil: -1, medíocre: -2, 'uma porcaria': -3,
  },
  it: {
    bene: 1, buono: 2, ottimo: 3, ottima: 3, bellissimo: 3, bellissima: 3, fantastico: 3, consiglio: 1, veloce: 1,
    facile: 2, grazie: 2, adoro: 3, migliore: 2, consigliato: 2, consigliatissimo: 3, male: -2, crasha: -2, cattivo: -2, lento: -2, caro: -2, errore: -1,
    'non funziona': -2, pessimo: -3, peggio: -3, problema: -1, deluso: -2, 'vale ogni centesimo': 3, 'vale ogni euro': 3,
    perfetto: 3, perfetta: 3, stupendo: 3, meraviglioso: 3, eccellente: 3, bello: 2, bella: 2, soddisfatto: 2,
    contento: 2, utile: 2, comodo: 2, pratico: 2, affidabile: 2, intuitivo: 2, 'vale la pena': 2, terribile: -3,
    orribile: -3, schifo: -3, inutile: -2, inutilizzabile: -3, delusione: -2, deludente: -2, frustrante: -2,
    fastidioso: -2, instabile: -2, complicato: -1, truffa: -3, 'si blocca': -2, odio: -3, peccato: -1,
    top: 2, spettacolo: 3, spettacolare: 3, geniale: 3, 'mai più': -3, 'perdita di tempo': -3, vergogna: -3,
    'nessuna risposta': -2, lentissimo: -3,
    'senza problemi': 2, inesistente: -2, eleganza: 2, elegante: 2, 'non ci torno': -3, incubo: -3, deprimente: -2, penale: -1, disservizio: -2,
    impressionante: 3, capolavoro: 3, emozionante: 3, promosso: 2, promossa: 2, noioso: -2, 'soldi buttati': -3,
    comodissimo: 3, delizioso: 2, orgoglioso: 2, solido: 2, fluido: 2, silenzioso: 1, 'una chicca': 3, scomodo: -2, rumoroso: -1, fragile: -1, mediocre: -2, 'una schifezza': -3,
  },
  nl: {
    goed: 2, prima: 1, geweldig: 3, super: 3, fantastisch: 3, aanrader: 3, snel: 1, sneller: 1, makkelijk: 2,
    handig: 2, bedankt: 2, slecht: -2, traag: -2, duur: -2, 'te duur': -3, fout: -1, 'werkt niet': -2, jammer: -1,
    probleem: -1, teleurgesteld: -2, crashen: -2, crasht: -2,
    perfect: 3, uitstekend: 3, fijn: 2, mooi: 2, prettig: 2, tevreden: 2, betrouwbaar: 2, aanbevolen: 2, top: 2,
    beter: 1, beste: 2, 'de moeite waard': 2, verschrikkelijk: -3, vreselijk: -3, waardeloos: -3, onbruikbaar: -3,
    nutteloos: -2, irritant: -2, frustrerend: -2, teleurstellend: -2, teleurstelling: -2, ingewikkeld: -1,
    onbetrouwbaar: -2, instabiel: -2, oplichterij: -3, kapot: -2, hapert: -2, 'loopt vast': -2, 'valt tegen': -2,
    blij: 2, 'nooit meer': -3, tijdverspilling: -3, schandalig: -3, belachelijk: -3, 'geen reactie': -2, bagger: -3,
    'zonder problemen': 2, summier: -1, elegant: 2, 'nooit meer terug': -3, deprimerend: -2, nachtmerrie: -3, 'veel te': -1, storing: -2,
    indrukwekkend: 3, meesterwerk: 3, 'elke cent waard': 3, 'elke euro waard': 3, saai: -2, 'weggegooid geld': -3,
    comfortabel: 2, heerlijk: 3, lekker: 2, trots: 2, 'verrassend goed': 3, stevig: 2, soepel: 2, oncomfortabel: -2, lawaaierig: -1, wankel: -2, matig: -1, 'niks aan': -2,
  },
  ja: {
    便利: 2, 快適: 2, 最高: 3, すごい: 3, 好き: 2, 良い: 2, 不便: -2, 遅い: -2, 最悪: -3, バグ: -1, エラー: -1,
    高い: -1,
    やすい: 1, にくい: -1, 素晴らしい: 3, 素敵: 2, 嬉しい: 2, うれしい: 2, 助かる: 2, 助かり: 2, おすすめ: 2,
    オススメ: 2, 楽しい: 2, 満足: 2, 綺麗: 2, きれい: 2, 感動: 2, ありがとう: 2, 残念: -2, ひどい: -3,
    酷い: -3, 重い: -2, 落ちる: -2, 不安定: -2, 微妙: -1, 困: -2, 面倒: -2, めんどくさい: -2, 最低: -3, ダメ: -2,
    がっかり: -2, 不満: -2,
    サクサク: 2, もっさり: -2, 不具合: -2, 最強: 3, 優秀: 2, 感謝: 2, 神: 3,
    楽: 2, 神アプリ: 3, 障害: -2,
    面白い: 2, つまらない: -2, 不評: -2,
    刺さる: 2, 気に入: 2, 美しい: 3, 癒し: 2, 癒される: 2, 落ち着く: 2, 美味しい: 2, おいしい: 2, 安心: 2, 使いやすい: 2, 使いにくい: -2, うるさい: -2, 壊れやすい: -2, 期待外れ: -2, 高すぎ: -2,
  },
  pl: {
    dobr: 2, fajn: 2, świetn: 3, super: 3, genialn: 3, rewelacja: 3, rewelacyjn: 3, polecam: 3, doskonał: 3, znakomit: 3,
    wspaniał: 3, idealn: 3, najlepsz: 3, lepsz: 1, szybk: 1, łatw: 2, wygodn: 2, przydatn: 2, niezawodn: 2, solidn: 2,
    intuicyjn: 2, zadowolon: 2, kocham: 3, uwielbiam: 3, dzięki: 2, dziękuję: 2, sztos: 3, mistrzostwo: 3, 'bez problemu': 2,
    'bez problemów': 2, 'warto było': 2, 'wart każdej złotówki': 3, 'daje radę': 2, 'robi robotę': 2,
    zły: -2, zła: -2, złe: -2, źle: -2, słab: -2, kiepsk: -2, beznadziejn: -3, tragiczn: -3, fataln: -3, okropn: -3, porażka: -3, porażką: -3, dramat: -2,
    masakra: -2, żenad: -3, żenując: -3, denerwując: -2, irytując: -2, frustrując: -2, wkurza: -2, bezużyteczn: -3,
    niestabiln: -2, awaryjn: -2, zepsut: -2, zepsuł: -2, rozczarowan: -2, rozczarowując: -2, zawiodł: -2, zawiódł: -2,
    błąd: -1, błędy: -1, problem: -1, problemy: -1, szkoda: -1, nudn: -2, oszustw: -3, skandal: -3, nienawidzę: -3,
    laguje: -2, przepłacon: -2, drożyzna: -2, 'nie działa': -2, 'nie polecam': -3, 'nigdy więcej': -3,
    'strata czasu': -3, 'strata pieniędzy': -3, 'wyrzucone pieniądze': -3, 'brak odpowiedzi': -2, 'zawiesza się': -2,
    'wywala się': -2, 'za drogi': -2, 'za drogie': -2, 'za droga': -2, 'szkoda pieniędzy': -3, 'szkoda kasy': -3,
  },
  sv: {
    bra: 2, bättre: 1, bäst: 3, bästa: 3, perfekt: 3, underbar: 3, fantastisk: 3, toppen: 3, grym: 3, grymt: 3, suverän: 3,
    utmärkt: 3, härlig: 2, fin: 2, snygg: 2, smidig: 2, snabb: 1, enkel: 2, lätt: 1, prisvärd: 2, pålitlig: 2, stabil: 2,
    trygg: 2, nöjd: 2, glad: 2, älskar: 3, gillar: 2, tack: 2, rekommenderar: 3, rekommendera: 2, 'värd pengarna': 2, 'värd varenda krona': 3, 'värd varje krona': 3, 'värt pengarna': 2,
    'litar på': 2, 'funkar klockrent': 3, klockren: 3, imponerad: 3, imponerande: 3, gullig: 2, mysig: 2, skön: 2, lugn: 1,
    dålig: -2, sämre: -1, sämst: -3, värst: -3, usel: -3, urdålig: -3, kass: -2, skräp: -3, värdelös: -3, katastrof: -3,
    långsam: -2, seg: -2, dyr: -1, 'för dyr': -2, 'för dyrt': -2, överprisad: -3, trasig: -2, sönder: -2, 'gick sönder': -2,
    krånglig: -2, buggig: -2, krånglar: -2, kraschar: -2, hänger: -1, avbrott: -1, problem: -1, fel: -1, tyvärr: -1, synd: -1,
    besviken: -2, besvikelse: -2, irriterande: -2, jobbig: -2, hatar: -3, 'fungerar inte': -2, 'fungerade inte': -2, 'funkar inte': -2,
    'funkade inte': -2, 'inte värt': -2, slöseri: -3, bedrägeri: -3, skandal: -3, 'aldrig mer': -3, 'i sjön': -2, skrattretande: -2,
    oanvändbar: -3, opålitlig: -2, instabil: -2, frustrerande: -2, tråkig: -2, förstörd: -2, förstört: -2, förstörde: -2,
    'utan problem': 2, 'inga problem': 2,
  },
  et: { hea: 2, suurepärane: 3, kiire: 1, halb: -2, aeglane: -2, kallis: -2 },
};

/**
 * AFINN-165 words that in posts about products are mostly not opinions:
 * prepositions ("like"), prices and plans ("free tier", "pay", "charges"),
 * engineering terms ("kill switch", "panic", "lazy", "block", "error
 * messages", "works offline", "cut build time") and requests ("want"). They score zero here; wink-nlp still
 * reads them in context for English.
 */
export const afinnNotOpinions = [
  'no', 'like', 'pay', 'charges', 'free', 'want', 'block', 'kill', 'killed', 'panic', 'lazy', 'unstable', 'fresh', 'grand',
  'god', 'fit', 'interested', 'save', 'clean', 'active', 'shared', 'agrees', 'cleared', 'resolved', 'negative',
  'debt', 'pretty', 'quality', 'backed', 'stop', 'stops', 'cancer', 'question', 'care', 'yes', 'please', 'alone',
  'error', 'errors', 'warning', 'warnings', 'offline', 'share', 'cut', 'big', 'support', 'drop', 'prevent', 'fire', 'fired',
];

/**
 * Words that turn a sentence ("great, but slow"): what follows them carries
 * the opinion, as in VADER's contrast rule.
 */
export const contrastWords: ReadonlySet<string> = new Set(['but', 'however', 'aber', 'jedoch', 'mais', 'pero', 'mas', 'porém', 'ma', 'però', 'maar', 'ale', 'jednak', 'lecz', 'pity', 'shame', 'schade', 'dommage', 'lástima', 'peccato', 'jammer', 'szkoda', 'synd', 'けど', 'しかし', 'でも']);

/**
 * Words of regret among the contrast words ("Bellissima app, peccato che si
 * chiuda…", "Toller Akku, schade nur, dass…", "great app, shame about the
 * ads"): after praise within a sentence they turn it as "but" does; opening
 * a sentence ("Jammer.", "Shame on them") they turn nothing.
 */
export const regretWords: ReadonlySet<string> = new Set(['pity', 'shame', 'schade', 'dommage', 'lástima', 'peccato', 'jammer', 'szkoda', 'synd']);

/** Negating words, per language: an opinion word right after one counts the other way. */
export const negators: Record<string, ReadonlySet<string>> = {
  en: new Set(['not', "don't", "doesn't", "isn't", "wasn't", "aren't", "didn't", 'never', 'no', 'zero', 'without', 'hardly']),
  de: new Set(['nicht', 'kein', 'keine', 'keinen', 'nie', 'niemals', 'ohne']),
  fr: new Set(['ne', 'pas', 'jamais', 'sans', 'aucun', 'aucune', 'ni']),
  es: new Set(['no', 'nunca', 'sin', 'ni', 'tampoco']),
  pt: new Set(['não', 'nunca', 'sem', 'nem']),
  it: new Set(['non', 'mai', 'senza', 'né']),
  nl: new Set(['niet', 'geen', 'nooit', 'zonder']),
  pl: new Set(['nie', 'nigdy', 'bez', 'ani', 'żaden', 'żadna', 'żadne']),
  sv: new Set(['inte', 'aldrig', 'ingen', 'inget', 'inga', 'utan', 'ej']),
  et: new Set(['ei', 'pole']),
};

/**
 * Words that end what a negation denies ("doesn't lag anymore", "ne plante
 * plus", "stürzt nicht mehr ab"): a problem that has stopped is praise.
 */
export const cessationWords: ReadonlySet<string> = new Set(['anymore', 'longer', 'plus', 'mehr', 'meer']);

/** Degree words, per language, that strengthen the opinion word right after them ("really slow", "sehr gut"). */
export const intensifiers: Record<string, ReadonlySet<string>> = {
  en: new Set([
    'very', 'really', 'so', 'super', 'extremely', 'incredibly', 'absolutely', 'totally', 'truly', 'insanely', 'ridiculously',
    'stupid', 'stupidly', 'crazy', 'absurdly', 'freaking', 'wicked', 'scary', 'scarily', 'terribly', 'awfully', 'unbelievably',
  ]),
  de: new Set(['sehr', 'echt', 'wirklich', 'total', 'extrem', 'richtig', 'voll', 'mega', 'verdammt', 'wahnsinnig', 'irre', 'krass', 'brutal', 'unverschämt']),
  fr: new Set(['très', 'vraiment', 'hyper', 'tellement', 'vachement', 'extrêmement', 'terriblement', 'follement', 'grave', 'ridiculement']),
  es: new Set(['muy', 'realmente', 'súper', 'tan', 'demasiado', 'extremadamente', 'tremendamente', 'brutalmente', 'absurdamente', 'ridículamente']),
  pt: new Set(['muito', 'super', 'realmente', 'bastante', 'extremamente', 'absurdamente', 'ridiculamente', 'terrivelmente']),
  it: new Set(['molto', 'davvero', 'super', 'troppo', 'veramente', 'estremamente', 'terribilmente', 'assurdamente', 'pazzescamente']),
  nl: new Set(['heel', 'erg', 'echt', 'zeer', 'enorm', 'hartstikke', 'belachelijk', 'bizar', 'vet', 'ziek', 'waanzinnig']),
  pl: new Set(['bardzo', 'naprawdę', 'mega', 'super', 'niesamowicie', 'strasznie', 'totalnie', 'zbyt']),
  sv: new Set(['mycket', 'väldigt', 'riktigt', 'verkligen', 'otroligt', 'helt', 'sjukt', 'extremt', 'supersjukt', 'jätte']),
  ja: new Set(['とても', 'すごく', 'めっちゃ', '本当に', '超', 'かなり']),
};

/** Degree words, per language, that soften the opinion word right after them ("a bit slow", "etwas teuer"). */
export const diminishers: Record<string, ReadonlySet<string>> = {
  en: new Set(['bit', 'slightly', 'somewhat', 'kinda', 'kind', 'sort', 'little', 'fairly', 'mildly']),
  de: new Set(['etwas', 'bisschen', 'leicht', 'ziemlich', 'eher']),
  fr: new Set(['peu', 'légèrement', 'assez', 'plutôt']),
  es: new Set(['poco', 'algo', 'ligeramente', 'bastante']),
  pt: new Set(['pouco', 'meio', 'ligeiramente']),
  it: new Set(['poco', 'leggermente', 'abbastanza', 'piuttosto']),
  nl: new Set(['beetje', 'wat', 'vrij', 'nogal', 'redelijk']),
  pl: new Set(['trochę', 'nieco', 'dość', 'lekko', 'raczej']),
  sv: new Set(['lite', 'ganska', 'något', 'rätt', 'smått']),
  ja: new Set(['少し', 'ちょっと', 'やや']),
};
