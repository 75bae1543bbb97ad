"""CSS, JavaScript and the page template of the HTML Gantt chart (see ``_html``).

Kept apart from the Python so the embedded code can use its own line lengths.
"""
# ruff: noqa: E501

CSS = """
:root { --fg:#1d2330; --muted:#667085; --line:#e4e7ec; --bg:#f5f6f8; --accent:#1f3b73; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",
  sans-serif; color:var(--fg); background:var(--bg); }
header { padding:14px 22px 6px; }
h1 { font-size:18px; margin:0 0 2px; font-weight:650; }
.meta { color:var(--muted); font-size:13px; }
main { padding:0 22px 22px; }
.cards { display:flex; gap:10px; flex-wrap:wrap; margin:10px 0 12px; }
.card { background:#fff; border:1px solid var(--line); border-radius:8px; padding:7px 14px;
  min-width:118px; }
.card .v { font-size:20px; font-weight:650; }
.card .l { color:var(--muted); font-size:12px; }
.card.bad .v { color:#d62728; } .card.good .v { color:#2e7d32; }
.warn { background:#fde8e8; color:#8a1111; border:1px solid #f5b5b5; border-radius:8px;
  padding:8px 12px; margin-bottom:10px; font-weight:600; }
.panel { background:#fff; border:1px solid var(--line); border-radius:8px; }
.toolbar { display:flex; align-items:center; gap:6px; padding:7px 10px;
  border-bottom:1px solid var(--line); flex-wrap:wrap; }
.toolbar button { font:inherit; font-size:13px; border:1px solid #cfd4dc; background:#fff;
  border-radius:6px; padding:3px 10px; cursor:pointer; color:var(--fg); }
.toolbar button:hover { background:#eef2f7; }
.toolbar .range { margin-left:8px; color:var(--muted); font-variant-numeric:tabular-nums; }
.toolbar .hint { margin-left:auto; color:var(--muted); font-size:12px; }
#chart-wrap { position:relative; }
#chart { display:block; width:100%; user-select:none; cursor:grab; }
#chart.dragging { cursor:grabbing; }
#chart text { font-size:12px; fill:var(--fg); }
#chart .lbl-server { font-weight:700; }
#chart .lbl-idle { fill:var(--muted); }
#chart .axis text { font-size:11px; fill:var(--muted); }
#chart .job-n { font-size:10px; fill:#fff; font-weight:700; pointer-events:none; }
#chart .box:hover, #chart .agg:hover { filter:brightness(1.15); }
.legend { display:flex; flex-wrap:wrap; gap:4px 16px; padding:8px 12px;
  border-top:1px solid var(--line); font-size:12.5px; color:#333; }
.legend .li { display:inline-flex; align-items:center; gap:5px; }
.sw { display:inline-block; width:12px; height:12px; border-radius:3px; margin-right:6px;
  vertical-align:-1px; }
table.stats { border-collapse:collapse; background:#fff; border:1px solid var(--line);
  border-radius:8px; margin:14px 14px 0 0; display:inline-table; vertical-align:top; }
table.stats th, table.stats td { padding:5px 12px; text-align:right;
  border-bottom:1px solid var(--line); font-variant-numeric:tabular-nums; }
table.stats th { font-size:12px; color:var(--muted); font-weight:600; background:#fafbfc; }
table.stats th:first-child, table.stats td:first-child { text-align:left; }
table.stats td.bad { color:#d62728; font-weight:700; }
#tip { position:absolute; pointer-events:none; background:rgba(20,24,33,.94); color:#fff;
  font-size:12px; padding:6px 9px; border-radius:6px; white-space:pre; display:none;
  z-index:5; box-shadow:0 2px 8px rgba(0,0,0,.25); font-variant-numeric:tabular-nums; }
#tip b { color:#ffd479; }
#takt-errors:empty { display:none; }
#takt-errors { color:#8a1111; background:#fde8e8; margin:10px 22px; padding:8px 26px; }
"""

JS = r"""
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('takt-data').textContent);
  var svg = document.getElementById('chart');
  var NS = svg.namespaceURI;
  var wrap = document.getElementById('chart-wrap');
  var tip = document.getElementById('tip');
  var rangeEl = document.getElementById('range');
  var LABEL_W = 132, AXIS_H = 26, LANE_H = 34, SERVER_H = 46, RIGHT = 14, BOTTOM = 8, PAD = 10;
  var BOX_FRAC = 0.56, MAX_MARKERS = 4000;
  var lanes = D.lanes, boxes = D.boxes, markers = D.markers;
  var duration = Math.max(D.duration, 1);
  var msPerTick = 1000 / D.tickHz;

  // lane geometry
  var laneY = [], laneH = [], y = AXIS_H;
  lanes.forEach(function (ln, i) {
    laneY.push(y); laneH.push(ln.kind === 'server' ? SERVER_H : LANE_H);
    y += laneH[i];
  });
  var HEIGHT = y + BOTTOM;

  // per-lane indices (timeline is sorted by start; boxes of a lane never overlap)
  var laneBoxes = lanes.map(function () { return []; });
  boxes.forEach(function (b, i) { laneBoxes[b[0]].push(i); });
  laneBoxes.forEach(function (ix) { ix.sort(function (a, b) { return boxes[a][1] - boxes[b][1]; }); });
  var sortedMarkers = markers.map(function (m, i) { return i; })
    .sort(function (a, b) { return markers[a][1] - markers[b][1]; });
  var jobInfo = {};
  D.jobs.forEach(function (j) { jobInfo[j[0] + ':' + j[1]] = j; });
  var serverActive = {};  // server lane -> merged [start,end] intervals when the server ran
  var serverLane = {};
  lanes.forEach(function (ln, i) { if (ln.kind === 'server') serverLane[ln.name] = i; });
  boxes.forEach(function (b) {
    var s = D.servers[b[5]];
    if (!(s in serverLane)) return;
    var li = serverLane[s], arr = serverActive[li] || (serverActive[li] = []);
    var last = arr[arr.length - 1];
    if (last && b[1] <= last[1]) last[1] = Math.max(last[1], b[2]); else arr.push([b[1], b[2]]);
  });

  var v0 = 0, v1 = duration, W = 800;

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function innerW() { return Math.max(W - LABEL_W - RIGHT - 2 * PAD, 10); }
  function x(t) { return LABEL_W + PAD + (t - v0) * innerW() / (v1 - v0); }
  function tAt(px) { return v0 + (px - LABEL_W - PAD) * (v1 - v0) / innerW(); }
  function firstEndingAfter(ix, t) {  // first index in ix whose box ends after t
    var lo = 0, hi = ix.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (boxes[ix[mid]][2] <= t) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function niceStep(raw) {
    var p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    var f = raw / p;
    var s = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
    return Math.max(1, s);
  }
  function fmt(n) { return (Math.round(n * 1000) / 1000).toString(); }

  function draw() {
    W = Math.max(wrap.clientWidth, 400);
    svg.setAttribute('width', W); svg.setAttribute('height', HEIGHT);
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + HEIGHT);
    var old = document.getElementById('plot');
    if (old) old.parentNode.removeChild(old);
    var g = el('g', { id: 'plot' }, svg);
    var plotW = W - LABEL_W - RIGHT;
    var clipRect = document.getElementById('clip-rect');
    clipRect.setAttribute('x', LABEL_W); clipRect.setAttribute('y', AXIS_H);
    clipRect.setAttribute('width', plotW); clipRect.setAttribute('height', HEIGHT - AXIS_H - BOTTOM);

    // lane backgrounds and labels
    lanes.forEach(function (ln, i) {
      var fill = ln.kind === 'server' ? '#eef2f7' : (i % 2 ? '#ffffff' : '#fafbfc');
      el('rect', { x: 0, y: laneY[i], width: W, height: laneH[i], fill: fill, class: 'lane-bg' }, g);
      var t = el('text', { x: ln.server ? 24 : 10, y: laneY[i] + laneH[i] / 2 + 4,
        class: 'lbl-' + ln.kind }, g);
      t.textContent = ln.label;
      if (ln.kind === 'task') el('rect', { x: ln.server ? 12 : 0, y: laneY[i] + 6, width: 4,
        height: laneH[i] - 12, fill: ln.color, rx: 1 }, g);
    });
    el('line', { x1: LABEL_W, y1: AXIS_H, x2: LABEL_W, y2: HEIGHT - BOTTOM, stroke: '#cfd4dc' }, g);

    // axis and grid
    var axis = el('g', { class: 'axis' }, g);
    var step = niceStep((v1 - v0) / Math.max(plotW / 90, 1));
    for (var t = Math.ceil(v0 / step) * step; t <= v1 + 1e-9; t += step) {
      var px = x(t);
      el('line', { x1: px, y1: AXIS_H - 4, x2: px, y2: HEIGHT - BOTTOM, stroke: '#e9ecf1' }, axis);
      var tx = el('text', { x: px, y: AXIS_H - 8, 'text-anchor': 'middle' }, axis);
      tx.textContent = fmt(t);
    }

    var plot = el('g', { 'clip-path': 'url(#clip)' }, g);
    // server activity bands
    Object.keys(serverActive).forEach(function (li) {
      serverActive[li].forEach(function (iv) {
        if (iv[1] <= v0 || iv[0] >= v1) return;
        el('rect', { x: x(iv[0]), y: laneY[li] + 3, width: Math.max(x(iv[1]) - x(iv[0]), 1),
          height: laneH[li] - 6, fill: '#d5deeb', class: 'srv-active' }, plot);
      });
    });

    // execution boxes (merged when narrower than ~2px)
    var drawn = 0, merged = 0;
    lanes.forEach(function (ln, li) {
      var ix = laneBoxes[li], h = laneH[li] * BOX_FRAC, by = laneY[li] + (laneH[li] - h) / 2;
      var agg = null;
      function flush() {
        if (!agg) return;
        var r = el('rect', { x: agg.x0, y: by, width: Math.max(agg.x1 - agg.x0, 1), height: h,
          fill: agg.idle ? D.colors.idle : ln.color, class: 'agg', opacity: 0.85 }, plot);
        r.dataset.agg = agg.n + ':' + agg.t0 + ':' + agg.t1;
        merged += agg.n; agg = null;
      }
      for (var k = firstEndingAfter(ix, v0); k < ix.length; k++) {
        var b = boxes[ix[k]];
        if (b[1] >= v1) break;
        var bx0 = x(b[1]), bx1 = x(b[2]), w = bx1 - bx0;
        if (w < 2) {
          if (agg && bx0 - agg.x1 < 1.5) { agg.x1 = bx1; agg.n++; agg.t1 = b[2]; continue; }
          flush();
          agg = { x0: bx0, x1: bx1, n: 1, t0: b[1], t1: b[2], idle: b[3] === null };
          continue;
        }
        flush();
        var idle = b[3] === null, cls = 'box' + (idle ? ' idle' : '') + (b[4] ? ' miss' : '');
        var fill = idle ? (ln.kind === 'server' ? 'url(#hatch)' : D.colors.idle) : ln.color;
        var r = el('rect', { x: bx0, y: by, width: w, height: h, rx: 2, fill: fill, class: cls,
          stroke: b[4] ? D.colors.miss : (idle ? '#b5b5b5' : 'rgba(0,0,0,.35)'),
          'stroke-width': b[4] ? 2 : 0.8 }, plot);
        r.dataset.i = ix[k];
        drawn++;
        if (!idle && w > 18) {
          var tn = el('text', { x: (bx0 + bx1) / 2, y: by + h / 2 + 3.5, 'text-anchor': 'middle',
            class: 'job-n' }, plot);
          tn.textContent = b[3];
        }
      }
      flush();
    });

    // budgets (server lanes)
    Object.keys(D.budgets).forEach(function (li) {
      var pts = D.budgets[li], full = D.budgetMax[li] || 1, top = laneY[li] + 4,
          hh = laneH[li] - 8;
      var d = pts.map(function (p, n) {
        return (n ? 'L' : 'M') + x(p[0]).toFixed(1) + ' ' + (top + hh * (1 - p[1] / full)).toFixed(1);
      }).join(' ');
      var base = (top + hh).toFixed(1);
      el('path', { d: d + ' L' + x(pts[pts.length - 1][0]).toFixed(1) + ' ' + base + ' L' +
        x(pts[0][0]).toFixed(1) + ' ' + base + ' Z', fill: 'rgba(31,59,115,.16)', stroke: 'none',
        class: 'budget-area' }, plot);
      var path = el('path', { d: d, fill: 'none', stroke: '#1f3b73', 'stroke-width': 1.8,
        class: 'budget' }, plot);
      path.dataset.server = lanes[li].name;
    });
    // replenishments (up, top of the lane) and depletions (down, bottom of the lane)
    (D.budgetMarks || []).forEach(function (bm) {
      var li = bm[0], t = bm[1];
      if (t < v0 || t > v1) return;
      var px = x(t), s = 4, p;
      if (bm[2] === 0) {
        var ty = laneY[li] + 1;
        p = el('path', { d: 'M' + px + ' ' + ty + ' l' + s + ' ' + (2 * s) + ' h' + (-2 * s) + ' Z',
          fill: D.colors.replenish, class: 'bmk replenish' }, plot);
      } else {
        var by = laneY[li] + laneH[li] - 1;
        p = el('path', { d: 'M' + px + ' ' + by + ' l' + s + ' ' + (-2 * s) + ' h' + (-2 * s) + ' Z',
          fill: D.colors.deplete, class: 'bmk deplete' }, plot);
      }
      p.dataset.bm = bm[2] === 0 ? 'replenished' : 'budget depleted';
      p.dataset.bmServer = lanes[li].name;
      p.dataset.bmT = t;
    });

    // markers
    var lo = 0, hi = sortedMarkers.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (markers[sortedMarkers[mid]][1] < v0) lo = mid + 1; else hi = mid; }
    var vis = [];
    for (var k = lo; k < sortedMarkers.length && markers[sortedMarkers[k]][1] <= v1; k++) vis.push(sortedMarkers[k]);
    var onlyMisses = vis.length > MAX_MARKERS;
    vis.forEach(function (mi) {
      var m = markers[mi], li = m[0], px = x(m[1]), kind = m[2];
      if (onlyMisses && kind !== 2) return;
      var top = laneY[li] + 1, bot = laneY[li] + laneH[li] - 1, s = 5;
      var p;
      if (kind === 0) {
        p = el('path', { d: 'M' + px + ' ' + (bot - 2 * s + 2) + ' l' + s + ' ' + (2 * s - 2) +
          ' h' + (-2 * s) + ' Z', fill: '#2b2b2b', class: 'mk release' }, plot);
      } else if (kind === 1) {
        p = el('path', { d: 'M' + (px - s) + ' ' + top + ' h' + 2 * s + ' l' + (-s) + ' ' +
          (2 * s - 2) + ' Z', fill: '#fff', stroke: '#2b2b2b', 'stroke-width': 1.3,
          class: 'mk deadline' }, plot);
      } else {
        el('line', { x1: px, y1: top, x2: px, y2: bot, stroke: D.colors.miss, 'stroke-width': 2,
          class: 'mk-line' }, plot);
        p = el('path', { d: 'M' + (px - s - 1) + ' ' + top + ' h' + (2 * s + 2) + ' l' +
          (-s - 1) + ' ' + (2 * s + 1) + ' Z', fill: D.colors.miss, class: 'mk miss' }, plot);
      }
      p.dataset.m = mi;
    });

    svg.dataset.boxes = drawn;
    svg.dataset.merged = merged;
    rangeEl.textContent = 'ticks ' + fmt(v0) + ' – ' + fmt(v1) + ' of ' + D.duration +
      (merged ? '  (' + merged + ' narrow intervals merged; zoom in for detail)' : '') +
      (onlyMisses ? '  (release/deadline markers hidden at this zoom)' : '');
  }

  function setView(a, b) {
    var span = Math.min(Math.max(b - a, 2), duration);
    if (a < 0) a = 0;
    if (a + span > duration) a = duration - span;
    v0 = a; v1 = a + span;
    hideTip();
    draw();
  }
  function zoom(f, anchor) {
    if (anchor === undefined) anchor = (v0 + v1) / 2;
    setView(anchor - (anchor - v0) * f, anchor + (v1 - anchor) * f);
  }
  function pan(frac) { var s = (v1 - v0) * frac; setView(v0 + s, v1 + s); }

  // tooltips
  function tipText(target) {
    var e = function (s) { return String(s).replace(/[&<>]/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;' }[c]; }); };
    if (target.dataset.i !== undefined) {
      var b = boxes[+target.dataset.i], ln = lanes[b[0]], srv = D.servers[b[5]];
      var lines = [];
      if (b[3] === null) lines.push('<b>' + e(srv && srv !== 'idle' ? 'server ' + srv + ' idle' : 'idle') + '</b>');
      else lines.push('<b>' + e(ln.name) + '</b>  job ' + b[3] + (srv ? '  (server ' + e(srv) + ')' : ''));
      lines.push('start ' + b[1] + '   end ' + b[2] + '   (' + (b[2] - b[1]) + ' ticks, ' +
        fmt((b[2] - b[1]) * msPerTick) + ' ms)');
      var j = b[3] === null ? null : jobInfo[b[0] + ':' + b[3]];
      if (j) {
        lines.push('release ' + j[2] + '   deadline ' + j[3] + '   finish ' +
          (j[4] === null ? '–' : j[4]) + (j[4] === null ? '' : '   response ' + (j[4] - j[2])));
        if (j[5]) lines.push('<b style="color:#ff8a8a">deadline missed</b>');
      }
      return lines.join('\n');
    }
    if (target.dataset.m !== undefined) {
      var m = markers[+target.dataset.m], names = ['release', 'deadline', 'DEADLINE MISS'];
      return '<b>' + e(lanes[m[0]].name) + '</b>  job ' + m[3] + '\n' + names[m[2]] + ' at ' + m[1];
    }
    if (target.dataset.agg !== undefined) {
      var a = target.dataset.agg.split(':');
      return a[0] + ' intervals merged, ticks ' + a[1] + ' – ' + a[2] + '\nzoom in for detail';
    }
    if (target.dataset.server !== undefined) return 'remaining budget of server ' + e(target.dataset.server);
    if (target.dataset.bm !== undefined) {
      return '<b>server ' + e(target.dataset.bmServer) + '</b>\n' + target.dataset.bm + ' at ' +
        target.dataset.bmT;
    }
    return null;
  }
  function hideTip() { tip.style.display = 'none'; }
  svg.addEventListener('mousemove', function (ev) {
    if (dragging) return;
    var text = tipText(ev.target);
    if (!text) { hideTip(); return; }
    tip.innerHTML = text;
    tip.style.display = 'block';
    var r = wrap.getBoundingClientRect();
    var left = ev.clientX - r.left + 14, top = ev.clientY - r.top + 14;
    if (left + tip.offsetWidth > r.width) left = ev.clientX - r.left - tip.offsetWidth - 10;
    tip.style.left = left + 'px'; tip.style.top = top + 'px';
  });
  svg.addEventListener('mouseleave', hideTip);

  // zoom / pan
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var r = svg.getBoundingClientRect(), px = ev.clientX - r.left;
    if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
      pan((ev.deltaX || ev.deltaY) / innerW()); return;
    }
    zoom(Math.exp(ev.deltaY * 0.0015), px > LABEL_W ? tAt(px) : undefined);
  }, { passive: false });
  var dragging = null;
  svg.addEventListener('pointerdown', function (ev) {
    dragging = { x: ev.clientX, v0: v0, v1: v1 };
    svg.classList.add('dragging');
    if (svg.setPointerCapture) svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener('pointermove', function (ev) {
    if (!dragging) return;
    var dt = (ev.clientX - dragging.x) * (dragging.v1 - dragging.v0) / innerW();
    setView(dragging.v0 - dt, dragging.v1 - dt);
  });
  function endDrag() { dragging = null; svg.classList.remove('dragging'); }
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);
  document.getElementById('zoom-in').onclick = function () { zoom(1 / 1.6); };
  document.getElementById('zoom-out').onclick = function () { zoom(1.6); };
  document.getElementById('zoom-fit').onclick = function () { setView(0, duration); };
  document.getElementById('pan-left').onclick = function () { pan(-0.4); };
  document.getElementById('pan-right').onclick = function () { pan(0.4); };
  document.addEventListener('keydown', function (ev) {
    if (ev.key === '+' || ev.key === '=') zoom(1 / 1.6);
    else if (ev.key === '-') zoom(1.6);
    else if (ev.key === '0') setView(0, duration);
    else if (ev.key === 'ArrowLeft') pan(-0.25);
    else if (ev.key === 'ArrowRight') pan(0.25);
  });
  window.addEventListener('resize', draw);

  draw();
  document.documentElement.setAttribute('data-takt-render', 'ok');
})();
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="takt">
<title>%%TITLE%%</title>
<script>
(function () {
  function record(msg) {
    var ul = document.getElementById('takt-errors');
    var root = document.documentElement;
    root.setAttribute('data-takt-errors', String(+(root.getAttribute('data-takt-errors') || 0) + 1));
    if (!ul) { (window.__taktEarlyErrors = window.__taktEarlyErrors || []).push(msg); return; }
    var li = document.createElement('li'); li.textContent = msg; ul.appendChild(li);
  }
  window.addEventListener('error', function (ev) {
    record('error: ' + (ev.message || ev.type) + (ev.lineno ? ' (line ' + ev.lineno + ')' : ''));
  });
  window.addEventListener('unhandledrejection', function (ev) {
    record('unhandled rejection: ' + (ev.reason && ev.reason.message || ev.reason));
  });
  if (window.console && console.error) {
    var origError = console.error;
    console.error = function () {
      record('console.error: ' + Array.prototype.join.call(arguments, ' '));
      return origError.apply(console, arguments);
    };
  }
})();
</script>
<style>%%CSS%%</style>
</head>
<body>
<ul id="takt-errors"></ul>
<header>
<h1>%%TITLE%%</h1>
<div class="meta">%%META%%</div>
</header>
<main>
%%CARDS%%
<div class="panel">
<div class="toolbar">
<button id="zoom-in" type="button" title="zoom in (+)">+ Zoom in</button>
<button id="zoom-out" type="button" title="zoom out (-)">− Zoom out</button>
<button id="zoom-fit" type="button" title="show the whole run (0)">Fit</button>
<button id="pan-left" type="button" title="pan left (←)">◀</button>
<button id="pan-right" type="button" title="pan right (→)">▶</button>
<span class="range" id="range"></span>
<span class="hint">wheel: zoom · drag: pan · hover: details</span>
</div>
<div id="chart-wrap">
<svg id="chart" role="img" aria-label="Gantt chart of the schedule">
<defs>
<clipPath id="clip"><rect id="clip-rect" width="0" height="0"/></clipPath>
<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse"
  patternTransform="rotate(45)"><rect width="6" height="6" fill="#d9d9d9"/>
<line x1="0" y1="0" x2="0" y2="6" stroke="#a9a9a9" stroke-width="2"/></pattern>
</defs>
</svg>
<div id="tip"></div>
</div>
<div class="legend">%%LEGEND%%</div>
</div>
<noscript><p>This chart needs JavaScript to draw.</p></noscript>
%%TABLES%%
</main>
<script type="application/json" id="takt-data">%%DATA%%</script>
<script>
(function () {
  var early = window.__taktEarlyErrors || [], ul = document.getElementById('takt-errors');
  early.forEach(function (m) { var li = document.createElement('li'); li.textContent = m; ul.appendChild(li); });
})();
</script>
<script>%%JS%%</script>
</body>
</html>
"""
