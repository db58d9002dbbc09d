/* svc geocoder adapter v1 (SPEC §5.4) for browser keys:
 *   <script src="{BASE_URL}/sdk/v1/geocoder.js"></script>
 *   new svc.Geocoder({ key }).geocode({ address: 'Nairobi' }, function (results, status) { … });
 * status is "OK" or "ZERO_RESULTS" (or "REQUEST_DENIED", "OVER_QUERY_LIMIT", "INVALID_REQUEST", "UNKNOWN_ERROR");
 * results are shaped like the alt platform's (geometry.location.lat() …), our own fields under `svc`.
 * Also a @maplibre/maplibre-gl-geocoder API: new MaplibreGeocoder(new svc.Geocoder({ key }), { maplibregl }). */
(function () {
  'use strict';
  var BASE = '__SVC_BASE_URL__';
  var svc = (window.svc = window.svc || {});

  function LatLng(lat, lng) { this._lat = lat; this._lng = lng; }
  LatLng.prototype.lat = function () { return this._lat; };
  LatLng.prototype.lng = function () { return this._lng; };
  LatLng.prototype.toJSON = function () { return { lat: this._lat, lng: this._lng }; };
  LatLng.prototype.toString = function () { return '(' + this._lat + ', ' + this._lng + ')'; };

  function Geocoder(o) {
    if (!(this instanceof Geocoder)) return new Geocoder(o);
    this.key = (o && o.key) || '';
  }

  function query(self, params) {
    var q = Object.keys(params).filter(function (k) { return params[k] != null && params[k] !== ''; })
      .map(function (k) { return k + '=' + encodeURIComponent(params[k]); }).join('&');
    return fetch(BASE + '/sdk/v1/geocode?' + q + '&key=' + encodeURIComponent(self.key)).then(function (r) {
      return r.json().then(function (j) {
        if (j.status) return j;
        // Refused before the geocoder ran (key, origin, quota): our error envelope → the alt platform's statuses.
        var st = r.status === 401 || r.status === 403 ? 'REQUEST_DENIED' : r.status === 429 ? 'OVER_QUERY_LIMIT' : r.status === 400 ? 'INVALID_REQUEST' : 'UNKNOWN_ERROR';
        return { status: st, results: [], error_message: j.error && j.error.message };
      });
    });
  }

  /** request: {address, componentRestrictions: {country}, region, bounds}; callback(results, status). Also returns a Promise of {results}. */
  Geocoder.prototype.geocode = function (request, callback) {
    request = request || {};
    var country = request.componentRestrictions && request.componentRestrictions.country;
    return query(this, { address: request.address, country: country || request.region }).then(function (j) {
      var results = (j.results || []).map(function (r) {
        var out = Object.assign({}, r);
        out.geometry = Object.assign({}, r.geometry, { location: new LatLng(r.geometry.location.lat, r.geometry.location.lng) });
        return out;
      });
      if (callback) callback(results, j.status);
      if (j.status !== 'OK' && j.status !== 'ZERO_RESULTS') { var e = new Error(j.error_message || j.status); e.code = j.status; throw e; }
      return { results: results };
    }, function (err) {
      if (callback) callback([], 'UNKNOWN_ERROR');
      throw err;
    });
  };

  /** @maplibre/maplibre-gl-geocoder API: forwardGeocode({query, limit, countries}) → {features} (Carmen GeoJSON). */
  Geocoder.prototype.forwardGeocode = function (config) {
    var country = config.countries ? String(config.countries).split(',')[0] : undefined;
    return query(this, { address: config.query, limit: config.limit, country: country }).then(function (j) {
      return {
        type: 'FeatureCollection',
        features: (j.results || []).map(function (r) {
          var l = r.geometry.location;
          return {
            type: 'Feature', id: r.place_id, geometry: { type: 'Point', coordinates: [l.lng, l.lat] }, center: [l.lng, l.lat],
            place_name: r.formatted_address, text: r.svc && r.svc.name, place_type: r.types, properties: r.svc || {},
          };
        }),
      };
    });
  };

  svc.Geocoder = Geocoder;
  svc.LatLng = LatLng;
})();
