// Plumb's only script: copy buttons, confirmations, and the API reference
// filter. Every page works without it.
document.addEventListener("click", function (e) {
  var b = e.target.closest("button.copy");
  if (b) {
    var el = document.getElementById(b.dataset.copy);
    if (el && navigator.clipboard) {
      navigator.clipboard.writeText(el.textContent.trim()).then(function () { b.textContent = "Copied"; });
    }
    return;
  }
  var c = e.target.closest("[data-confirm]");
  if (c && !window.confirm(c.dataset.confirm)) { e.preventDefault(); }
});
document.addEventListener("DOMContentLoaded", function () {
  var f = document.getElementById("api-filter");
  if (!f) { return; }
  f.addEventListener("input", function () {
    var q = f.value.trim().toLowerCase();
    document.querySelectorAll(".op").forEach(function (op) {
      op.hidden = q !== "" && op.dataset.search.indexOf(q) < 0;
    });
    document.querySelectorAll(".api-group").forEach(function (g) {
      g.hidden = q !== "" && g.querySelectorAll(".op:not([hidden])").length === 0;
    });
  });
});
