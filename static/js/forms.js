// Forms that know the user: a level list shows only the levels of the company picked.
// Options carry data-company (accounts.widgets.LevelSelect); the server checks it again.
(function () {
  "use strict";
  function filterLevels(form) {
    if (!form) return;
    var company = form.querySelector('select[name="company"]');
    if (!company) return;
    var chosen = company.value;
    form.querySelectorAll('select[data-levels-of="company"]').forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (option) {
        var owner = option.getAttribute("data-company");
        if (!owner) return; // the empty choice
        var show = !chosen || owner === chosen;
        option.hidden = !show;
        option.disabled = !show;
        if (!show && option.selected) select.value = "";
      });
    });
  }
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target instanceof HTMLSelectElement && target.name === "company") filterLevels(target.form);
  });
  function all() {
    document.querySelectorAll("form").forEach(filterLevels);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all);
  else all();
  document.addEventListener("htmx:afterSwap", all);
})();
