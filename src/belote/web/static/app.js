// On every page: a form that asks first (data-confirm, in the page's language).
(() => {
  "use strict";
  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });
})();
