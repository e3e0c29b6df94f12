/**
 * A core glossary of seven languages into English, for relevance alone: the
 * word vectors and the field vocabularies are English, so "oiseaux",
 * "Vögel" and "鳥" lean a post nowhere until read as "birds". The concepts
 * are general ones (software and devices, buying, media, food, places,
 * nature, people, sport, health, work), written from the languages' common
 * vocabulary, not from any evaluation set. Each line: the English word,
 * then its forms in German, French, Spanish, Portuguese, Italian, Dutch,
 * Polish and Japanese, separated by `|`; several forms by commas. A form
 * also reads its inflections of up to three more letters ("aplicación" →
 * "aplicaciones" needs its own form; "Vogel" → "Vogels" does not), and in
 * German and Dutch, which join nouns into one word, the compounds it opens
 * ("Akkuschrauber" → battery, "koffietentje" → coffee).
 */
const glossaryLines = `
app|app,apps|appli,application,applis|aplicación,aplicaciones,app|aplicativo,aplicativos,app|app,applicazione|app,apps|aplikacja,aplikacji,apka|アプリ
software|software|logiciel,logiciels|programa,programas|programa,programas|programma,programmi|software,programma|oprogramowanie,program|ソフト,ソフトウェア
update|aktualisierung,update|maj|actualización,actualizaciones|atualização,atualizações|aggiornamento,aggiornamenti|update,updates|aktualizacja,aktualizacji|アップデート,更新
version|version,versionen|version|versión,versiones|versão,versões|versione,versioni|versie|wersja,wersji|バージョン
error|fehler|erreur,erreurs|error,errores|erro,erros|errore,errori|fout,fouten|błąd,błędy,błędu|エラー
bug|bug,bugs|bug,bogue|bug,fallo|bug|bug|bug|błąd|バグ
feature|funktion,funktionen|fonctionnalité,fonction|función,funciones|recurso,função|funzione,funzionalità|functie,functies|funkcja,funkcje|機能
download|herunterladen,download|télécharger,téléchargement|descargar,descarga|baixar,download|scaricare,download|downloaden|pobrać,pobieranie|ダウンロード
install|installieren,installiert|installer,installé|instalar,instalé|instalar,instalei|installare,installato|installeren,geïnstalleerd|zainstalować,instalacja|インストール
code|code,quellcode|code|código|código|codice|code|kod,kodu|コード
developer|entwickler|développeur,développeurs|desarrollador,desarrolladores|desenvolvedor,desenvolvedores|sviluppatore,sviluppatori|ontwikkelaar,ontwikkelaars|programista,deweloper|開発者
programming|programmieren,programmierung|programmation|programación|programação|programmazione|programmeren|programowanie|プログラミング
computer|rechner,computer|ordinateur,ordi|ordenador,computadora|computador|computer|computer|komputer|パソコン,コンピュータ
laptop|laptop,notebook|portable|portátil|notebook|portatile|laptop|laptop|ノートパソコン
phone|handy,telefon,smartphone|téléphone,portable|móvil,teléfono,celular|celular,telemóvel|telefono,cellulare|telefoon,mobiel|telefon,komórka|スマホ,電話
screen|bildschirm|écran|pantalla|tela|schermo|scherm|ekran|画面
server|server|serveur|servidor|servidor|server|server|serwer|サーバー
data|daten|données|datos|dados|dati|gegevens,data|dane,danych|データ
file|datei,dateien|fichier,fichiers|archivo,archivos|arquivo,arquivos,ficheiro|file|bestand,bestanden|plik,pliki|ファイル
website|webseite,website|site|sitio,web|site|sito|website|strona|サイト,ウェブサイト
page|seite|page|página|página|pagina|pagina|strona|ページ
account|konto|compte|cuenta|conta|account|account|konto|アカウント
password|passwort|mdp|contraseña|senha|password|wachtwoord|hasło|パスワード
settings|einstellungen|paramètres,réglages|ajustes,configuración|configurações|impostazioni|instellingen|ustawienia|設定
user|nutzer,benutzer|utilisateur,utilisateurs|usuario,usuarios|usuário,usuários|utente,utenti|gebruiker,gebruikers|użytkownik|ユーザー
tool|werkzeug,tool|outil,outils|herramienta,herramientas|ferramenta,ferramentas|strumento,strumenti|gereedschap,tool|narzędzie,narzędzia|ツール
plugin|plugin,erweiterung|extension,plugin|complemento,plugin|plugin,extensão|plugin,estensione|plugin,extensie|wtyczka|プラグイン
documentation|dokumentation,doku|documentation,doc|documentación|documentação|documentazione|documentatie|dokumentacja|ドキュメント
performance|leistung,performance|performances|rendimiento|desempenho|prestazioni|prestaties|wydajność|性能,パフォーマンス
memory|speicher,arbeitsspeicher|mémoire|memoria|memória|memoria|geheugen|pamięć|メモリ
battery|akku,batterie|batterie|batería|bateria|batteria|batterij,accu|bateria|バッテリー,電池
charger|ladegerät|chargeur|cargador|carregador|caricatore|oplader|ładowarka|充電器
device|gerät,geräte|appareil|dispositivo,aparato|aparelho,dispositivo|dispositivo|apparaat|urządzenie|デバイス,端末
sound|klang,ton|sonore|sonido|som|suono|geluid|dźwięk|音
video|video|vidéo|vídeo|vídeo|video|video|wideo,film|動画,ビデオ
photo|foto,bild|photo|foto|foto|foto|foto|zdjęcie|写真
camera|kamera|caméra|cámara|câmera|fotocamera|camera|aparat,kamera|カメラ
music|musik|musique|música|música|musica|muziek|muzyka|音楽
song|lied,song|chanson|canción|canção,música|canzone|nummer,liedje|piosenka|曲,歌
album|album|album|álbum|álbum|album|album|album|アルバム
band|band|groupe|banda,grupo|banda|gruppo,band|band|zespół|バンド
concert|konzert|concert|concierto|show,concerto|concerto|concert|koncert|ライブ,コンサート
game|spiel,spiele|jeu,jeux|juego,juegos|jogo,jogos|gioco,giochi|spel,spelletje|gra,gry|ゲーム
player|spieler|joueur,joueurs|jugador,jugadores|jogador,jogadores|giocatore,giocatori|speler,spelers|gracz|選手,プレイヤー
movie|film|film|película|filme|film|film|film|映画
series|serie|série|serie|série|serie|serie|serial|ドラマ,シリーズ
episode|folge|épisode|episodio|episódio|episodio|aflevering|odcinek|話,エピソード
book|buch,bücher|livre,livres|libro,libros|livro,livros|libro,libri|boek,boeken|książka,książki|本
novel|roman|roman|novela|romance|romanzo|roman|powieść|小説
writer|schriftsteller,autor|écrivain,auteur|escritor,autor|escritor,autor|scrittore,autore|schrijver|pisarz|作家
poem|gedicht|poème|poema|poema|poesia|gedicht|wiersz|詩
art|kunst|art|arte|arte|arte|kunst|sztuka|アート,芸術
painting|gemälde,malerei|peinture,tableau|pintura,cuadro|pintura,quadro|dipinto,pittura|schilderij|obraz|絵
drawing|zeichnung|dessin|dibujo|desenho|disegno|tekening|rysunek|絵,スケッチ
design|design,gestaltung|design,conception|diseño|design|design|ontwerp|projekt|デザイン
colour|farbe|couleur|color|cor|colore|kleur|kolor|色
price|preis,preise|prix|precio,precios|preço,preços|prezzo,prezzi|prijs,prijzen|cena,ceny|値段,価格
buy|kaufen,gekauft|acheter,acheté|comprar,compré|comprar,comprei|comprare,comprato|kopen,gekocht|kupić,kupiłem,kupiłam|買った,購入
shop|laden,geschäft|magasin,boutique|tienda|loja|negozio|winkel|sklep|店
order|bestellung|commande|pedido|pedido,encomenda|ordine|bestelling|zamówienie|注文
delivery|lieferung|livraison|entrega,envío|entrega|consegna|levering,bezorging|dostawa|配達,配送
subscription|abo,abonnement|abonnement|suscripción|assinatura|abbonamento|abonnement|subskrypcja,abonament|サブスク
customer|kunde,kunden|client,clients|cliente,clientes|cliente,clientes|cliente,clienti|klant,klanten|klient,klienci|客,顧客
service|dienst,service|service|servicio|serviço|servizio|dienst,service|usługa,serwis|サービス
brand|marke|marque|marca|marca|marca|merk|marka|ブランド
product|produkt|produit|producto|produto|prodotto|product|produkt|製品,商品
quality|qualität|qualité|calidad|qualidade|qualità|kwaliteit|jakość|品質
company|firma,unternehmen|entreprise,société|empresa|empresa|azienda,società|bedrijf|firma,spółka|会社,企業
house|haus|maison|casa|casa|casa|huis|dom|家
kitchen|küche|cuisine|cocina|cozinha|cucina|keuken|kuchnia|キッチン,台所
garden|garten|jardin|jardín|jardim|giardino|tuin|ogród|庭
food|essen,lebensmittel|nourriture,bouffe|comida|comida|cibo|eten|jedzenie|食べ物
drink|getränk|boisson|bebida|bebida|bevanda|drankje|napój|飲み物
coffee|kaffee|café|café|café|caffè|koffie|kawa|コーヒー
tea|tee|thé|té|chá|tè|thee|herbata|お茶,紅茶
beer|bier|bière|cerveza|cerveja|birra|bier|piwo|ビール
wine|wein|vin|vino|vinho|vino|wijn|wino|ワイン
cake|kuchen,torte|gâteau|pastel,tarta|bolo|torta|taart|ciasto|ケーキ
fruit|obst,frucht|fruit,fruits|fruta,frutas|fruta,frutas|frutta|fruit|owoc,owoce|果物
vegetable|gemüse|légume,légumes|verdura,verduras|legume,legumes|verdura,verdure|groente,groenten|warzywo,warzywa|野菜
recipe|rezept|recette|receta|receita|ricetta|recept|przepis|レシピ
restaurant|restaurant|restaurant|restaurante|restaurante|ristorante|restaurant|restauracja|レストラン
city|stadt|ville|ciudad|cidade|città|stad|miasto|都市,街
country|land|pays|país|país|paese|land|kraj|国
street|straße|rue|calle|rua|strada|straat|ulica|通り
car|auto,wagen|voiture|coche,carro|carro|auto,macchina|auto|samochód,auto|車
bike|fahrrad,rad|vélo|bicicleta,bici|bicicleta|bicicletta,bici|fiets|rower|自転車
motorbike|motorrad|moto|moto|moto|moto|motor|motocykl|バイク
train|zug|train|tren|trem|treno|trein|pociąg|電車
plane|flugzeug|avion|avión|avião|aereo|vliegtuig|samolot|飛行機
flight|flug|vol|vuelo|voo|volo|vlucht|lot|便,フライト
hotel|hotel|hôtel|hotel|hotel|albergo,hotel|hotel|hotel|ホテル
beach|strand|plage|playa|praia|spiaggia|strand|plaża|ビーチ,海辺
sea|meer|mer|mar|mar|mare|zee|morze|海
river|fluss|rivière,fleuve|río|rio|fiume|rivier|rzeka|川
mountain|berg,berge|montagne|montaña|montanha|montagna|berg|góra,góry|山
weather|wetter|météo|clima|clima|meteo|weerbericht|pogoda|天気
rain|regen|pluie|lluvia|chuva|pioggia|regen|deszcz|雨
snow|schnee|neige|nieve|neve|neve|sneeuw|śnieg|雪
sun|sonne|soleil|sol|sol|sole|zon|słońce|太陽
sky|himmel|ciel|cielo|céu|cielo|hemel,lucht|niebo|空
star|stern,sterne|étoile,étoiles|estrella,estrellas|estrela,estrelas|stella,stelle|ster,sterren|gwiazda,gwiazdy|星
space|weltraum,weltall|espace|espacio|espaço|spazio|ruimte|kosmos|宇宙
animal|tier,tiere|animal,animaux|animal,animales|animal,animais|animale,animali|dier,dieren|zwierzę,zwierzęta|動物
dog|hund|chien|perro|cachorro,cão|cane|hond|pies,psa|犬
cat|katze,kater|chat,chats|gato,gatos|gato,gatos|gatto,gatti|kat,katten|kot,kota,koty|猫
bird|vogel,vögel|oiseau,oiseaux|pájaro,pájaros,ave,aves|pássaro,pássaros,ave,aves|uccello,uccelli|vogel,vogels|ptak,ptaki|鳥
fish|fisch|poisson|pez,pescado|peixe|pesce|vis|ryba|魚
horse|pferd|cheval|caballo|cavalo|cavallo|paard|koń|馬
insect|insekt|insecte|insecto|inseto|insetto|insect|owad|虫
plant|pflanze|plante|planta|planta|pianta|plant|roślina|植物
tree|baum|arbre|árbol|árvore|albero|boom|drzewo|木
flower|blume|fleur|flor|flor|fiore|bloem|kwiat|花
doctor|arzt,ärztin|médecin|médico|médico|medico|dokter,arts|lekarz|医者
hospital|krankenhaus|hôpital|hospital|hospital|ospedale|ziekenhuis|szpital|病院
medicine|medikament,medizin|médicament|medicamento|remédio,medicamento|medicina,farmaco|medicijn|lek|薬
health|gesundheit|santé|salud|saúde|salute|gezondheid|zdrowie|健康
skin|haut|peau|piel|pele|pelle|huid|skóra|肌
school|schule|école|escuela,colegio|escola|scuola|school|szkoła|学校
student|student,schüler|étudiant|estudiante|estudante,aluno|studente|student|student|学生
teacher|lehrer|professeur,prof|profesor|professor|insegnante,professore|leraar|nauczyciel|先生
university|universität,uni|université,fac|universidad|universidade|università|universiteit|uniwersytet|大学
church|kirche|église|iglesia|igreja|chiesa|kerk|kościół|教会
family|familie|famille|familia|família|famiglia|familie,gezin|rodzina|家族
child|kind,kinder|enfant,enfants|niño,niños,hijo|criança,filho|bambino,bambini,figlio|kind,kinderen|dziecko,dzieci|子供
friend|freund,freundin|ami,amie,pote|amigo,amiga|amigo,amiga|amico,amica|vriend,vriendin|przyjaciel,kumpel|友達
team|team,mannschaft|équipe|equipo|equipe,time|squadra|team,ploeg|drużyna,zespół|チーム
match|spiel,partie|match|partido|jogo,partida|partita|wedstrijd|mecz|試合
football|fußball|foot,football|fútbol|futebol|calcio|voetbal|piłka|サッカー
season|saison|saison|temporada|temporada|stagione|seizoen|sezon|シーズン
history|geschichte|histoire|historia|história|storia|geschiedenis|historia|歴史
story|geschichte|histoire|historia,cuento|história|storia|verhaal|historia|物語
war|krieg|guerre|guerra|guerra|guerra|oorlog|wojna|戦争
king|könig|roi|rey|rei|sovrano|koning|król|王
myth|mythos,sage|mythe,légende|mito,leyenda|mito,lenda|mito,leggenda|mythe|mit|神話,伝説
actor|schauspieler|acteur|actor|ator|attore|acteur|aktor|俳優
science|wissenschaft|science|ciencia|ciência|scienza|wetenschap|nauka|科学
research|forschung|recherche|investigación|pesquisa|ricerca|onderzoek|badania|研究
work|arbeit|travail,boulot|trabajo|trabalho|lavoro|werk|praca|仕事
job|job,stelle|poste,emploi|empleo,puesto|vaga,emprego|lavoro,posto|baan,vacature|praca,oferta|求人
money|geld|argent|dinero|dinheiro|soldi,denaro|geld|pieniądze,kasa|お金
bank|bank|banque|banco|banco|banca|bank|bank|銀行
news|nachrichten|actualités,infos|noticias|notícias|notizie|nieuws|wiadomości|ニュース
light|licht,lampe|lumière,lampe|luz,lámpara|luz,lâmpada|luce,lampada|licht,lamp|światło,lampa|照明,ライト
heating|heizung|chauffage|calefacción|aquecimento|riscaldamento|verwarming|ogrzewanie|暖房
keyboard|tastatur|clavier|teclado|teclado|tastiera|toetsenbord|klawiatura|キーボード
printer|drucker|imprimante|impresora|impressora|stampante|printer|drukarka|プリンター
email|e-mail,mail|mail,courriel|correo|e-mail|mail,email|mail|mail,poczta|メール
newsletter|newsletter|newsletter,infolettre|boletín|newsletter|newsletter|nieuwsbrief|newsletter|ニュースレター
`;

const glossary = new Map<string, Map<string, string>>();
{
  const languages = ['de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'ja'];
  for (const line of glossaryLines.trim().split('\n')) {
    const [english, ...columns] = line.split('|');
    columns.forEach((forms, index) => {
      const language = languages[index];
      for (const word of forms.split(',')) {
        const table = glossary.get(language) ?? new Map<string, string>();
        if (!table.has(word)) table.set(word, english);
        glossary.set(language, table);
      }
    });
  }
}

const maxInflectionLetters = 3;
const minStemLetters = 4;

/** Letters a compound's head keeps after a known first part: "schrauber" of "Akkuschrauber". */
const minHeadLetters = 4;
/** Languages that join nouns into one word ("Akkuschrauber", "koffietentje", "Erntedankfest"). */
const compounding = new Set(['de', 'nl']);

/** The English word a word of `language` stands for, or the word itself. */
function englishOf(table: ReadonlyMap<string, string>, word: string, compounds: boolean): string {
  const exact = table.get(word);
  if (exact !== undefined) return exact;
  for (let cut = 1; cut <= maxInflectionLetters && word.length - cut >= minStemLetters; cut++) {
    const stem = table.get(word.slice(0, -cut));
    if (stem !== undefined) return stem;
  }
  // A compound's first part says what field its head belongs to: "Akku-schrauber" is a battery tool, "koffie-tentje" a coffee place.
  if (compounds) {
    for (let end = word.length - minHeadLetters; end >= minStemLetters; end--) {
      const part = table.get(word.slice(0, end));
      if (part !== undefined) return part;
    }
  }
  return word;
}

/**
 * A post's words as relevance reads them: in a post of another language,
 * each word the glossary knows is read as its English word, in its place
 * (so "near the term" still holds); the term's own words stay as written.
 */
export function glossedWords(words: readonly string[], language: string | null, keep: ReadonlySet<string>): readonly string[] {
  const table = language === null || language === 'en' ? undefined : glossary.get(language);
  if (!table) return words;
  const compounds = compounding.has(language!);
  return words.map((word) => (keep.has(word) ? word : englishOf(table, word, compounds)));
}
