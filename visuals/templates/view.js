// The view's behaviour: draw the graph, its labels, search and type filter. All data comes from the
// JSON block and is only ever used as text (labels are drawn on the canvas, tooltips are strings).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var LABEL_PX = 13;        // labels keep this size on screen at any zoom
  var MAX_LABELS = 60;      // at most this many at once: the most important nodes that fit
  var byId = {};
  data.nodes.forEach(function (n) { byId[n.id] = n; });
  // vis-network draws no labels of its own: the page draws those that fit without overlapping
  var nodes = new vis.DataSet(data.nodes.map(function (n) {
    var copy = Object.assign({}, n);
    delete copy.label;
    delete copy.focus;
    delete copy.summary;
    return copy;
  }));
  var edges = new vis.DataSet(data.edges);
  var container = document.getElementById("graph");
  var network = new vis.Network(container, {nodes: nodes, edges: edges}, data.options);
  var status = document.getElementById("status");
  var physics = data.options.physics && data.options.physics.enabled;
  var focus = data.nodes.filter(function (n) { return n.focus; }).map(function (n) { return n.id; })[0];
  window.kgNetwork = network;

  // Most important first: the focus, then by size (the page's importance measure), then by id.
  var priority = data.nodes.filter(function (n) { return n.label; }).sort(function (a, b) {
    return (b.focus ? 2 : b.summary ? 1 : 0) - (a.focus ? 2 : a.summary ? 1 : 0) || b.size - a.size ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  var hiddenTypes = {};
  var hovered = null;
  var shown = [];           // [{id, text, x, y, w, h}] in DOM pixels, read by the tests
  var measure = document.createElement("canvas").getContext("2d");

  function font(px, bold) { return (bold ? "bold " : "") + px + "px system-ui, -apple-system, 'Segoe UI', sans-serif"; }

  function labelBox(n, where, scale, bold) {
    measure.font = font(LABEL_PX, bold);
    var w = measure.measureText(n.label).width + 4, h = LABEL_PX + 4;
    var p = network.canvasToDOM(where);
    var below = n.size * scale + 3;   // vis-network's shapes are n.size canvas units in radius
    return {id: n.id, text: n.label, x: p.x - w / 2, y: p.y + below, w: w, h: h, bold: bold};
  }

  function overlaps(a, b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  }

  // Greedy: walk the nodes by importance, keep each label that is on screen and overlaps none kept.
  function chooseLabels() {
    var scale = network.getScale();
    var where = network.getPositions();
    var width = container.clientWidth, height = container.clientHeight;
    var selected = {};
    network.getSelectedNodes().forEach(function (id) { selected[id] = true; });
    var kept = [];
    for (var i = 0; i < priority.length && kept.length < MAX_LABELS; i += 1) {
      var n = priority[i];
      if (hiddenTypes[n.group] || !where[n.id]) { continue; }
      var box = labelBox(n, where[n.id], scale, n.focus || selected[n.id]);
      if (box.x + box.w < 0 || box.x > width || box.y + box.h < 0 || box.y > height) { continue; }
      if (kept.some(function (k) { return overlaps(k, box); })) { continue; }
      kept.push(box);
    }
    shown = kept;
    window.kgLabels = kept;
  }

  function drawLabel(ctx, box, scale) {
    var p = network.DOMtoCanvas({x: box.x + box.w / 2, y: box.y + 2});
    ctx.font = font(LABEL_PX / scale, box.bold);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    ctx.lineWidth = 4 / scale;
    ctx.strokeStyle = "rgba(255, 255, 255, 0.9)";
    ctx.strokeText(box.text, p.x, p.y);
    ctx.fillStyle = "#1f1f1f";
    ctx.fillText(box.text, p.x, p.y);
  }

  network.on("afterDrawing", function (ctx) {
    var scale = network.getScale();
    if (focus && !hiddenTypes[byId[focus].group]) {   // a ring marks the focus of a paper or concept view
      var c = network.getPositions([focus])[focus];
      ctx.beginPath();
      ctx.arc(c.x, c.y, byId[focus].size + 7 / scale, 0, 2 * Math.PI);
      ctx.lineWidth = 3 / scale;
      ctx.strokeStyle = "#d62728";
      ctx.stroke();
    }
    shown.forEach(function (box) { drawLabel(ctx, box, scale); });
    window.kgHoverLabel = null;
    if (hovered && !shown.some(function (b) { return b.id === hovered; })) {   // hover shows any label
      var h = byId[hovered];
      if (h && h.label) {
        window.kgHoverLabel = labelBox(h, network.getPositions([hovered])[hovered], scale, true);
        drawLabel(ctx, window.kgHoverLabel, scale);
      }
    }
  });

  var relabelTimer = null;
  function relabel() {
    clearTimeout(relabelTimer);
    relabelTimer = setTimeout(function () { chooseLabels(); network.redraw(); }, 60);
  }
  network.on("zoom", relabel);
  network.on("dragEnd", relabel);
  network.on("resize", relabel);
  network.on("hoverNode", function (e) { hovered = e.node; network.redraw(); });
  network.on("blurNode", function () { hovered = null; network.redraw(); });

  // The focus goes to the middle of the screen, at the largest zoom that still shows every node.
  function centre() {
    if (!focus) { return; }
    var where = network.getPositions();
    var c = where[focus], dx = 1, dy = 1;
    Object.keys(where).forEach(function (id) {
      dx = Math.max(dx, Math.abs(where[id].x - c.x) + byId[id].size);
      dy = Math.max(dy, Math.abs(where[id].y - c.y) + byId[id].size);
    });
    var scale = Math.min(container.clientWidth / (2 * dx + 40), container.clientHeight / (2 * dy + 60));
    network.moveTo({position: c, scale: scale, animation: false});
  }

  function markDrawn() {
    centre();
    chooseLabels();
    network.once("afterDrawing", function () { document.body.setAttribute("data-drawn", "true"); });
    network.redraw();
  }
  if (physics) {
    // Small views settle with a bounded number of physics steps, then stay still.
    network.once("stabilizationIterationsDone", function () {
      network.setOptions({physics: {enabled: false}});
      network.fit({animation: false});
      markDrawn();
    });
  } else {
    markDrawn();
  }

  function haystack(n) { return (String(n.label || "") + "\n" + String(n.title || "")).toLowerCase(); }
  var texts = data.nodes.map(haystack);

  function matches() {
    var text = document.getElementById("search").value.trim().toLowerCase();
    if (!text) { return null; }
    var ids = [];
    for (var i = 0; i < data.nodes.length; i += 1) {
      if (!hiddenTypes[data.nodes[i].group] && texts[i].indexOf(text) >= 0) { ids.push(data.nodes[i].id); }
    }
    return ids;
  }

  function report(found) {
    var count = data.nodes.length;
    Object.keys(hiddenTypes).forEach(function (t) { if (hiddenTypes[t]) { count -= data.counts[t] || 0; } });
    var text = count + " of " + data.nodes.length + " nodes shown";
    if (found) { text += "; " + found.length + " match" + (found.length === 1 ? "" : "es"); }
    status.textContent = text;
  }

  function search(zoom) {
    var found = matches();
    network.selectNodes(found || []);
    if (zoom && found && found.length) { network.fit({nodes: found.slice(0, 200), animation: false}); }
    report(found);
    relabel();
  }

  var timer = null;
  var box = document.getElementById("search");
  box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { search(false); }, 150); });
  box.addEventListener("keydown", function (e) { if (e.key === "Enter") { search(true); } });

  Array.prototype.forEach.call(document.querySelectorAll(".type-filter"), function (box) {
    box.addEventListener("change", function () {
      hiddenTypes[box.value] = !box.checked;
      nodes.update(data.nodes.filter(function (n) { return n.group === box.value; })
        .map(function (n) { return {id: n.id, hidden: !box.checked}; }));
      search(false);
    });
  });
  report(null);
})();
