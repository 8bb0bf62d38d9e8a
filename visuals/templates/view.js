// The view's behaviour: draw the graph, then search and type filter. All data comes from the
// JSON block and is only ever used as text (labels are drawn on the canvas, tooltips are strings).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var container = document.getElementById("graph");
  var network = new vis.Network(container, {nodes: nodes, edges: edges}, data.options);
  var status = document.getElementById("status");
  var physics = data.options.physics && data.options.physics.enabled;
  window.kgNetwork = network;

  function markDrawn() {
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

  var hiddenTypes = {};
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
    var shown = data.nodes.length;
    Object.keys(hiddenTypes).forEach(function (t) { if (hiddenTypes[t]) { shown -= data.counts[t] || 0; } });
    var text = shown + " of " + data.nodes.length + " nodes shown";
    if (found) { text += "; " + found.length + " match" + (found.length === 1 ? "" : "es"); }
    status.textContent = text;
  }

  function search(zoom) {
    var found = matches();
    network.selectNodes(found || []);
    if (zoom && found && found.length) { network.fit({nodes: found.slice(0, 200), animation: false}); }
    report(found);
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
