package core

import "github.com/parcelgate/parcelgate/internal/i18n"

// The edge's own failure messages that reach shoppers' browsers (a trap,
// a timeout, a rate limit, a path or method a page got wrong), in the
// seven languages of internal/i18n, in its order: English, Spanish,
// Portuguese, French, German, Italian, Dutch, with {0}, {1}... for the
// variable parts. Operator-facing messages (configuration) stay English.
// Each row is one message; msg* below index them.
var messages = [...][i18n.Count]string{
	msgNotFound: {
		"not found: operations are at /v1/<operation>, probes at /healthz",
		"no encontrado: las operaciones están en /v1/<operation>, las sondas en /healthz",
		"não encontrado: as operações estão em /v1/<operation>, as sondas em /healthz",
		"introuvable : les opérations sont sous /v1/<operation>, les sondes sous /healthz",
		"nicht gefunden: Vorgänge liegen unter /v1/<operation>, Prüfungen unter /healthz",
		"non trovato: le operazioni sono in /v1/<operation>, le sonde in /healthz",
		"niet gevonden: bewerkingen staan onder /v1/<operation>, controles onder /healthz"},
	msgUnknownOperation: {
		"unknown operation {0}; see GET /healthz for the list",
		"operación desconocida {0}; consulta la lista en GET /healthz",
		"operação desconhecida {0}; consulte a lista em GET /healthz",
		"opération inconnue {0} ; la liste est sous GET /healthz",
		"unbekannter Vorgang {0}; die Liste steht unter GET /healthz",
		"operazione sconosciuta {0}; l’elenco è in GET /healthz",
		"onbekende bewerking {0}; de lijst staat onder GET /healthz"},
	msgMethod: {
		"method {0} is not allowed for {1}; use {2}",
		"el método {0} no está permitido para {1}; usa {2}",
		"o método {0} não é permitido para {1}; utilize {2}",
		"la méthode {0} n’est pas autorisée pour {1} ; utilisez {2}",
		"die Methode {0} ist für {1} nicht erlaubt; verwenden Sie {2}",
		"il metodo {0} non è consentito per {1}; usa {2}",
		"methode {0} is niet toegestaan voor {1}; gebruik {2}"},
	msgOrigin: {
		"origin {0} is not allowed (ALLOWED_ORIGINS)",
		"el origen {0} no está permitido (ALLOWED_ORIGINS)",
		"a origem {0} não é permitida (ALLOWED_ORIGINS)",
		"l’origine {0} n’est pas autorisée (ALLOWED_ORIGINS)",
		"der Ursprung {0} ist nicht erlaubt (ALLOWED_ORIGINS)",
		"l’origine {0} non è consentita (ALLOWED_ORIGINS)",
		"de herkomst {0} is niet toegestaan (ALLOWED_ORIGINS)"},
	msgRateLimited: {
		"too many requests; retry after {0} seconds",
		"demasiadas solicitudes; vuelve a intentarlo dentro de {0} segundos",
		"demasiados pedidos; tente novamente dentro de {0} segundos",
		"trop de requêtes ; réessayez dans {0} secondes",
		"zu viele Anfragen; versuchen Sie es in {0} Sekunden erneut",
		"troppe richieste; riprova tra {0} secondi",
		"te veel verzoeken; probeer het over {0} seconden opnieuw"},
	msgTimeout: {
		"the request did not finish within {0} ms",
		"la solicitud no terminó en {0} ms",
		"o pedido não terminou em {0} ms",
		"la requête ne s’est pas terminée en {0} ms",
		"die Anfrage wurde nicht innerhalb von {0} ms abgeschlossen",
		"la richiesta non è terminata entro {0} ms",
		"het verzoek is niet binnen {0} ms afgerond"},
	msgLedger: {
		"the booking ledger could not be reached; nothing was booked",
		"no se pudo acceder al registro de reservas; no se ha reservado nada",
		"não foi possível aceder ao registo de reservas; nada foi reservado",
		"le registre des réservations est injoignable ; rien n’a été réservé",
		"das Buchungsregister war nicht erreichbar; es wurde nichts gebucht",
		"il registro delle prenotazioni non è raggiungibile; non è stato prenotato nulla",
		"het boekingsregister was niet bereikbaar; er is niets geboekt"},
	msgInternal: {
		"internal error in the edge worker (request {0})",
		"error interno en el worker perimetral (solicitud {0})",
		"erro interno no worker de periferia (pedido {0})",
		"erreur interne du worker périphérique (requête {0})",
		"interner Fehler im Edge-Worker (Anfrage {0})",
		"errore interno nel worker perimetrale (richiesta {0})",
		"interne fout in de edge-worker (verzoek {0})"},
	msgBusy: {
		"a booking with this {0} is still in progress; retry shortly to get its answer",
		"una reserva con este {0} sigue en curso; vuelve a intentarlo en breve para obtener su respuesta",
		"uma reserva com este {0} ainda está em curso; tente novamente daqui a pouco para obter a resposta",
		"une réservation avec ce {0} est encore en cours ; réessayez sous peu pour obtenir sa réponse",
		"eine Buchung mit dieser {0} läuft noch; versuchen Sie es gleich erneut, um ihre Antwort zu erhalten",
		"una prenotazione con questo {0} è ancora in corso; riprova tra poco per ottenerne la risposta",
		"een boeking met deze {0} is nog bezig; probeer het zo opnieuw om het antwoord te krijgen"},
	msgEncodedPath: {
		"path {0}: percent-encoded characters are not accepted; write the path as it is (/v1/<operation>, e.g. /v1/new-shipment)",
		"ruta {0}: no se aceptan caracteres codificados con porcentaje; escribe la ruta tal cual (/v1/<operation>, p. ej. /v1/new-shipment)",
		"caminho {0}: não são aceites caracteres codificados com percentagem; escreva o caminho tal como é (/v1/<operation>, p. ex. /v1/new-shipment)",
		"chemin {0} : les caractères encodés en pourcentage ne sont pas acceptés ; écrivez le chemin tel quel (/v1/<operation>, p. ex. /v1/new-shipment)",
		"Pfad {0}: prozentkodierte Zeichen werden nicht angenommen; schreiben Sie den Pfad, wie er ist (/v1/<operation>, z. B. /v1/new-shipment)",
		"percorso {0}: i caratteri codificati con percentuale non sono accettati; scrivi il percorso così com’è (/v1/<operation>, ad es. /v1/new-shipment)",
		"pad {0}: procent-gecodeerde tekens worden niet geaccepteerd; schrijf het pad zoals het is (/v1/<operation>, bijv. /v1/new-shipment)"},
}

// Rows of messages.
const (
	msgNotFound = iota
	msgUnknownOperation
	msgMethod
	msgOrigin
	msgRateLimited
	msgTimeout
	msgLedger
	msgInternal
	msgBusy
	msgEncodedPath
	messageCount
)

// say writes message m in locale l with args in place of {0}, {1}...
func say(l i18n.Locale, m int, args ...string) string {
	if int(l) >= i18n.Count {
		l = i18n.English
	}
	s := messages[m][l]
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '{' && i+2 < len(s) && s[i+2] == '}' && s[i+1] >= '0' && s[i+1] <= '9' {
			if n := int(s[i+1] - '0'); n < len(args) {
				b = append(b, args[n]...)
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}
