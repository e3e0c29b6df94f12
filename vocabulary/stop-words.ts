// Shared vocabulary, importing nothing: the stop words of the classifier and the keyword rule suggestions.

/**
 * Function words of the languages Earshot's users post in most, merged into
 * one set: a post's language is itself a guess, and a word that carries no
 * topic in one of these languages rarely carries one in another. Used to keep
 * sense profiles, learned feedback and rule suggestions to words that say
 * what a post is about.
 */
const english = `a about above after again against all also am an and any are as at be because been before being below between both
but by can could did do does doing down during each even ever every few for from further get got had has have having he her here
hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over
own same she should so some such than that the their theirs them then there these they this those through to too under until up
very was we were what when where which while who whom why will with would you your yours yet via really still much many lol`;
const german = `der die das den dem des ein eine einen einem einer eines und oder aber ich du er sie es wir ihr mit von zu im in ist
sind war auf für nicht auch noch nur wie was wer wo bei aus als am an dass so mir mich dir uns euch sich sehr schon`;
const french = `le la les un une des et ou mais je tu il elle nous vous ils elles de du au aux en dans pour par sur avec est sont
pas ne que qui quoi ce cette ces mon ma mes son sa ses leur très plus c'est on`;
const spanish = `el la los las un una unos unas y o pero yo tú él ella nosotros de del al en por para con es son no que qué
se su sus mi mis muy más como lo le`;
const portuguese = `o a os as um uma e ou mas eu ele ela nós de do da dos das em no na nos nas por para com é são não que se
seu sua meu minha muito mais como`;
const italian = `il lo la i gli le un una e o ma io tu lui lei noi di da del della in nel nella per con è sono non che si
suo sua mio mia molto più come`;
const dutch = `de het een en of maar ik jij hij zij wij van in op voor met is zijn niet dat die dit te bij als ook nog
zo er`;

export const stopWords: ReadonlySet<string> = new Set(
  [english, german, french, spanish, portuguese, italian, dutch].join(' ').split(/\s+/).filter(Boolean),
);
