// kg serve: a click on a node of an embedded neighbourhood graph opens that node's page in the
// page that embeds the graph (a paper, a cited work or a concept). Ids travel percent-encoded.
(function () {
  "use strict";
  var network = window.kgNetwork;
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var groupOf = {};
  data.nodes.forEach(function (n) { groupOf[n.id] = n.summary ? null : n.group; });
  function pageOf(id) {
    var group = groupOf[id];
    if (!group) { return null; }
    var path = group === "Paper" ? "/paper" : group === "Reference" ? "/work" : "/concept";
    return path + "?id=" + encodeURIComponent(id);
  }
  window.kgPageOf = pageOf;
  network.on("click", function (event) {
    var target = event.nodes.length ? pageOf(event.nodes[0]) : null;
    if (target) { window.top.location.assign(target); }
  });
  network.on("hoverNode", function () { document.getElementById("graph").style.cursor = "pointer"; });
  network.on("blurNode", function () { document.getElementById("graph").style.cursor = "default"; });
})();
