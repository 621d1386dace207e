// The checkout of the sample page, against the edge named by ?edge=.
const edge = new URLSearchParams(location.search).get('edge') || location.origin;
const parcels = JSON.stringify([{ parcel_weight: 2, parcel_width: 20, parcel_height: 10, parcel_length: 30, parcel_volume: 6000 }]);

window.events = [];
for (const type of ['pg-error', 'pg-load', 'pg-select']) {
  document.addEventListener(type, (e) => {
    window.events.push({ type, tag: e.target.localName, category: e.detail && e.detail.error ? e.detail.error.category : undefined });
  });
}

const main = document.createElement('main');
main.innerHTML = `
  <h1>Sample checkout</h1>
  <pg-address-form prefix="to" country="ES"></pg-address-form>
  <pg-rate-selector from-country="ES" from-zip="28014" to-country="ES" to-zip="08001"></pg-rate-selector>
  <pg-drop-point-picker country="ES" zip-code="08001"></pg-drop-point-picker>`;
for (const el of main.querySelectorAll('pg-rate-selector, pg-drop-point-picker')) el.setAttribute('endpoint', edge);
main.querySelector('pg-rate-selector').setAttribute('parcels', parcels);
document.body.append(main);
document.body.dataset.ready = 'true';
