// On every page: a form that asks first (data-confirm, in the page's language), and
// the service worker that keeps the static files for a table without network.
(() => {
  "use strict";
  // The page's language for the other scripts (sheet.js, table.js): the texts of the
  // catalogue the page embeds (locale/*/LC_MESSAGES/js.po); English where one has none.
  const I18N = (() => {
    try {
      return JSON.parse(document.getElementById("i18n").textContent || "{}");
    } catch (e) {
      return {};
    }
  })();
  window.belote = {
    _: (text) => I18N[text] || text,
    fmt: (text, vars) => text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? vars[k] : m)),
  };
  // A target field suggests the targets of the profile chosen in its form (§11.1).
  document.addEventListener("change", (event) => {
    const select = event.target.closest("select[name=profile]");
    const input = select && select.form && select.form.querySelector("input[name=target][data-targets]");
    if (input && document.getElementById("targets-" + select.value)) {
      input.setAttribute("list", "targets-" + select.value);
    }
  });
  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });
  if ("serviceWorker" in navigator && (location.protocol === "https:" || location.hostname === "localhost" || location.hostname === "127.0.0.1")) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
    });
  }
})();
