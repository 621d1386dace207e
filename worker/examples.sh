#!/usr/bin/env bash
# worker/HTTP.md's curl examples, runnable: every operation of the edge worker,
# rates -> booking -> label -> tracking -> collection, against `make dev`
# (the embedded sandbox). Usage: worker/examples.sh [base-url] [proxy-token]
set -euo pipefail
BASE=${1:-http://127.0.0.1:8787}
TOKEN=${2:-dev-proxy-token-change-me-0123456789abcdef}          # PROXY_TOKEN from .dev.vars
AUTH="Authorization: Bearer $TOKEN"
DAY=${DAY:-$(date -d "next monday" +%F)}  # a future working day (override with DAY=YYYY-MM-DD)
REF="DEMO-$(date +%s | tail -c 7)"   # shipping_client_ref (at most 15 characters)
PARCEL='parcels[0][parcel_weight]=2.5&parcels[0][parcel_width]=20&parcels[0][parcel_height]=10&parcels[0][parcel_length]=30&parcels[0][parcel_volume]=6000'
ROUTE='from_country_code=ES&from_zip_code=28014&to_country_code=ES&to_zip_code=08001'
show() { echo; echo "== $1"; }
# short prints the first 300 characters of a long answer. The answer is read
# whole first: piping curl into `head` fails at random under pipefail
# (curl: (23) when head exits before curl has written everything).
short() { local out; out=$(curl -sS "$@"); printf '%s ...\n' "${out:0:300}"; }

# Public operations (no token).
show get-client-carriers
curl -sS "$BASE/v1/get-client-carriers"
show get-client-services
curl -sS "$BASE/v1/get-client-services?carrier_code=rayo&status=1"
show get-shipments-rates
curl -sS "$BASE/v1/get-shipments-rates" --data "$ROUTE&$PARCEL"
show get-shipment-time-arrival-estimation
curl -sS "$BASE/v1/get-shipment-time-arrival-estimation?$ROUTE&shipping_date=$DAY"
show get-service-info
curl -sS "$BASE/v1/get-service-info?carrier_code=rayo&service_code=rayo-48&$ROUTE"
show get-drop-points
curl -sS "$BASE/v1/get-drop-points?country_code=ES&zip_code=28014&carrier_code=rayo"
show get-collection-cutoff-hour
curl -sS "$BASE/v1/get-collection-cutoff-hour?country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo"

# Protected operations (Authorization: Bearer <PROXY_TOKEN>).
PARTIES='from_name=Tienda+Demo&from_address=Calle+de+Alcal%C3%A1+1&from_city=Madrid&to_name=Ana+Garc%C3%ADa&to_address=Carrer+de+Pau+Claris+1&to_city=Barcelona&to_phone=600000000'
show new-shipment
SHIPMENT=$(curl -sS -H "$AUTH" "$BASE/v1/new-shipment" --data \
  "shipping_date=$DAY&service_type=custom&carrier_code=rayo&service_code=rayo-48&shipping_client_ref=$REF&$PARTIES&$ROUTE&$PARCEL")
echo "$SHIPMENT"
DLVR=$(printf '%s' "$SHIPMENT" | sed -n 's/.*"shipping_dlvr_ref":"\([^"]*\)".*/\1/p')
show get-shipment-label
short -H "$AUTH" "$BASE/v1/get-shipment-label?dlvr_ref=$DLVR"
show get-shipment
short -H "$AUTH" "$BASE/v1/get-shipment?dlvr_ref=$DLVR"
show get-shipments
short -H "$AUTH" "$BASE/v1/get-shipments?filter_shipping_client_ref=$REF&page=1&n_items=10"
show get-shipment-tracking
curl -sS -H "$AUTH" "$BASE/v1/get-shipment-tracking?dlvr_ref=$DLVR"
show new-collection
curl -sS -H "$AUTH" "$BASE/v1/new-collection" --data \
  "collection_date=$DAY&hour_start_1=10:00&hour_end_1=14:00&carrier_code=rayo&service_code=rayo-48&shipping_dlvr_ref=$DLVR&collection_client_ref=${REF}C&$PARTIES&$ROUTE"
echo
