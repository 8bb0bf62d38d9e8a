// kg serve: the parts of a page that load after it (a paper's similar papers). The server sends
// them as escaped HTML; the page's policy runs no script or handler inside them.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("[data-fragment]"), function (box) {
    fetch(box.getAttribute("data-fragment"), {credentials: "same-origin"})
      .then(function (answer) {
        if (!answer.ok) { throw new Error("the server answered " + answer.status); }
        return answer.text();
      })
      .then(function (html) {
        var parsed = new DOMParser().parseFromString(html, "text/html");
        box.replaceChildren.apply(box, Array.prototype.slice.call(parsed.body.childNodes));
        box.setAttribute("data-loaded", "true");
      })
      .catch(function (err) {
        box.textContent = "Could not load this part: " + err.message;
        box.setAttribute("data-loaded", "error");
      });
  });
})();
