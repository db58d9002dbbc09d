/* svc browser SDK v1: a MapLibre GL JS map on our tiles and styles, loaded from this host only.
 *   <script src="{BASE_URL}/sdk/v1/svc.js"></script>
 *   const map = new svc.Map({ container: 'map', center: [-1.2864, 36.8172], zoom: 12, theme: 'day', key: 'svc_live_…' });
 * center is [lat, lng] (or {lat, lng}), as everywhere in this API. */
(function () {
  'use strict';
  var BASE = '__SVC_BASE_URL__';
  var TILES = '__SVC_TILES_URL__';
  var svc = (window.svc = window.svc || {});
  svc.version = 'v1';
  svc.baseUrl = BASE;
  svc.tilesUrl = TILES;

  var lib = null;
  /** MapLibre GL JS (ES module) from this host; its worker loads from beside it. */
  svc.loadMapLibre = function () {
    if (!lib) {
      if (!document.querySelector('link[data-svc-maplibre]')) {
        var css = document.createElement('link');
        css.rel = 'stylesheet';
        css.href = BASE + '/sdk/v1/lib/maplibre-gl.css';
        css.setAttribute('data-svc-maplibre', '');
        document.head.appendChild(css);
      }
      lib = import(BASE + '/sdk/v1/lib/maplibre-gl.mjs').then(function (m) { return m.default && m.default.Map ? m.default : m; });
    }
    return lib;
  };

  function latLng(c) {
    if (Array.isArray(c)) return { lat: +c[0], lng: +c[1] };
    if (c && typeof c.lat === 'function') return { lat: c.lat(), lng: c.lng() };
    return { lat: +c.lat, lng: +c.lng };
  }
  function styleUrl(theme, key) {
    return TILES + (theme === 'dark' || theme === 'night' ? '/style-dark.json' : '/style.json') + (key ? '?key=' + encodeURIComponent(key) : '');
  }

  function SvcMap(o) {
    if (!(this instanceof SvcMap)) return new SvcMap(o);
    o = o || {};
    var self = this;
    this.key = o.key || '';
    this.theme = o.theme === 'dark' || o.theme === 'night' ? 'dark' : 'day';
    this._route = null;
    var c = latLng(o.center || [0, 20]);
    this.ready = svc.loadMapLibre().then(function (ml) {
      self.maplibregl = ml;
      self.map = new ml.Map({
        container: o.container, style: styleUrl(self.theme, self.key), center: [c.lng, c.lat], zoom: o.zoom == null ? 3 : o.zoom,
        attributionControl: { compact: false }, maxZoom: 19, preserveDrawingBuffer: !!o.preserveDrawingBuffer,
      });
      if (o.navigation !== false) self.map.addControl(new ml.NavigationControl({ showCompass: false }));
      self.map.on('style.load', function () { self._drawRoute(); });
      return new Promise(function (resolve) { self.map.once('load', function () { resolve(self); }); });
    });
  }

  /** Switch between the day and night styles; markers and the route stay. */
  SvcMap.prototype.setTheme = function (theme) {
    var self = this;
    this.theme = theme === 'dark' || theme === 'night' ? 'dark' : 'day';
    return this.ready.then(function () {
      return new Promise(function (resolve) {
        self.map.once('idle', function () { resolve(self); });
        self.map.setStyle(styleUrl(self.theme, self.key));
      });
    });
  };

  /** A marker at {lat, lng} (or [lat, lng]); options color, popup (text). Resolves to the MapLibre marker. */
  SvcMap.prototype.addMarker = function (at, opts) {
    var self = this;
    opts = opts || {};
    return this.ready.then(function () {
      var p = latLng(at.lat !== undefined || Array.isArray(at) ? at : at.position);
      var m = new self.maplibregl.Marker({ color: opts.color || at.color || '#e53935' }).setLngLat([p.lng, p.lat]);
      var text = opts.popup || at.popup;
      if (text) m.setPopup(new self.maplibregl.Popup({ offset: 24 }).setText(String(text)));
      return m.addTo(self.map);
    });
  };

  /** Fit the view to points ([[lat, lng], …] or {lat, lng} objects) or to [[south, west], [north, east]]. */
  SvcMap.prototype.fitBounds = function (points, opts) {
    var self = this;
    return this.ready.then(function () {
      var w = 180, s = 90, e = -180, n = -90;
      points.forEach(function (q) {
        var p = latLng(q);
        w = Math.min(w, p.lng); e = Math.max(e, p.lng); s = Math.min(s, p.lat); n = Math.max(n, p.lat);
      });
      self.map.fitBounds([[w, s], [e, n]], Object.assign({ padding: 40, duration: 0, maxZoom: 17 }, opts || {}));
      return self;
    });
  };

  /** Draw the route of a GET /api/v1/route answer (or its `route`), and fit the view to it. */
  SvcMap.prototype.drawRoute = function (answer, opts) {
    var r = answer && answer.route ? answer.route : answer;
    if (!r || !r.geometry || r.geometry.type !== 'LineString') throw new Error('svc.Map.drawRoute: expected a /route answer with route.geometry');
    this._route = { geometry: r.geometry, color: (opts && opts.color) || '#1e4fd8', width: (opts && opts.width) || 5 };
    var self = this;
    return this.ready.then(function () {
      self._drawRoute();
      if (!opts || opts.fit !== false) return self.fitBounds(r.geometry.coordinates.map(function (c) { return [c[1], c[0]]; }));
      return self;
    });
  };

  SvcMap.prototype._drawRoute = function () {
    var m = this.map, r = this._route;
    if (!m || !r || !m.isStyleLoaded()) return;
    var data = { type: 'Feature', properties: {}, geometry: r.geometry };
    if (m.getSource('svc-route')) m.getSource('svc-route').setData(data);
    else {
      m.addSource('svc-route', { type: 'geojson', data: data });
      m.addLayer({ id: 'svc-route-casing', type: 'line', source: 'svc-route', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#ffffff', 'line-width': r.width + 3 } });
      m.addLayer({ id: 'svc-route', type: 'line', source: 'svc-route', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': r.color, 'line-width': r.width } });
    }
  };

  /** The underlying MapLibre map, once loaded. */
  SvcMap.prototype.getMap = function () { return this.ready.then(function (s) { return s.map; }); };
  SvcMap.prototype.on = function (ev, fn) { var self = this; this.ready.then(function () { self.map.on(ev, fn); }); return this; };
  SvcMap.prototype.remove = function () { return this.ready.then(function (s) { s.map.remove(); }); };

  svc.Map = SvcMap;
})();
