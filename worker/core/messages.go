package core

import "github.com/parcelgate/parcelgate/internal/i18n"

// The edge's own failure messages that reach shoppers' browsers (a trap,
// a timeout, a rate limit, a path or method a page got wrong, a booking
// refused or left unconfirmed by the ledger, a request's shape or
// credentials refused, an upstream that failed), in the
// seven languages of internal/i18n, in its order: English, Spanish,
// Portuguese, French, German, Italian, Dutch, with {0}, {1}... for the
// variable parts. Operator-facing messages (the configuration errors
// naming variables, which only the master token's holder and the log
// see) stay English. Variable, field and header names are never
// translated. Each row is one message, its seven texts joined by next;
// msg* below index them. One string per row rather than seven: the
// module's data held a string header (8 bytes) for each of the 336 texts.
var messages = [...]string{
	// --- refusals of a request's shape or credentials, and upstream failures ---
	msgUpstreamTimeout: "the upstream did not answer within {0} ms (UPSTREAM_TIMEOUT_MS)" + next +
		"el servicio de envíos no respondió en {0} ms (UPSTREAM_TIMEOUT_MS)" + next +
		"o serviço de envios não respondeu em {0} ms (UPSTREAM_TIMEOUT_MS)" + next +
		"le service d’expédition n’a pas répondu en {0} ms (UPSTREAM_TIMEOUT_MS)" + next +
		"der Versanddienst hat nicht innerhalb von {0} ms geantwortet (UPSTREAM_TIMEOUT_MS)" + next +
		"il servizio di spedizione non ha risposto entro {0} ms (UPSTREAM_TIMEOUT_MS)" + next +
		"de verzenddienst heeft niet binnen {0} ms geantwoord (UPSTREAM_TIMEOUT_MS)",
	msgUpstreamUnreachable: "the upstream could not be reached" + next +
		"no se pudo contactar con el servicio de envíos" + next +
		"não foi possível contactar o serviço de envios" + next +
		"le service d’expédition est injoignable" + next +
		"der Versanddienst war nicht erreichbar" + next +
		"il servizio di spedizione non è raggiungibile" + next +
		"de verzenddienst was niet bereikbaar",
	msgUpstreamUnreadable: "the upstream's response (HTTP {0}) could not be read" + next +
		"no se pudo leer la respuesta del servicio de envíos (HTTP {0})" + next +
		"não foi possível ler a resposta do serviço de envios (HTTP {0})" + next +
		"la réponse du service d’expédition (HTTP {0}) n’a pas pu être lue" + next +
		"die Antwort des Versanddienstes (HTTP {0}) konnte nicht gelesen werden" + next +
		"non è stato possibile leggere la risposta del servizio di spedizione (HTTP {0})" + next +
		"het antwoord van de verzenddienst (HTTP {0}) kon niet worden gelezen",
	msgUpstreamLeak: "the upstream's answer (HTTP {0}) contained the worker's credentials and was withheld" + next +
		"la respuesta del servicio de envíos (HTTP {0}) contenía las credenciales del worker y se ha retenido" + next +
		"a resposta do serviço de envios (HTTP {0}) continha as credenciais do worker e foi retida" + next +
		"la réponse du service d’expédition (HTTP {0}) contenait les identifiants du worker et a été retenue" + next +
		"die Antwort des Versanddienstes (HTTP {0}) enthielt die Zugangsdaten des Workers und wurde zurückgehalten" + next +
		"la risposta del servizio di spedizione (HTTP {0}) conteneva le credenziali del worker ed è stata trattenuta" + next +
		"het antwoord van de verzenddienst (HTTP {0}) bevatte de inloggegevens van de worker en is achtergehouden",
	msgUpstreamOkOnError: "the upstream answered HTTP {0} with an ok envelope; it may or may not have been applied" + next +
		"el servicio de envíos respondió HTTP {0} con un sobre ok; puede que se haya aplicado o no" + next +
		"o serviço de envios respondeu HTTP {0} com um envelope ok; pode ou não ter sido aplicado" + next +
		"le service d’expédition a répondu HTTP {0} avec une enveloppe ok ; la demande a pu être appliquée ou non" + next +
		"der Versanddienst hat mit HTTP {0} und einem ok-Umschlag geantwortet; die Anfrage wurde vielleicht ausgeführt, vielleicht nicht" + next +
		"il servizio di spedizione ha risposto HTTP {0} con una busta ok; la richiesta potrebbe essere stata applicata o no" + next +
		"de verzenddienst antwoordde HTTP {0} met een ok-envelop; het verzoek is mogelijk wel of niet uitgevoerd",
	msgUpstreamNotEnvelope: "the upstream answered HTTP {0} with {1} instead of a {status, data} envelope" + next +
		"el servicio de envíos respondió HTTP {0} con {1} en lugar de un sobre {status, data}" + next +
		"o serviço de envios respondeu HTTP {0} com {1} em vez de um envelope {status, data}" + next +
		"le service d’expédition a répondu HTTP {0} avec {1} au lieu d’une enveloppe {status, data}" + next +
		"der Versanddienst hat mit HTTP {0} und {1} statt eines {status, data}-Umschlags geantwortet" + next +
		"il servizio di spedizione ha risposto HTTP {0} con {1} invece di una busta {status, data}" + next +
		"de verzenddienst antwoordde HTTP {0} met {1} in plaats van een {status, data}-envelop",
	msgUpstreamAuth: "the upstream refused the worker's credentials (HTTP {0}): check the API_USER and API_KEY secrets" + next +
		"el servicio de envíos rechazó las credenciales del worker (HTTP {0}): revisa los secretos API_USER y API_KEY" + next +
		"o serviço de envios recusou as credenciais do worker (HTTP {0}): verifique os segredos API_USER e API_KEY" + next +
		"le service d’expédition a refusé les identifiants du worker (HTTP {0}) : vérifiez les secrets API_USER et API_KEY" + next +
		"der Versanddienst hat die Zugangsdaten des Workers abgelehnt (HTTP {0}): prüfen Sie die Secrets API_USER und API_KEY" + next +
		"il servizio di spedizione ha rifiutato le credenziali del worker (HTTP {0}): controlla i segreti API_USER e API_KEY" + next +
		"de verzenddienst weigerde de inloggegevens van de worker (HTTP {0}): controleer de secrets API_USER en API_KEY",
	msgUpstreamFailed: "the upstream failed (HTTP {0}){1}" + next +
		"el servicio de envíos falló (HTTP {0}){1}" + next +
		"o serviço de envios falhou (HTTP {0}){1}" + next +
		"le service d’expédition a échoué (HTTP {0}){1}" + next +
		"der Versanddienst ist fehlgeschlagen (HTTP {0}){1}" + next +
		"il servizio di spedizione ha dato errore (HTTP {0}){1}" + next +
		"de verzenddienst gaf een fout (HTTP {0}){1}",
	msgScopedNeedsLedger: "a scoped token books only with booking records ({0}=true and the BOOKINGS binding), which make a resend answer the first booking; book from the shop's server with PROXY_TOKEN" + next +
		"un token limitado solo reserva con registros de reservas ({0}=true y el binding BOOKINGS), que hacen que un reenvío reciba la primera reserva; reserva desde el servidor de la tienda con PROXY_TOKEN" + next +
		"um token restrito só reserva com registos de reservas ({0}=true e o binding BOOKINGS), que fazem um reenvio receber a primeira reserva; reserve a partir do servidor da loja com PROXY_TOKEN" + next +
		"un jeton restreint ne réserve qu’avec les registres de réservation ({0}=true et le binding BOOKINGS), grâce auxquels un renvoi reçoit la première réservation ; réservez depuis le serveur de la boutique avec PROXY_TOKEN" + next +
		"ein eingeschränktes Token bucht nur mit Buchungsdatensätzen ({0}=true und das Binding BOOKINGS), durch die eine erneute Sendung die erste Buchung als Antwort erhält; buchen Sie vom Server des Shops mit PROXY_TOKEN" + next +
		"un token limitato prenota solo con i registri delle prenotazioni ({0}=true e il binding BOOKINGS), grazie ai quali un nuovo invio riceve la prima prenotazione; prenota dal server del negozio con PROXY_TOKEN" + next +
		"een beperkt token boekt alleen met boekingsrecords ({0}=true en de binding BOOKINGS), waardoor een herhaald verzoek de eerste boeking als antwoord krijgt; boek vanaf de server van de winkel met PROXY_TOKEN",
	msgQueryOnPost: "query string: a POST takes its parameters in the form body, not in the URL (?{0})" + next +
		"query string: un POST lleva sus parámetros en el cuerpo del formulario, no en la URL (?{0})" + next +
		"query string: um POST leva os parâmetros no corpo do formulário, não no URL (?{0})" + next +
		"query string : un POST transmet ses paramètres dans le corps du formulaire, pas dans l’URL (?{0})" + next +
		"Query-String: ein POST übergibt seine Parameter im Formular-Body, nicht in der URL (?{0})" + next +
		"query string: un POST passa i parametri nel corpo del modulo, non nell’URL (?{0})" + next +
		"querystring: een POST geeft zijn parameters mee in de formulierbody, niet in de URL (?{0})",
	msgTooLarge: "request larger than MAX_BODY_BYTES ({0} bytes)" + next +
		"la solicitud supera MAX_BODY_BYTES ({0} bytes)" + next +
		"o pedido excede MAX_BODY_BYTES ({0} bytes)" + next +
		"la requête dépasse MAX_BODY_BYTES ({0} octets)" + next +
		"die Anfrage ist größer als MAX_BODY_BYTES ({0} Bytes)" + next +
		"la richiesta supera MAX_BODY_BYTES ({0} byte)" + next +
		"het verzoek is groter dan MAX_BODY_BYTES ({0} bytes)",
	msgMediaType: "send the parameters as application/x-www-form-urlencoded (got {0})" + next +
		"envía los parámetros como application/x-www-form-urlencoded (se recibió {0})" + next +
		"envie os parâmetros como application/x-www-form-urlencoded (foi recebido {0})" + next +
		"envoyez les paramètres en application/x-www-form-urlencoded (reçu : {0})" + next +
		"senden Sie die Parameter als application/x-www-form-urlencoded (erhalten: {0})" + next +
		"invia i parametri come application/x-www-form-urlencoded (ricevuto {0})" + next +
		"stuur de parameters als application/x-www-form-urlencoded (ontvangen: {0})",
	msgNotGranted: "the scoped token does not grant {0} (it grants {1})" + next +
		"el token limitado no permite {0} (permite {1})" + next +
		"o token restrito não permite {0} (permite {1})" + next +
		"le jeton restreint n’autorise pas {0} (il autorise {1})" + next +
		"das eingeschränkte Token erlaubt {0} nicht (es erlaubt {1})" + next +
		"il token limitato non consente {0} (consente {1})" + next +
		"het beperkte token staat {0} niet toe (het staat {1} toe)",
	msgTokensMaster: "POST /tokens requires Authorization: Bearer <PROXY_TOKEN> (call it from the shop's server)" + next +
		"POST /tokens requiere Authorization: Bearer <PROXY_TOKEN> (llámalo desde el servidor de la tienda)" + next +
		"POST /tokens requer Authorization: Bearer <PROXY_TOKEN> (chame-o a partir do servidor da loja)" + next +
		"POST /tokens exige Authorization: Bearer <PROXY_TOKEN> (appelez-le depuis le serveur de la boutique)" + next +
		"POST /tokens erfordert Authorization: Bearer <PROXY_TOKEN> (rufen Sie es vom Server des Shops auf)" + next +
		"POST /tokens richiede Authorization: Bearer <PROXY_TOKEN> (chiamalo dal server del negozio)" + next +
		"POST /tokens vereist Authorization: Bearer <PROXY_TOKEN> (roep het aan vanaf de server van de winkel)",
	msgBadBody: "the body is not a valid form" + next +
		"el cuerpo no es un formulario válido" + next +
		"o corpo não é um formulário válido" + next +
		"le corps n’est pas un formulaire valide" + next +
		"der Body ist kein gültiges Formular" + next +
		"il corpo non è un modulo valido" + next +
		"de body is geen geldig formulier",
	msgTokenInvalid: "the scoped token is not valid (tampered, or minted with another TOKEN_SIGNING_KEY)" + next +
		"el token limitado no es válido (alterado, o emitido con otra TOKEN_SIGNING_KEY)" + next +
		"o token restrito não é válido (adulterado, ou emitido com outra TOKEN_SIGNING_KEY)" + next +
		"le jeton restreint n’est pas valide (altéré, ou émis avec une autre TOKEN_SIGNING_KEY)" + next +
		"das eingeschränkte Token ist ungültig (verändert oder mit einem anderen TOKEN_SIGNING_KEY ausgestellt)" + next +
		"il token limitato non è valido (alterato, o emesso con un’altra TOKEN_SIGNING_KEY)" + next +
		"het beperkte token is ongeldig (gewijzigd, of uitgegeven met een andere TOKEN_SIGNING_KEY)",
	msgTokenExpired: "the scoped token has expired; get a new one from the shop's server" + next +
		"el token limitado ha caducado; obtén uno nuevo del servidor de la tienda" + next +
		"o token restrito expirou; obtenha um novo a partir do servidor da loja" + next +
		"le jeton restreint a expiré ; obtenez-en un nouveau auprès du serveur de la boutique" + next +
		"das eingeschränkte Token ist abgelaufen; holen Sie ein neues vom Server des Shops" + next +
		"il token limitato è scaduto; ottienine uno nuovo dal server del negozio" + next +
		"het beperkte token is verlopen; haal een nieuw op bij de server van de winkel",
	msgTokenGrant: "the scoped token's grant is no longer accepted (a booking token must be bound to its references and live at most 2 hours); get a new one from the shop's server" + next +
		"la autorización del token limitado ya no se acepta (un token de reserva debe estar ligado a sus referencias y durar como máximo 2 horas); obtén uno nuevo del servidor de la tienda" + next +
		"a autorização do token restrito já não é aceite (um token de reserva tem de estar associado às suas referências e durar no máximo 2 horas); obtenha um novo a partir do servidor da loja" + next +
		"l’autorisation du jeton restreint n’est plus acceptée (un jeton de réservation doit être lié à ses références et durer au plus 2 heures) ; obtenez-en un nouveau auprès du serveur de la boutique" + next +
		"die Berechtigung des eingeschränkten Tokens wird nicht mehr akzeptiert (ein Buchungstoken muss an seine Referenzen gebunden sein und höchstens 2 Stunden gelten); holen Sie ein neues vom Server des Shops" + next +
		"l’autorizzazione del token limitato non è più accettata (un token di prenotazione deve essere legato ai suoi riferimenti e durare al massimo 2 ore); ottienine uno nuovo dal server del negozio" + next +
		"de machtiging van het beperkte token wordt niet meer geaccepteerd (een boekingstoken moet aan zijn referenties gebonden zijn en hoogstens 2 uur geldig zijn); haal een nieuw op bij de server van de winkel",
	msgScopeUnbound: "the scoped token is not bound to a shipment ({0} needs a token minted with dlvr_ref or shipping_client_ref)" + next +
		"el token limitado no está ligado a un envío ({0} necesita un token emitido con dlvr_ref o shipping_client_ref)" + next +
		"o token restrito não está associado a um envio ({0} precisa de um token emitido com dlvr_ref ou shipping_client_ref)" + next +
		"le jeton restreint n’est lié à aucun envoi ({0} demande un jeton émis avec dlvr_ref ou shipping_client_ref)" + next +
		"das eingeschränkte Token ist an keine Sendung gebunden ({0} braucht ein Token, das mit dlvr_ref oder shipping_client_ref ausgestellt wurde)" + next +
		"il token limitato non è legato a una spedizione ({0} richiede un token emesso con dlvr_ref o shipping_client_ref)" + next +
		"het beperkte token is niet aan een zending gebonden ({0} heeft een token nodig dat met dlvr_ref of shipping_client_ref is uitgegeven)",
	msgScopeOtherRef: "the scoped token is bound to another reference" + next +
		"el token limitado está ligado a otra referencia" + next +
		"o token restrito está associado a outra referência" + next +
		"le jeton restreint est lié à une autre référence" + next +
		"das eingeschränkte Token ist an eine andere Referenz gebunden" + next +
		"il token limitato è legato a un altro riferimento" + next +
		"het beperkte token is aan een andere referentie gebonden",
	msgScopeNotBoundTo: "the scoped token is not bound to a {0}" + next +
		"el token limitado no está ligado a un {0}" + next +
		"o token restrito não está associado a um {0}" + next +
		"le jeton restreint n’est lié à aucun {0}" + next +
		"das eingeschränkte Token ist an kein {0} gebunden" + next +
		"il token limitato non è legato a un {0}" + next +
		"het beperkte token is niet aan een {0} gebonden",
	msgScopeNoOffer: "the scoped token is not bound to an offer: ask for rates again and for a token bound to the chosen offer" + next +
		"el token limitado no está ligado a ninguna oferta: vuelve a pedir las tarifas y un token ligado a la oferta elegida" + next +
		"o token restrito não está associado a nenhuma oferta: peça novamente as tarifas e um token associado à oferta escolhida" + next +
		"le jeton restreint n’est lié à aucune offre : demandez à nouveau les tarifs et un jeton lié à l’offre choisie" + next +
		"das eingeschränkte Token ist an kein Angebot gebunden: fragen Sie die Preise erneut an und ein Token für das gewählte Angebot" + next +
		"il token limitato non è legato a nessuna offerta: richiedi di nuovo le tariffe e un token legato all’offerta scelta" + next +
		"het beperkte token is aan geen aanbod gebonden: vraag de tarieven opnieuw op en een token voor het gekozen aanbod",
	msgScopeUseDlvrRef: "not allowed with a scoped token; use dlvr_ref" + next +
		"no se permite con un token limitado; usa dlvr_ref" + next +
		"não é permitido com um token restrito; utilize dlvr_ref" + next +
		"non autorisé avec un jeton restreint ; utilisez dlvr_ref" + next +
		"mit einem eingeschränkten Token nicht erlaubt; verwenden Sie dlvr_ref" + next +
		"non consentito con un token limitato; usa dlvr_ref" + next +
		"niet toegestaan met een beperkt token; gebruik dlvr_ref",
	msgMisconfigGeneric: "worker misconfigured: a required secret or setting is missing, weak or invalid; the worker's log names it, and /healthz with the master token" + next +
		"worker mal configurado: falta un secreto o ajuste obligatorio, o es débil o no válido; el registro del worker lo nombra, y /healthz con el token maestro" + next +
		"worker mal configurado: um segredo ou definição obrigatória está em falta, é fraco ou é inválido; o registo do worker indica-o, e /healthz com o token mestre" + next +
		"worker mal configuré : un secret ou un réglage obligatoire manque, est faible ou invalide ; le journal du worker le nomme, ainsi que /healthz avec le jeton maître" + next +
		"Worker falsch konfiguriert: ein erforderliches Secret oder eine Einstellung fehlt, ist schwach oder ungültig; das Log des Workers nennt es, ebenso /healthz mit dem Master-Token" + next +
		"worker configurato male: un segreto o un’impostazione obbligatoria manca, è debole o non è valida; il log del worker lo indica, e /healthz con il token principale" + next +
		"worker verkeerd geconfigureerd: een verplicht secret of verplichte instelling ontbreekt, is zwak of ongeldig; het log van de worker noemt het, en /healthz met het master-token",
	msgHintCollection: "the collection may have been booked, and the service offers no way to look it up: a resend with this {0} is answered 409 and never books twice; check the customer area, then book with a new reference" + next +
		"puede que la recogida se haya reservado, y el servicio no permite buscarla: un reenvío con este {0} recibe un 409 y nunca reserva dos veces; revisa el área de cliente y luego reserva con una referencia nueva" + next +
		"a recolha pode ter sido reservada, e o serviço não permite procurá-la: um reenvio com este {0} recebe um 409 e nunca reserva duas vezes; verifique a área de cliente e depois reserve com uma nova referência" + next +
		"l’enlèvement a peut-être été réservé, et le service ne permet pas de le rechercher : un renvoi avec ce {0} reçoit un 409 et ne réserve jamais deux fois ; vérifiez l’espace client, puis réservez avec une nouvelle référence" + next +
		"die Abholung wurde möglicherweise gebucht, und der Dienst bietet keine Möglichkeit, sie nachzuschlagen: eine erneute Sendung mit dieser {0} wird mit 409 beantwortet und bucht nie doppelt; prüfen Sie den Kundenbereich und buchen Sie dann mit einer neuen Referenz" + next +
		"il ritiro potrebbe essere stato prenotato, e il servizio non permette di cercarlo: un nuovo invio con questo {0} riceve un 409 e non prenota mai due volte; controlla l’area clienti, poi prenota con un nuovo riferimento" + next +
		"de ophaling is mogelijk geboekt, en de dienst kan die niet opzoeken: een herhaald verzoek met deze {0} krijgt een 409 en boekt nooit dubbel; controleer de klantomgeving en boek daarna met een nieuwe referentie",
	msgHintShipment: "the shipment may have been booked, and the upstream may still be committing it. Resend the same request (same {0}, same data) after Retry-After: for {1} s after the booking was sent (BOOKING_GRACE_SECONDS) a resend is answered 425 (errorCode 1425) and sends nothing; after that the edge looks the booking up and answers with it, or books it if it is not there, and never books twice. A shipment found with this {0} but other data is answered 409 (errorCode 421), never adopted" + next +
		"puede que el envío se haya reservado, y el servicio de envíos puede estar registrándolo todavía. Reenvía la misma solicitud (mismo {0}, mismos datos) después de Retry-After: durante {1} s desde que se envió la reserva (BOOKING_GRACE_SECONDS) un reenvío recibe un 425 (errorCode 1425) y no envía nada; después, el worker perimetral busca la reserva y responde con ella, o la hace si no existe, y nunca reserva dos veces. Un envío encontrado con este {0} pero con otros datos recibe un 409 (errorCode 421) y nunca se adopta" + next +
		"o envio pode ter sido reservado, e o serviço de envios pode ainda estar a registá-lo. Reenvie o mesmo pedido (mesmo {0}, mesmos dados) depois de Retry-After: durante {1} s após o envio da reserva (BOOKING_GRACE_SECONDS) um reenvio recebe um 425 (errorCode 1425) e não envia nada; depois disso, o worker de periferia procura a reserva e responde com ela, ou faz a reserva se não existir, e nunca reserva duas vezes. Um envio encontrado com este {0} mas com outros dados recebe um 409 (errorCode 421) e nunca é adotado" + next +
		"l’envoi a peut-être été réservé, et le service d’expédition est peut-être encore en train de l’enregistrer. Renvoyez la même requête (même {0}, mêmes données) après Retry-After : pendant {1} s après l’envoi de la réservation (BOOKING_GRACE_SECONDS), un renvoi reçoit un 425 (errorCode 1425) et n’envoie rien ; ensuite, le worker périphérique recherche la réservation et répond avec elle, ou la fait si elle n’existe pas, et ne réserve jamais deux fois. Un envoi trouvé avec ce {0} mais d’autres données reçoit un 409 (errorCode 421) et n’est jamais adopté" + next +
		"die Sendung wurde möglicherweise gebucht, und der Versanddienst speichert sie vielleicht noch. Senden Sie dieselbe Anfrage (dieselbe {0}, dieselben Daten) nach Retry-After erneut: {1} s lang nach dem Absenden der Buchung (BOOKING_GRACE_SECONDS) wird eine erneute Sendung mit 425 (errorCode 1425) beantwortet und sendet nichts; danach sucht der Edge-Worker die Buchung und antwortet mit ihr oder bucht sie, wenn es sie nicht gibt, und bucht nie doppelt. Eine mit dieser {0}, aber anderen Daten gefundene Sendung wird mit 409 (errorCode 421) beantwortet und nie übernommen" + next +
		"la spedizione potrebbe essere stata prenotata, e il servizio di spedizione potrebbe ancora registrarla. Invia di nuovo la stessa richiesta (stesso {0}, stessi dati) dopo Retry-After: per {1} s dall’invio della prenotazione (BOOKING_GRACE_SECONDS) un nuovo invio riceve un 425 (errorCode 1425) e non invia nulla; dopo, il worker perimetrale cerca la prenotazione e risponde con essa, o la fa se non c’è, e non prenota mai due volte. Una spedizione trovata con questo {0} ma con altri dati riceve un 409 (errorCode 421) e non viene mai adottata" + next +
		"de zending is mogelijk geboekt, en de verzenddienst verwerkt die misschien nog. Verstuur hetzelfde verzoek (dezelfde {0}, dezelfde gegevens) opnieuw na Retry-After: gedurende {1} s nadat de boeking is verstuurd (BOOKING_GRACE_SECONDS) krijgt een herhaald verzoek een 425 (errorCode 1425) en wordt er niets verzonden; daarna zoekt de edge-worker de boeking op en antwoordt ermee, of boekt hem als hij er niet is, en boekt nooit dubbel. Een zending die met deze {0} maar met andere gegevens wordt gevonden, krijgt een 409 (errorCode 421) en wordt nooit overgenomen",
	msgHintSandbox: "resending the same {0} with the same data is answered with the first booking (the sandbox dedupes by reference)" + next +
		"reenviar el mismo {0} con los mismos datos recibe la primera reserva (el sandbox elimina duplicados por referencia)" + next +
		"reenviar o mesmo {0} com os mesmos dados recebe a primeira reserva (o sandbox elimina duplicados por referência)" + next +
		"renvoyer le même {0} avec les mêmes données reçoit la première réservation (le sandbox dédoublonne par référence)" + next +
		"eine erneute Sendung derselben {0} mit denselben Daten erhält die erste Buchung als Antwort (die Sandbox entfernt Duplikate anhand der Referenz)" + next +
		"inviare di nuovo lo stesso {0} con gli stessi dati riceve la prima prenotazione (la sandbox elimina i duplicati per riferimento)" + next +
		"dezelfde {0} opnieuw versturen met dezelfde gegevens krijgt de eerste boeking als antwoord (de sandbox ontdubbelt op referentie)",
	msgHintLookUp: "do not resend blindly: the shipment may have been booked; look it up with get-shipments?filter_shipping_client_ref={0} and book again only if it is not there" + next +
		"no reenvíes a ciegas: puede que el envío se haya reservado; búscalo con get-shipments?filter_shipping_client_ref={0} y vuelve a reservar solo si no está" + next +
		"não reenvie às cegas: o envio pode ter sido reservado; procure-o com get-shipments?filter_shipping_client_ref={0} e reserve de novo apenas se não estiver lá" + next +
		"ne renvoyez pas à l’aveugle : l’envoi a peut-être été réservé ; recherchez-le avec get-shipments?filter_shipping_client_ref={0} et ne réservez à nouveau que s’il n’y est pas" + next +
		"nicht blind erneut senden: die Sendung wurde möglicherweise gebucht; suchen Sie sie mit get-shipments?filter_shipping_client_ref={0} und buchen Sie nur dann erneut, wenn sie nicht da ist" + next +
		"non inviare di nuovo alla cieca: la spedizione potrebbe essere stata prenotata; cercala con get-shipments?filter_shipping_client_ref={0} e prenota di nuovo solo se non c’è" + next +
		"verstuur niet blind opnieuw: de zending is mogelijk geboekt; zoek hem op met get-shipments?filter_shipping_client_ref={0} en boek alleen opnieuw als hij er niet is",
	msgHintCheckArea: "do not resend blindly: the collection may have been booked; check the customer area before booking again" + next +
		"no reenvíes a ciegas: puede que la recogida se haya reservado; revisa el área de cliente antes de volver a reservar" + next +
		"não reenvie às cegas: a recolha pode ter sido reservada; verifique a área de cliente antes de reservar de novo" + next +
		"ne renvoyez pas à l’aveugle : l’enlèvement a peut-être été réservé ; vérifiez l’espace client avant de réserver à nouveau" + next +
		"nicht blind erneut senden: die Abholung wurde möglicherweise gebucht; prüfen Sie den Kundenbereich, bevor Sie erneut buchen" + next +
		"non inviare di nuovo alla cieca: il ritiro potrebbe essere stato prenotato; controlla l’area clienti prima di prenotare di nuovo" + next +
		"verstuur niet blind opnieuw: de ophaling is mogelijk geboekt; controleer de klantomgeving voordat je opnieuw boekt",
	msgAuthRequired: "{0} requires Authorization: Bearer <PROXY_TOKEN or a scoped token>" + next +
		"{0} requiere Authorization: Bearer <PROXY_TOKEN o un token limitado>" + next +
		"{0} requer Authorization: Bearer <PROXY_TOKEN ou um token restrito>" + next +
		"{0} exige Authorization: Bearer <PROXY_TOKEN ou un jeton restreint>" + next +
		"{0} erfordert Authorization: Bearer <PROXY_TOKEN oder ein eingeschränktes Token>" + next +
		"{0} richiede Authorization: Bearer <PROXY_TOKEN o un token limitato>" + next +
		"{0} vereist Authorization: Bearer <PROXY_TOKEN of een beperkt token>",
	msgNotFound: "not found: operations are at /v1/<operation>, probes at /healthz" + next +
		"no encontrado: las operaciones están en /v1/<operation>, las sondas en /healthz" + next +
		"não encontrado: as operações estão em /v1/<operation>, as sondas em /healthz" + next +
		"introuvable : les opérations sont sous /v1/<operation>, les sondes sous /healthz" + next +
		"nicht gefunden: Vorgänge liegen unter /v1/<operation>, Prüfungen unter /healthz" + next +
		"non trovato: le operazioni sono in /v1/<operation>, le sonde in /healthz" + next +
		"niet gevonden: bewerkingen staan onder /v1/<operation>, controles onder /healthz",
	msgUnknownOperation: "unknown operation {0}; see GET /healthz for the list" + next +
		"operación desconocida {0}; consulta la lista en GET /healthz" + next +
		"operação desconhecida {0}; consulte a lista em GET /healthz" + next +
		"opération inconnue {0} ; la liste est sous GET /healthz" + next +
		"unbekannter Vorgang {0}; die Liste steht unter GET /healthz" + next +
		"operazione sconosciuta {0}; l’elenco è in GET /healthz" + next +
		"onbekende bewerking {0}; de lijst staat onder GET /healthz",
	msgMethod: "method {0} is not allowed for {1}; use {2}" + next +
		"el método {0} no está permitido para {1}; usa {2}" + next +
		"o método {0} não é permitido para {1}; utilize {2}" + next +
		"la méthode {0} n’est pas autorisée pour {1} ; utilisez {2}" + next +
		"die Methode {0} ist für {1} nicht erlaubt; verwenden Sie {2}" + next +
		"il metodo {0} non è consentito per {1}; usa {2}" + next +
		"methode {0} is niet toegestaan voor {1}; gebruik {2}",
	msgOrigin: "origin {0} is not allowed (ALLOWED_ORIGINS)" + next +
		"el origen {0} no está permitido (ALLOWED_ORIGINS)" + next +
		"a origem {0} não é permitida (ALLOWED_ORIGINS)" + next +
		"l’origine {0} n’est pas autorisée (ALLOWED_ORIGINS)" + next +
		"der Ursprung {0} ist nicht erlaubt (ALLOWED_ORIGINS)" + next +
		"l’origine {0} non è consentita (ALLOWED_ORIGINS)" + next +
		"de herkomst {0} is niet toegestaan (ALLOWED_ORIGINS)",
	msgRateLimited: "too many requests; retry after {0} seconds" + next +
		"demasiadas solicitudes; vuelve a intentarlo dentro de {0} segundos" + next +
		"demasiados pedidos; tente novamente dentro de {0} segundos" + next +
		"trop de requêtes ; réessayez dans {0} secondes" + next +
		"zu viele Anfragen; versuchen Sie es in {0} Sekunden erneut" + next +
		"troppe richieste; riprova tra {0} secondi" + next +
		"te veel verzoeken; probeer het over {0} seconden opnieuw",
	msgTimeout: "the request did not finish within {0} ms" + next +
		"la solicitud no terminó en {0} ms" + next +
		"o pedido não terminou em {0} ms" + next +
		"la requête ne s’est pas terminée en {0} ms" + next +
		"die Anfrage wurde nicht innerhalb von {0} ms abgeschlossen" + next +
		"la richiesta non è terminata entro {0} ms" + next +
		"het verzoek is niet binnen {0} ms afgerond",
	msgLedger: "the booking ledger could not be reached; nothing was booked" + next +
		"no se pudo acceder al registro de reservas; no se ha reservado nada" + next +
		"não foi possível aceder ao registo de reservas; nada foi reservado" + next +
		"le registre des réservations est injoignable ; rien n’a été réservé" + next +
		"das Buchungsregister war nicht erreichbar; es wurde nichts gebucht" + next +
		"il registro delle prenotazioni non è raggiungibile; non è stato prenotato nulla" + next +
		"het boekingsregister was niet bereikbaar; er is niets geboekt",
	msgInternal: "internal error in the edge worker (request {0})" + next +
		"error interno en el worker perimetral (solicitud {0})" + next +
		"erro interno no worker de periferia (pedido {0})" + next +
		"erreur interne du worker périphérique (requête {0})" + next +
		"interner Fehler im Edge-Worker (Anfrage {0})" + next +
		"errore interno nel worker perimetrale (richiesta {0})" + next +
		"interne fout in de edge-worker (verzoek {0})",
	msgBusy: "a booking with this {0} is still in progress; retry shortly to get its answer" + next +
		"una reserva con este {0} sigue en curso; vuelve a intentarlo en breve para obtener su respuesta" + next +
		"uma reserva com este {0} ainda está em curso; tente novamente daqui a pouco para obter a resposta" + next +
		"une réservation avec ce {0} est encore en cours ; réessayez sous peu pour obtenir sa réponse" + next +
		"eine Buchung mit dieser {0} läuft noch; versuchen Sie es gleich erneut, um ihre Antwort zu erhalten" + next +
		"una prenotazione con questo {0} è ancora in corso; riprova tra poco per ottenerne la risposta" + next +
		"een boeking met deze {0} is nog bezig; probeer het zo opnieuw om het antwoord te krijgen",
	msgTakenOver: "another attempt with this {0} took over its booking; nothing was sent: retry shortly to get its answer" + next +
		"otro intento con este {0} ha tomado el relevo de su reserva; no se ha enviado nada: vuelve a intentarlo en breve para obtener su respuesta" + next +
		"outra tentativa com este {0} assumiu a sua reserva; nada foi enviado: tente novamente daqui a pouco para obter a resposta" + next +
		"une autre tentative avec ce {0} a repris sa réservation ; rien n’a été envoyé : réessayez sous peu pour obtenir sa réponse" + next +
		"ein anderer Versuch mit dieser {0} hat ihre Buchung übernommen; es wurde nichts gesendet: versuchen Sie es gleich erneut, um ihre Antwort zu erhalten" + next +
		"un altro tentativo con questo {0} ha preso in carico la sua prenotazione; non è stato inviato nulla: riprova tra poco per ottenerne la risposta" + next +
		"een andere poging met deze {0} heeft de boeking overgenomen; er is niets verzonden: probeer het zo opnieuw om het antwoord te krijgen",
	msgEncodedPath: "path {0}: percent-encoded characters are not accepted; write the path as it is (/v1/<operation>, e.g. /v1/new-shipment)" + next +
		"ruta {0}: no se aceptan caracteres codificados con porcentaje; escribe la ruta tal cual (/v1/<operation>, p. ej. /v1/new-shipment)" + next +
		"caminho {0}: não são aceites caracteres codificados com percentagem; escreva o caminho tal como é (/v1/<operation>, p. ex. /v1/new-shipment)" + next +
		"chemin {0} : les caractères encodés en pourcentage ne sont pas acceptés ; écrivez le chemin tel quel (/v1/<operation>, p. ex. /v1/new-shipment)" + next +
		"Pfad {0}: prozentkodierte Zeichen werden nicht angenommen; schreiben Sie den Pfad, wie er ist (/v1/<operation>, z. B. /v1/new-shipment)" + next +
		"percorso {0}: i caratteri codificati con percentuale non sono accettati; scrivi il percorso così com’è (/v1/<operation>, ad es. /v1/new-shipment)" + next +
		"pad {0}: procent-gecodeerde tekens worden niet geaccepteerd; schrijf het pad zoals het is (/v1/<operation>, bijv. /v1/new-shipment)",
	msgBookingConflict: "{0} {1} was already used for a booking with other data; use a new reference for a new booking" + next +
		"{0} {1} ya se usó para una reserva con otros datos; usa una referencia nueva para una reserva nueva" + next +
		"{0} {1} já foi utilizado numa reserva com outros dados; utilize uma nova referência para uma nova reserva" + next +
		"{0} {1} a déjà servi pour une réservation avec d’autres données ; utilisez une nouvelle référence pour une nouvelle réservation" + next +
		"{0} {1} wurde bereits für eine Buchung mit anderen Daten verwendet; verwenden Sie für eine neue Buchung eine neue Referenz" + next +
		"{0} {1} è già stato usato per una prenotazione con altri dati; usa un nuovo riferimento per una nuova prenotazione" + next +
		"{0} {1} is al gebruikt voor een boeking met andere gegevens; gebruik een nieuwe referentie voor een nieuwe boeking",
	msgBookingUnconfirmed: "an earlier attempt with this {0} may have booked the shipment, and the upstream may still be committing it; nothing was sent. Resend the same request in {1} s (Retry-After): the edge then looks the booking up and answers with it, or books it if it is not there" + next +
		"un intento anterior con este {0} puede haber reservado el envío, y el servicio de envíos puede estar registrándolo todavía; no se ha enviado nada. Reenvía la misma solicitud dentro de {1} s (Retry-After): el worker perimetral buscará entonces la reserva y responderá con ella, o la hará si no existe" + next +
		"uma tentativa anterior com este {0} pode ter reservado o envio, e o serviço de envios pode ainda estar a registá-lo; nada foi enviado. Reenvie o mesmo pedido dentro de {1} s (Retry-After): o worker de periferia procura então a reserva e responde com ela, ou faz a reserva se não existir" + next +
		"une tentative précédente avec ce {0} a peut-être réservé l’envoi, et le service d’expédition est peut-être encore en train de l’enregistrer ; rien n’a été envoyé. Renvoyez la même requête dans {1} s (Retry-After) : le worker périphérique recherchera alors la réservation et répondra avec elle, ou la fera si elle n’existe pas" + next +
		"ein früherer Versuch mit dieser {0} hat die Sendung möglicherweise gebucht, und der Versanddienst speichert sie vielleicht noch; es wurde nichts gesendet. Senden Sie dieselbe Anfrage in {1} s erneut (Retry-After): der Edge-Worker sucht dann die Buchung und antwortet mit ihr oder bucht sie, wenn es sie nicht gibt" + next +
		"un tentativo precedente con questo {0} potrebbe aver prenotato la spedizione, e il servizio di spedizione potrebbe ancora registrarla; non è stato inviato nulla. Invia di nuovo la stessa richiesta tra {1} s (Retry-After): il worker perimetrale cercherà allora la prenotazione e risponderà con essa, o la farà se non c’è" + next +
		"een eerdere poging met deze {0} heeft de zending mogelijk geboekt, en de verzenddienst verwerkt die misschien nog; er is niets verzonden. Verstuur hetzelfde verzoek over {1} s opnieuw (Retry-After): de edge-worker zoekt de boeking dan op en antwoordt ermee, of boekt hem als hij er niet is",
	msgCollectionUnknown: "the answer to an earlier attempt with this {0} was lost, and the service offers no way to look a collection up: check the customer area, then book with a new reference" + next +
		"se perdió la respuesta a un intento anterior con este {0}, y el servicio no permite buscar una recogida: revisa el área de cliente y luego reserva con una referencia nueva" + next +
		"a resposta a uma tentativa anterior com este {0} perdeu-se, e o serviço não permite procurar uma recolha: verifique a área de cliente e depois reserve com uma nova referência" + next +
		"la réponse à une tentative précédente avec ce {0} a été perdue, et le service ne permet pas de rechercher un enlèvement : vérifiez l’espace client, puis réservez avec une nouvelle référence" + next +
		"die Antwort auf einen früheren Versuch mit dieser {0} ging verloren, und der Dienst bietet keine Möglichkeit, eine Abholung nachzuschlagen: prüfen Sie den Kundenbereich und buchen Sie dann mit einer neuen Referenz" + next +
		"la risposta a un tentativo precedente con questo {0} è andata persa, e il servizio non permette di cercare un ritiro: controlla l’area clienti, poi prenota con un nuovo riferimento" + next +
		"het antwoord op een eerdere poging met deze {0} is verloren gegaan, en de dienst kan een ophaling niet opzoeken: controleer de klantomgeving en boek daarna met een nieuwe referentie",
	msgLookupPage: "the answer to an earlier attempt with this {0} was lost, and the upstream lists more shipments for it than one page, so the edge cannot tell whether it booked; nothing was sent: check the customer area, then book with a new reference" + next +
		"se perdió la respuesta a un intento anterior con este {0}, y el servicio de envíos lista para él más envíos de los que caben en una página, así que el worker perimetral no puede saber si se reservó; no se ha enviado nada: revisa el área de cliente y luego reserva con una referencia nueva" + next +
		"a resposta a uma tentativa anterior com este {0} perdeu-se, e o serviço de envios lista para ele mais envios do que cabem numa página, pelo que o worker de periferia não consegue saber se foi reservado; nada foi enviado: verifique a área de cliente e depois reserve com uma nova referência" + next +
		"la réponse à une tentative précédente avec ce {0} a été perdue, et le service d’expédition liste pour lui plus d’envois qu’une page n’en contient, si bien que le worker périphérique ne peut pas savoir s’il a réservé ; rien n’a été envoyé : vérifiez l’espace client, puis réservez avec une nouvelle référence" + next +
		"die Antwort auf einen früheren Versuch mit dieser {0} ging verloren, und der Versanddienst listet dafür mehr Sendungen, als auf eine Seite passen, daher kann der Edge-Worker nicht feststellen, ob gebucht wurde; es wurde nichts gesendet: prüfen Sie den Kundenbereich und buchen Sie dann mit einer neuen Referenz" + next +
		"la risposta a un tentativo precedente con questo {0} è andata persa, e il servizio di spedizione elenca per esso più spedizioni di quante ne stiano in una pagina, quindi il worker perimetrale non può sapere se ha prenotato; non è stato inviato nulla: controlla l’area clienti, poi prenota con un nuovo riferimento" + next +
		"het antwoord op een eerdere poging met deze {0} is verloren gegaan, en de verzenddienst toont er meer zendingen voor dan op één pagina passen, dus de edge-worker kan niet zien of er geboekt is; er is niets verzonden: controleer de klantomgeving en boek daarna met een nieuwe referentie",
	msgMismatch: "the upstream holds a shipment booked with {0} {1} {2}; it is not this booking: check it in the customer area, and book with a new reference" + next +
		"el servicio de envíos tiene un envío reservado con {0} {1} {2}; no es esta reserva: revísalo en el área de cliente y reserva con una referencia nueva" + next +
		"o serviço de envios tem um envio reservado com {0} {1} {2}; não é esta reserva: verifique-o na área de cliente e reserve com uma nova referência" + next +
		"le service d’expédition détient un envoi réservé avec {0} {1} {2} ; ce n’est pas cette réservation : vérifiez-le dans l’espace client, et réservez avec une nouvelle référence" + next +
		"der Versanddienst hat eine mit {0} {1} gebuchte Sendung, {2}; es ist nicht diese Buchung: prüfen Sie sie im Kundenbereich und buchen Sie mit einer neuen Referenz" + next +
		"il servizio di spedizione ha una spedizione prenotata con {0} {1} {2}; non è questa prenotazione: controllala nell’area clienti e prenota con un nuovo riferimento" + next +
		"de verzenddienst heeft een zending geboekt met {0} {1} {2}; het is niet deze boeking: controleer hem in de klantomgeving en boek met een nieuwe referentie",
	msgDifferStatus: "that the service did not make or cancelled (its status)" + next +
		"que el servicio no hizo o canceló (su estado)" + next +
		"que o serviço não fez ou cancelou (o seu estado)" + next +
		"que le service n’a pas effectué ou a annulé (son statut)" + next +
		"die der Dienst nicht ausgeführt oder storniert hat (ihr Status)" + next +
		"che il servizio non ha effettuato o ha annullato (il suo stato)" + next +
		"die de dienst niet heeft gemaakt of heeft geannuleerd (de status)",
	msgDifferStatusFields: "that the service did not make or cancelled (its status), and whose {0} differ from this request's" + next +
		"que el servicio no hizo o canceló (su estado), y cuyos {0} no coinciden con los de esta solicitud" + next +
		"que o serviço não fez ou cancelou (o seu estado), e cujos {0} diferem dos deste pedido" + next +
		"que le service n’a pas effectué ou a annulé (son statut), et dont les champs {0} diffèrent de ceux de cette requête" + next +
		"die der Dienst nicht ausgeführt oder storniert hat (ihr Status) und deren {0} von dieser Anfrage abweichen" + next +
		"che il servizio non ha effettuato o ha annullato (il suo stato), e i cui {0} differiscono da quelli di questa richiesta" + next +
		"die de dienst niet heeft gemaakt of heeft geannuleerd (de status), en waarvan {0} afwijken van dit verzoek",
	msgDifferFields: "whose {0} differ from this request's" + next +
		"cuyos {0} no coinciden con los de esta solicitud" + next +
		"cujos {0} diferem dos deste pedido" + next +
		"dont les champs {0} diffèrent de ceux de cette requête" + next +
		"deren {0} von dieser Anfrage abweichen" + next +
		"i cui {0} differiscono da quelli di questa richiesta" + next +
		"waarvan {0} afwijken van dit verzoek",
	msgLookupFailed: "an earlier attempt's answer was lost and the upstream could not be asked whether it booked; nothing was sent. Resend the same request shortly: the edge asks again and never books twice" + next +
		"se perdió la respuesta de un intento anterior y no se pudo preguntar al servicio de envíos si se reservó; no se ha enviado nada. Reenvía la misma solicitud en breve: el worker perimetral volverá a preguntar y nunca reserva dos veces" + next +
		"a resposta de uma tentativa anterior perdeu-se e não foi possível perguntar ao serviço de envios se foi reservado; nada foi enviado. Reenvie o mesmo pedido daqui a pouco: o worker de periferia pergunta de novo e nunca reserva duas vezes" + next +
		"la réponse d’une tentative précédente a été perdue et le service d’expédition n’a pas pu être interrogé sur la réservation ; rien n’a été envoyé. Renvoyez la même requête sous peu : le worker périphérique redemandera et ne réserve jamais deux fois" + next +
		"die Antwort auf einen früheren Versuch ging verloren, und der Versanddienst konnte nicht gefragt werden, ob gebucht wurde; es wurde nichts gesendet. Senden Sie dieselbe Anfrage gleich erneut: der Edge-Worker fragt noch einmal und bucht nie doppelt" + next +
		"la risposta a un tentativo precedente è andata persa e non è stato possibile chiedere al servizio di spedizione se ha prenotato; non è stato inviato nulla. Invia di nuovo la stessa richiesta tra poco: il worker perimetrale chiederà di nuovo e non prenota mai due volte" + next +
		"het antwoord op een eerdere poging is verloren gegaan en de verzenddienst kon niet worden gevraagd of er geboekt is; er is niets verzonden. Verstuur hetzelfde verzoek zo opnieuw: de edge-worker vraagt het opnieuw en boekt nooit dubbel",
	// --- signed offers (offers.go): one message per kind of refusal; a
	// booking that differs from its offer is named by the field.
	msgOfferExpired: "the shipping offer has expired: choose a service again" + next +
		"la oferta de envío ha caducado: elige de nuevo un servicio" + next +
		"a oferta de envio expirou: escolha novamente um serviço" + next +
		"l’offre d’expédition a expiré : choisissez à nouveau un service" + next +
		"das Versandangebot ist abgelaufen: wählen Sie erneut einen Dienst" + next +
		"l’offerta di spedizione è scaduta: scegli di nuovo un servizio" + next +
		"het verzendaanbod is verlopen: kies opnieuw een dienst",
	msgOfferInvalid: "the shipping offer is not valid: choose a service again" + next +
		"la oferta de envío no es válida: elige de nuevo un servicio" + next +
		"a oferta de envio não é válida: escolha novamente um serviço" + next +
		"l’offre d’expédition n’est pas valide : choisissez à nouveau un service" + next +
		"das Versandangebot ist ungültig: wählen Sie erneut einen Dienst" + next +
		"l’offerta di spedizione non è valida: scegli di nuovo un servizio" + next +
		"het verzendaanbod is ongeldig: kies opnieuw een dienst",
	msgOfferDiffers: "does not match the chosen shipping offer: choose a service again" + next +
		"no coincide con la oferta de envío elegida: elige de nuevo un servicio" + next +
		"não corresponde à oferta de envio escolhida: escolha novamente um serviço" + next +
		"ne correspond pas à l’offre d’expédition choisie : choisissez à nouveau un service" + next +
		"entspricht nicht dem gewählten Versandangebot: wählen Sie erneut einen Dienst" + next +
		"non corrisponde all’offerta di spedizione scelta: scegli di nuovo un servizio" + next +
		"komt niet overeen met het gekozen verzendaanbod: kies opnieuw een dienst",

	// --- the fallback table's services (rates.go), shown in the rate selector ---
	msgFallbackHome: "Home delivery" + next +
		"Entrega a domicilio" + next +
		"Entrega ao domicílio" + next +
		"Livraison à domicile" + next +
		"Lieferung nach Hause" + next +
		"Consegna a domicilio" + next +
		"Thuisbezorging",
	msgFallbackDrop: "Drop point delivery" + next +
		"Entrega en punto de recogida" + next +
		"Entrega em ponto de recolha" + next +
		"Livraison en point relais" + next +
		"Lieferung an einen Abholpunkt" + next +
		"Consegna in un punto di ritiro" + next +
		"Bezorging bij een afhaalpunt",
	msgFallbackCarrier: "Standard rate" + next +
		"Tarifa estándar" + next +
		"Tarifa padrão" + next +
		"Tarif standard" + next +
		"Standardtarif" + next +
		"Tariffa standard" + next +
		"Standaardtarief",

	// --- the shop's pricing (pricing.go) ---
	// A bad order_value ({0}: decimals, {1}: example).
	msgOrderValue: "must be the cart's value: an amount of 0 or more with at most {0} decimals, such as {1}" + next +
		"debe ser el valor del carrito: un importe de 0 o más con {0} decimales como máximo, por ejemplo {1}" + next +
		"deve ser o valor do carrinho: um montante de 0 ou mais com no máximo {0} casas decimais, por exemplo {1}" + next +
		"doit être la valeur du panier : un montant de 0 ou plus avec au plus {0} décimales, par exemple {1}" + next +
		"muss der Warenkorbwert sein: ein Betrag ab 0 mit höchstens {0} Nachkommastellen, zum Beispiel {1}" + next +
		"deve essere il valore del carrello: un importo pari o superiore a 0 con al massimo {0} decimali, ad esempio {1}" + next +
		"moet de waarde van de winkelwagen zijn: een bedrag van 0 of meer met hoogstens {0} decimalen, bijvoorbeeld {1}",
}

// Rows of messages.
const (
	msgNotFound = iota
	msgUpstreamTimeout
	msgUpstreamUnreachable
	msgUpstreamUnreadable
	msgUpstreamLeak
	msgUpstreamOkOnError
	msgUpstreamNotEnvelope
	msgUpstreamAuth
	msgUpstreamFailed
	msgScopedNeedsLedger
	msgQueryOnPost
	msgTooLarge
	msgMediaType
	msgNotGranted
	msgTokensMaster
	msgBadBody
	msgTokenInvalid
	msgTokenExpired
	msgTokenGrant
	msgAuthRequired
	msgScopeUnbound
	msgScopeOtherRef
	msgScopeNotBoundTo
	msgScopeNoOffer
	msgScopeUseDlvrRef
	msgMisconfigGeneric
	msgHintCollection
	msgHintShipment
	msgHintSandbox
	msgHintLookUp
	msgHintCheckArea
	msgUnknownOperation
	msgMethod
	msgOrigin
	msgRateLimited
	msgTimeout
	msgLedger
	msgInternal
	msgBusy
	msgTakenOver
	msgEncodedPath
	msgBookingConflict
	msgBookingUnconfirmed
	msgCollectionUnknown
	msgLookupPage
	msgMismatch
	msgDifferStatus
	msgDifferStatusFields
	msgDifferFields
	msgLookupFailed
	msgOfferExpired
	msgOfferInvalid
	msgOfferDiffers
	msgFallbackHome
	msgFallbackDrop
	msgFallbackCarrier
	msgOrderValue
	messageCount
)

// next separates the texts of a row of messages.
const next = "\x00"

// text is message m in locale l.
func text(m int, l i18n.Locale) string {
	if int(l) >= i18n.Count {
		l = i18n.English
	}
	return i18n.Field(messages[m], next[0], int(l))
}

// say writes message m in locale l with args in place of {0}, {1}...
func say(l i18n.Locale, m int, args ...string) string {
	return i18n.Fill(text(m, l), args...)
}
