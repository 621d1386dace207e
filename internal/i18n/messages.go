package i18n

// table holds every shopper-facing message of the core, one row per
// message: English (the key, as validate and postal write it), Spanish,
// Portuguese (European), French, German, Italian, Dutch. Spanish and
// Italian address the shopper as tú/tu, Portuguese, French and German
// formally, Dutch as je: the usual tone of shops in each country. Field
// names, codes and example values are never translated.
//
// A row is the English text (the same string data as validate's and
// postal's constants) and the six translations, in Locale order, joined by
// '|' (rowSep), which no message contains: two string headers per row
// instead of seven.
//
// A new English message in validate or postal needs a row here: the
// package's tests fail while any message lacks a language.
var table = [...][2]string{
	// --- validate: every kind of field ---
	{"This field is required.",
		"Este campo es obligatorio." +
			"|Este campo é obrigatório." +
			"|Ce champ est obligatoire." +
			"|Dieses Feld ist erforderlich." +
			"|Questo campo è obbligatorio." +
			"|Dit veld is verplicht."},
	{"Contains bytes that are not valid UTF-8 text.",
		"Contiene bytes que no son texto UTF-8 válido." +
			"|Contém bytes que não são texto UTF-8 válido." +
			"|Contient des octets qui ne forment pas un texte UTF-8 valide." +
			"|Enthält Bytes, die kein gültiger UTF-8-Text sind." +
			"|Contiene byte che non sono testo UTF-8 valido." +
			"|Bevat bytes die geen geldige UTF-8-tekst zijn."},
	{"Remove line breaks and control characters.",
		"Quita los saltos de línea y los caracteres de control." +
			"|Remova as quebras de linha e os caracteres de controlo." +
			"|Supprimez les retours à la ligne et les caractères de contrôle." +
			"|Entfernen Sie Zeilenumbrüche und Steuerzeichen." +
			"|Rimuovi gli a capo e i caratteri di controllo." +
			"|Verwijder regeleinden en stuurtekens."},
	{"Remove invisible formatting characters, such as zero-width spaces or text direction marks.",
		"Quita los caracteres de formato invisibles, como los espacios de ancho cero o las marcas de dirección del texto." +
			"|Remova os caracteres de formatação invisíveis, como espaços de largura zero ou marcas de direção do texto." +
			"|Supprimez les caractères de mise en forme invisibles, comme les espaces sans chasse ou les marques de sens d'écriture." +
			"|Entfernen Sie unsichtbare Formatierungszeichen wie Leerzeichen ohne Breite oder Markierungen der Schreibrichtung." +
			"|Rimuovi i caratteri di formattazione invisibili, come gli spazi a larghezza zero o i segni di direzione del testo." +
			"|Verwijder onzichtbare opmaaktekens, zoals spaties zonder breedte of tekens voor de schrijfrichting."},
	{"Use only letters, digits, hyphens and underscores.",
		"Usa solo letras, números, guiones y guiones bajos." +
			"|Utilize apenas letras, algarismos, hífenes e sublinhados." +
			"|Utilisez uniquement des lettres, des chiffres, des tirets et des tirets bas." +
			"|Verwenden Sie nur Buchstaben, Ziffern, Bindestriche und Unterstriche." +
			"|Usa solo lettere, cifre, trattini e trattini bassi." +
			"|Gebruik alleen letters, cijfers, koppeltekens en underscores."},
	{"Enter a two-letter ISO country code such as ES.",
		"Introduce un código de país ISO de dos letras, como ES." +
			"|Introduza um código de país ISO de duas letras, como PT." +
			"|Saisissez un code pays ISO à deux lettres, par exemple FR." +
			"|Geben Sie einen zweistelligen ISO-Ländercode ein, z. B. DE." +
			"|Inserisci un codice paese ISO di due lettere, ad esempio IT." +
			"|Vul een ISO-landcode van twee letters in, bijvoorbeeld NL."},
	{"Enter a valid e-mail address such as name@example.com.",
		"Introduce un correo electrónico válido, como nombre@example.com." +
			"|Introduza um endereço de e-mail válido, como nome@example.com." +
			"|Saisissez une adresse e-mail valide, par exemple nom@example.com." +
			"|Geben Sie eine gültige E-Mail-Adresse ein, z. B. name@example.com." +
			"|Inserisci un indirizzo email valido, ad esempio nome@example.com." +
			"|Vul een geldig e-mailadres in, bijvoorbeeld naam@example.com."},
	{"Use only digits, spaces and + - . / ( ) in a phone number.",
		"Un teléfono solo puede llevar números, espacios y + - . / ( )." +
			"|Um número de telefone só pode ter algarismos, espaços e + - . / ( )." +
			"|Un numéro de téléphone ne peut contenir que des chiffres, des espaces et + - . / ( )." +
			"|Eine Telefonnummer darf nur Ziffern, Leerzeichen und + - . / ( ) enthalten." +
			"|Un numero di telefono può contenere solo cifre, spazi e + - . / ( )." +
			"|Een telefoonnummer mag alleen cijfers, spaties en + - . / ( ) bevatten."},
	{"A phone number has at most 15 characters, + included, without spaces or separators.",
		"Un teléfono tiene como máximo 15 caracteres, contando el +, sin espacios ni separadores." +
			"|Um número de telefone tem no máximo 15 caracteres, incluindo o +, sem espaços nem separadores." +
			"|Un numéro de téléphone comporte au plus 15 caractères, + compris, sans espaces ni séparateurs." +
			"|Eine Telefonnummer hat höchstens 15 Zeichen, einschließlich +, ohne Leerzeichen oder Trennzeichen." +
			"|Un numero di telefono ha al massimo 15 caratteri, + compreso, senza spazi né separatori." +
			"|Een telefoonnummer heeft maximaal 15 tekens, inclusief +, zonder spaties of scheidingstekens."},
	{"Enter a date from 1900-01-01 on.",
		"Introduce una fecha a partir del 1900-01-01." +
			"|Introduza uma data a partir de 1900-01-01." +
			"|Saisissez une date à partir du 1900-01-01." +
			"|Geben Sie ein Datum ab dem 1900-01-01 ein." +
			"|Inserisci una data a partire dal 1900-01-01." +
			"|Vul een datum vanaf 1900-01-01 in."},
	{"A phone number has between 6 and 15 digits.",
		"Un teléfono tiene entre 6 y 15 dígitos." +
			"|Um número de telefone tem entre 6 e 15 algarismos." +
			"|Un numéro de téléphone comporte de 6 à 15 chiffres." +
			"|Eine Telefonnummer hat 6 bis 15 Ziffern." +
			"|Un numero di telefono ha da 6 a 15 cifre." +
			"|Een telefoonnummer heeft 6 tot 15 cijfers."},
	{"Enter a date as YYYY-MM-DD.",
		"Introduce la fecha como AAAA-MM-DD." +
			"|Introduza a data no formato AAAA-MM-DD." +
			"|Saisissez la date au format AAAA-MM-JJ." +
			"|Geben Sie das Datum als JJJJ-MM-TT ein." +
			"|Inserisci la data nel formato AAAA-MM-GG." +
			"|Vul de datum in als JJJJ-MM-DD."},
	{"This date does not exist in the calendar.",
		"Esta fecha no existe en el calendario." +
			"|Esta data não existe no calendário." +
			"|Cette date n’existe pas dans le calendrier." +
			"|Dieses Datum gibt es im Kalender nicht." +
			"|Questa data non esiste nel calendario." +
			"|Deze datum bestaat niet in de kalender."},
	{"The date must not be in the past.",
		"La fecha no puede ser anterior a hoy." +
			"|A data não pode ser anterior a hoje." +
			"|La date ne peut pas être dans le passé." +
			"|Das Datum darf nicht in der Vergangenheit liegen." +
			"|La data non può essere nel passato." +
			"|De datum mag niet in het verleden liggen."},
	{"Enter a time as HH:MM between 00:00 and 23:59.",
		"Introduce la hora como HH:MM, entre 00:00 y 23:59." +
			"|Introduza a hora no formato HH:MM, entre 00:00 e 23:59." +
			"|Saisissez l’heure au format HH:MM, entre 00:00 et 23:59." +
			"|Geben Sie die Uhrzeit als HH:MM zwischen 00:00 und 23:59 ein." +
			"|Inserisci l’ora nel formato HH:MM, tra 00:00 e 23:59." +
			"|Vul de tijd in als UU:MM, tussen 00:00 en 23:59."},
	{"Enter a positive number such as 1.5.",
		"Introduce un número positivo, como 1.5." +
			"|Introduza um número positivo, como 1.5." +
			"|Saisissez un nombre positif, par exemple 1.5." +
			"|Geben Sie eine positive Zahl ein, z. B. 1.5." +
			"|Inserisci un numero positivo, ad esempio 1.5." +
			"|Vul een positief getal in, bijvoorbeeld 1.5."},
	{"Use a point as the decimal separator, e.g. 1.5.",
		"Usa un punto como separador decimal, p. ej. 1.5." +
			"|Utilize um ponto como separador decimal, por exemplo 1.5." +
			"|Utilisez un point comme séparateur décimal, par exemple 1.5." +
			"|Verwenden Sie einen Punkt als Dezimaltrennzeichen, z. B. 1.5." +
			"|Usa il punto come separatore decimale, ad esempio 1.5." +
			"|Gebruik een punt als decimaalteken, bijvoorbeeld 1.5."},
	{"Must be greater than zero.",
		"Debe ser mayor que cero." +
			"|Tem de ser maior do que zero." +
			"|Doit être supérieur à zéro." +
			"|Muss größer als null sein." +
			"|Deve essere maggiore di zero." +
			"|Moet groter dan nul zijn."},
	{"This number is too large.",
		"Este número es demasiado grande." +
			"|Este número é demasiado grande." +
			"|Ce nombre est trop grand." +
			"|Diese Zahl ist zu groß." +
			"|Questo numero è troppo grande." +
			"|Dit getal is te groot."},
	{"Enter a whole number.",
		"Introduce un número entero." +
			"|Introduza um número inteiro." +
			"|Saisissez un nombre entier." +
			"|Geben Sie eine ganze Zahl ein." +
			"|Inserisci un numero intero." +
			"|Vul een geheel getal in."},
	{"Must be 1 or more.",
		"Debe ser 1 o más." +
			"|Tem de ser 1 ou mais." +
			"|Doit être au moins 1." +
			"|Muss mindestens 1 sein." +
			"|Deve essere almeno 1." +
			"|Moet minstens 1 zijn."},
	{"Must be custom (the rules feature is not enabled).",
		"Debe ser custom (la función de reglas no está activada)." +
			"|Tem de ser custom (a funcionalidade de regras não está ativada)." +
			"|Doit être custom (la fonction de règles n’est pas activée)." +
			"|Muss custom sein (die Regelfunktion ist nicht aktiviert)." +
			"|Deve essere custom (la funzione regole non è attiva)." +
			"|Moet custom zijn (de regelfunctie is niet ingeschakeld)."},
	{"Must be 24, 48 or 72 with the rules feature.",
		"Con la función de reglas debe ser 24, 48 o 72." +
			"|Com a funcionalidade de regras tem de ser 24, 48 ou 72." +
			"|Avec la fonction de règles, doit être 24, 48 ou 72." +
			"|Mit der Regelfunktion muss der Wert 24, 48 oder 72 sein." +
			"|Con la funzione regole deve essere 24, 48 o 72." +
			"|Met de regelfunctie moet dit 24, 48 of 72 zijn."},
	{"Must be 0 or 1.",
		"Debe ser 0 o 1." +
			"|Tem de ser 0 ou 1." +
			"|Doit être 0 ou 1." +
			"|Muss 0 oder 1 sein." +
			"|Deve essere 0 o 1." +
			"|Moet 0 of 1 zijn."},
	{"This operation does not take this field.",
		"Esta operación no admite este campo." +
			"|Esta operação não aceita este campo." +
			"|Cette opération n’accepte pas ce champ." +
			"|Dieses Feld ist für diesen Vorgang nicht vorgesehen." +
			"|Questa operazione non prevede questo campo." +
			"|Deze bewerking kent dit veld niet."},
	{"This operation does not take parcels.",
		"Esta operación no admite bultos." +
			"|Esta operação não aceita volumes." +
			"|Cette opération n’accepte pas de colis." +
			"|Für diesen Vorgang sind keine Pakete vorgesehen." +
			"|Questa operazione non prevede colli." +
			"|Deze bewerking kent geen pakketten."},
	{"Add at least one parcel.",
		"Añade al menos un bulto." +
			"|Adicione pelo menos um volume." +
			"|Ajoutez au moins un colis." +
			"|Fügen Sie mindestens ein Paket hinzu." +
			"|Aggiungi almeno un collo." +
			"|Voeg minstens één pakket toe."},

	// --- postal: template ({0}: an example code of the country, from the dataset) ---
	{"Enter a postal code in this country's format, e.g. {0}.",
		"Introduce un código postal con el formato de este país, p. ej. {0}." +
			"|Introduza um código postal no formato deste país, p. ex. {0}." +
			"|Saisissez un code postal au format de ce pays, par exemple {0}." +
			"|Geben Sie eine Postleitzahl im Format dieses Landes ein, z. B. {0}." +
			"|Inserisci un codice postale nel formato di questo paese, ad esempio {0}." +
			"|Vul een postcode in de notatie van dit land in, bijvoorbeeld {0}."},
	// --- validate: templates ({0}: a number or field names) ---
	{"Use at most {0} characters.",
		"Usa como máximo {0} caracteres." +
			"|Utilize no máximo {0} caracteres." +
			"|Utilisez {0} caractères au maximum." +
			"|Verwenden Sie höchstens {0} Zeichen." +
			"|Usa al massimo {0} caratteri." +
			"|Gebruik maximaal {0} tekens."},
	{"Must be at most {0}.",
		"Debe ser como máximo {0}." +
			"|Tem de ser no máximo {0}." +
			"|Ne doit pas dépasser {0}." +
			"|Darf höchstens {0} sein." +
			"|Deve essere al massimo {0}." +
			"|Mag maximaal {0} zijn."},
	{"At most {0} carrier-specific extra fields per request.",
		"Como máximo {0} campos adicionales del transportista por solicitud." +
			"|No máximo {0} campos adicionais da transportadora por pedido." +
			"|{0} champs supplémentaires propres au transporteur au maximum par demande." +
			"|Höchstens {0} zusätzliche Felder des Versanddienstleisters pro Anfrage." +
			"|Al massimo {0} campi aggiuntivi del corriere per richiesta." +
			"|Maximaal {0} extra velden van de vervoerder per aanvraag."},
	{"The name of an extra field has at most {0} characters: letters, digits, hyphens and underscores.",
		"El nombre de un campo adicional tiene como máximo {0} caracteres: letras, números, guiones y guiones bajos." +
			"|O nome de um campo adicional tem no máximo {0} caracteres: letras, algarismos, hífenes e sublinhados." +
			"|Le nom d’un champ supplémentaire compte {0} caractères au maximum : lettres, chiffres, tirets et tirets bas." +
			"|Der Name eines zusätzlichen Feldes hat höchstens {0} Zeichen: Buchstaben, Ziffern, Bindestriche und Unterstriche." +
			"|Il nome di un campo aggiuntivo ha al massimo {0} caratteri: lettere, cifre, trattini e trattini bassi." +
			"|De naam van een extra veld heeft maximaal {0} tekens: letters, cijfers, koppeltekens en underscores."},
	{"Differs from a field of this operation only in upper and lower case; use the field's exact name.",
		"Solo se diferencia de un campo de esta operación en mayúsculas y minúsculas; usa el nombre exacto del campo." +
			"|Difere de um campo desta operação apenas em maiúsculas e minúsculas; utilize o nome exato do campo." +
			"|Ne diffère d’un champ de cette opération que par les majuscules et les minuscules ; utilisez le nom exact du champ." +
			"|Unterscheidet sich von einem Feld dieses Vorgangs nur in der Groß- und Kleinschreibung; verwenden Sie den genauen Feldnamen." +
			"|Differisce da un campo di questa operazione solo per maiuscole e minuscole; usa il nome esatto del campo." +
			"|Verschilt alleen in hoofdletters en kleine letters van een veld van deze bewerking; gebruik de exacte naam van het veld."},
	{"At most {0} parcels per request.",
		"Como máximo {0} bultos por solicitud." +
			"|No máximo {0} volumes por pedido." +
			"|{0} colis au maximum par demande." +
			"|Höchstens {0} Pakete pro Anfrage." +
			"|Al massimo {0} colli per richiesta." +
			"|Maximaal {0} pakketten per aanvraag."},
	{"Give {0}.",
		"Indica {0}." +
			"|Indique {0}." +
			"|Indiquez {0}." +
			"|Geben Sie {0} an." +
			"|Indica {0}." +
			"|Vul {0} in."},
	{OrWord, " o | ou | ou | oder | o | of "},
	{"Required together with {0}.",
		"Obligatorio junto con {0}." +
			"|Obrigatório juntamente com {0}." +
			"|Obligatoire avec {0}." +
			"|Zusammen mit {0} erforderlich." +
			"|Obbligatorio insieme a {0}." +
			"|Verplicht samen met {0}."},
	{"Required unless {0} is given.",
		"Obligatorio salvo que se indique {0}." +
			"|Obrigatório, a menos que indique {0}." +
			"|Obligatoire, sauf si {0} est indiqué." +
			"|Erforderlich, sofern {0} nicht angegeben ist." +
			"|Obbligatorio se non indichi {0}." +
			"|Verplicht, tenzij {0} is ingevuld."},
	{"Must be later than {0}.",
		"Debe ser posterior a {0}." +
			"|Tem de ser posterior a {0}." +
			"|Doit être postérieur à {0}." +
			"|Muss nach {0} liegen." +
			"|Deve essere successivo a {0}." +
			"|Moet later zijn dan {0}."},
	{"Must not be earlier than {0}.",
		"No puede ser anterior a {0}." +
			"|Não pode ser anterior a {0}." +
			"|Ne peut pas être antérieur à {0}." +
			"|Darf nicht vor {0} liegen." +
			"|Non può essere precedente a {0}." +
			"|Mag niet eerder zijn dan {0}."},

	// --- postal: postal-code hints ---
	{"Enter a postal code.",
		"Introduce un código postal." +
			"|Introduza um código postal." +
			"|Saisissez un code postal." +
			"|Geben Sie eine Postleitzahl ein." +
			"|Inserisci un codice postale." +
			"|Vul een postcode in."},
	{"Spanish postal codes have 5 digits (e.g. 28001).",
		"Los códigos postales españoles tienen 5 dígitos (p. ej., 28001)." +
			"|Os códigos postais espanhóis têm 5 algarismos (p. ex. 28001)." +
			"|Les codes postaux espagnols comportent 5 chiffres (par ex. 28001)." +
			"|Spanische Postleitzahlen haben 5 Ziffern (z. B. 28001)." +
			"|I codici postali spagnoli hanno 5 cifre (ad es. 28001)." +
			"|Spaanse postcodes hebben 5 cijfers (bijv. 28001)."},
	{"Spanish postal codes start with a province number from 01 to 52.",
		"Los códigos postales españoles empiezan por el número de provincia, del 01 al 52." +
			"|Os códigos postais espanhóis começam pelo número da província, de 01 a 52." +
			"|Les codes postaux espagnols commencent par un numéro de province de 01 à 52." +
			"|Spanische Postleitzahlen beginnen mit einer Provinznummer von 01 bis 52." +
			"|I codici postali spagnoli iniziano con il numero di provincia, da 01 a 52." +
			"|Spaanse postcodes beginnen met een provincienummer van 01 tot en met 52."},
	{"Portuguese postal codes have 4 digits, a hyphen and 3 digits (e.g. 1000-001).",
		"Los códigos postales portugueses tienen 4 dígitos, un guion y 3 dígitos (p. ej., 1000-001)." +
			"|Os códigos postais portugueses têm 4 algarismos, um hífen e 3 algarismos (p. ex. 1000-001)." +
			"|Les codes postaux portugais comportent 4 chiffres, un tiret et 3 chiffres (par ex. 1000-001)." +
			"|Portugiesische Postleitzahlen haben 4 Ziffern, einen Bindestrich und 3 Ziffern (z. B. 1000-001)." +
			"|I codici postali portoghesi hanno 4 cifre, un trattino e 3 cifre (ad es. 1000-001)." +
			"|Portugese postcodes hebben 4 cijfers, een streepje en 3 cijfers (bijv. 1000-001)."},
	{"Portuguese postal codes need all 7 digits: 4 digits, a hyphen and 3 digits (e.g. 1000-001).",
		"Los códigos postales portugueses llevan los 7 dígitos: 4 dígitos, un guion y 3 dígitos (p. ej., 1000-001)." +
			"|O código postal português tem de ter os 7 algarismos: 4 algarismos, um hífen e 3 algarismos (p. ex. 1000-001)." +
			"|Les codes postaux portugais exigent les 7 chiffres : 4 chiffres, un tiret et 3 chiffres (par ex. 1000-001)." +
			"|Portugiesische Postleitzahlen brauchen alle 7 Ziffern: 4 Ziffern, einen Bindestrich und 3 Ziffern (z. B. 1000-001)." +
			"|I codici postali portoghesi richiedono tutte e 7 le cifre: 4 cifre, un trattino e 3 cifre (ad es. 1000-001)." +
			"|Portugese postcodes hebben alle 7 cijfers nodig: 4 cijfers, een streepje en 3 cijfers (bijv. 1000-001)."},
	{"Portuguese postal codes cannot start with 0.",
		"Los códigos postales portugueses no pueden empezar por 0." +
			"|Os códigos postais portugueses não podem começar por 0." +
			"|Les codes postaux portugais ne peuvent pas commencer par 0." +
			"|Portugiesische Postleitzahlen können nicht mit 0 beginnen." +
			"|I codici postali portoghesi non possono iniziare con 0." +
			"|Portugese postcodes kunnen niet met 0 beginnen."},
	{"German postal codes have 5 digits (e.g. 10115).",
		"Los códigos postales alemanes tienen 5 dígitos (p. ej., 10115)." +
			"|Os códigos postais alemães têm 5 algarismos (p. ex. 10115)." +
			"|Les codes postaux allemands comportent 5 chiffres (par ex. 10115)." +
			"|Deutsche Postleitzahlen haben 5 Ziffern (z. B. 10115)." +
			"|I codici postali tedeschi hanno 5 cifre (ad es. 10115)." +
			"|Duitse postcodes hebben 5 cijfers (bijv. 10115)."},
	{"German postal codes cannot start with 00.",
		"Los códigos postales alemanes no pueden empezar por 00." +
			"|Os códigos postais alemães não podem começar por 00." +
			"|Les codes postaux allemands ne peuvent pas commencer par 00." +
			"|Deutsche Postleitzahlen können nicht mit 00 beginnen." +
			"|I codici postali tedeschi non possono iniziare con 00." +
			"|Duitse postcodes kunnen niet met 00 beginnen."},
	{"Italian postal codes have 5 digits (e.g. 00118), optionally after V- or I-.",
		"Los códigos postales italianos tienen 5 dígitos (p. ej., 00118), opcionalmente precedidos de V- o I-." +
			"|Os códigos postais italianos têm 5 algarismos (p. ex. 00118), opcionalmente precedidos de V- ou I-." +
			"|Les codes postaux italiens comportent 5 chiffres (par ex. 00118), éventuellement précédés de V- ou I-." +
			"|Italienische Postleitzahlen haben 5 Ziffern (z. B. 00118), optional mit vorangestelltem V- oder I-." +
			"|I codici postali italiani hanno 5 cifre (ad es. 00118), eventualmente precedute da V- o I-." +
			"|Italiaanse postcodes hebben 5 cijfers (bijv. 00118), eventueel voorafgegaan door V- of I-."},
	{"French postal codes have 5 digits (e.g. 75001), optionally after F-.",
		"Los códigos postales franceses tienen 5 dígitos (p. ej., 75001), opcionalmente precedidos de F-." +
			"|Os códigos postais franceses têm 5 algarismos (p. ex. 75001), opcionalmente precedidos de F-." +
			"|Les codes postaux français comportent 5 chiffres (par ex. 75001), éventuellement précédés de F-." +
			"|Französische Postleitzahlen haben 5 Ziffern (z. B. 75001), optional mit vorangestelltem F-." +
			"|I codici postali francesi hanno 5 cifre (ad es. 75001), eventualmente precedute da F-." +
			"|Franse postcodes hebben 5 cijfers (bijv. 75001), eventueel voorafgegaan door F-."},
	{"French postal codes cannot start with 00.",
		"Los códigos postales franceses no pueden empezar por 00." +
			"|Os códigos postais franceses não podem começar por 00." +
			"|Les codes postaux français ne peuvent pas commencer par 00." +
			"|Französische Postleitzahlen können nicht mit 00 beginnen." +
			"|I codici postali francesi non possono iniziare con 00." +
			"|Franse postcodes kunnen niet met 00 beginnen."},
	{"Dutch postal codes have 4 digits and 2 letters (e.g. 1012 AB).",
		"Los códigos postales neerlandeses tienen 4 dígitos y 2 letras (p. ej., 1012 AB)." +
			"|Os códigos postais neerlandeses têm 4 algarismos e 2 letras (p. ex. 1012 AB)." +
			"|Les codes postaux néerlandais comportent 4 chiffres et 2 lettres (par ex. 1012 AB)." +
			"|Niederländische Postleitzahlen haben 4 Ziffern und 2 Buchstaben (z. B. 1012 AB)." +
			"|I codici postali olandesi hanno 4 cifre e 2 lettere (ad es. 1012 AB)." +
			"|Nederlandse postcodes hebben 4 cijfers en 2 letters (bijv. 1012 AB)."},
	{"Dutch postal codes cannot start with 0.",
		"Los códigos postales neerlandeses no pueden empezar por 0." +
			"|Os códigos postais neerlandeses não podem começar por 0." +
			"|Les codes postaux néerlandais ne peuvent pas commencer par 0." +
			"|Niederländische Postleitzahlen können nicht mit 0 beginnen." +
			"|I codici postali olandesi non possono iniziare con 0." +
			"|Nederlandse postcodes kunnen niet met 0 beginnen."},
	{"Dutch postal codes never end in SA, SD or SS.",
		"Los códigos postales neerlandeses nunca terminan en SA, SD o SS." +
			"|Os códigos postais neerlandeses nunca terminam em SA, SD ou SS." +
			"|Les codes postaux néerlandais ne se terminent jamais par SA, SD ou SS." +
			"|Niederländische Postleitzahlen enden nie auf SA, SD oder SS." +
			"|I codici postali olandesi non finiscono mai con SA, SD o SS." +
			"|Nederlandse postcodes eindigen nooit op SA, SD of SS."},
	{"Andorran postal codes are AD followed by 3 digits (e.g. AD500).",
		"Los códigos postales andorranos son AD seguido de 3 dígitos (p. ej., AD500)." +
			"|Os códigos postais andorranos são AD seguido de 3 algarismos (p. ex. AD500)." +
			"|Les codes postaux andorrans s’écrivent AD suivi de 3 chiffres (par ex. AD500)." +
			"|Andorranische Postleitzahlen bestehen aus AD und 3 Ziffern (z. B. AD500)." +
			"|I codici postali andorrani sono AD seguito da 3 cifre (ad es. AD500)." +
			"|Andorrese postcodes bestaan uit AD en 3 cijfers (bijv. AD500)."},
	{"Andorran postal codes go from AD100 to AD799.",
		"Los códigos postales andorranos van del AD100 al AD799." +
			"|Os códigos postais andorranos vão de AD100 a AD799." +
			"|Les codes postaux andorrans vont de AD100 à AD799." +
			"|Andorranische Postleitzahlen reichen von AD100 bis AD799." +
			"|I codici postali andorrani vanno da AD100 a AD799." +
			"|Andorrese postcodes lopen van AD100 tot en met AD799."},
	{"Postal codes may contain only letters, digits, spaces and hyphens.",
		"Un código postal solo puede llevar letras, números, espacios y guiones." +
			"|Um código postal só pode ter letras, algarismos, espaços e hífenes." +
			"|Un code postal ne peut contenir que des lettres, des chiffres, des espaces et des tirets." +
			"|Eine Postleitzahl darf nur Buchstaben, Ziffern, Leerzeichen und Bindestriche enthalten." +
			"|Un codice postale può contenere solo lettere, cifre, spazi e trattini." +
			"|Een postcode mag alleen letters, cijfers, spaties en streepjes bevatten."},
	{"Postal codes have 2 to 10 characters.",
		"Un código postal tiene entre 2 y 10 caracteres." +
			"|Um código postal tem entre 2 e 10 caracteres." +
			"|Un code postal comporte de 2 à 10 caractères." +
			"|Eine Postleitzahl hat 2 bis 10 Zeichen." +
			"|Un codice postale ha da 2 a 10 caratteri." +
			"|Een postcode heeft 2 tot 10 tekens."},
	{"Postal codes contain at least one digit.",
		"Un código postal lleva al menos un número." +
			"|Um código postal tem pelo menos um algarismo." +
			"|Un code postal contient au moins un chiffre." +
			"|Eine Postleitzahl enthält mindestens eine Ziffer." +
			"|Un codice postale contiene almeno una cifra." +
			"|Een postcode bevat minstens één cijfer."},
	{"Postal codes cannot start or end with a hyphen.",
		"Un código postal no puede empezar ni terminar con un guion." +
			"|Um código postal não pode começar nem terminar com um hífen." +
			"|Un code postal ne peut ni commencer ni se terminer par un tiret." +
			"|Eine Postleitzahl darf nicht mit einem Bindestrich beginnen oder enden." +
			"|Un codice postale non può iniziare né finire con un trattino." +
			"|Een postcode mag niet met een streepje beginnen of eindigen."},
	{"Postal codes cannot have two separators in a row.",
		"Un código postal no puede tener dos separadores seguidos." +
			"|Um código postal não pode ter dois separadores seguidos." +
			"|Un code postal ne peut pas contenir deux séparateurs consécutifs." +
			"|Eine Postleitzahl darf keine zwei Trennzeichen hintereinander enthalten." +
			"|Un codice postale non può avere due separatori di seguito." +
			"|Een postcode mag geen twee scheidingstekens achter elkaar hebben."},
}
