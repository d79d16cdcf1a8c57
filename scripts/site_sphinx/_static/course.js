// The language switch keeps the section the reader is in: the twin page in the other language
// has the same section ids (conf.py), so the link gets the current section's id as its anchor.
"use strict";
(function () {
  function currentSection() {
    const hash = decodeURIComponent(window.location.hash.slice(1));
    const target = hash && document.getElementById(hash);
    const section = target && target.closest("section[id]");
    if (section) { return section.id; }
    const sections = document.querySelectorAll("article section[id]");
    let current = null;
    for (const candidate of sections) {
      if (candidate.getBoundingClientRect().top <= 80) { current = candidate; }
    }
    return current && current !== sections[0] ? current.id : null;
  }
  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest("a.language-switch-link");
    if (!link) { return; }
    const id = currentSection();
    const url = link.getAttribute("href").split("#")[0];
    link.setAttribute("href", id ? url + "#" + encodeURIComponent(id) : url);
  });
})();
