/* sklearn-mlcm: the narrow columns of the tables of prose (class
   "wrap-table", the "Coming from scikit-learn" page) hold long names such as
   mlcm_precision_recall_fscore_support(), average="micro_all" and
   MLCMThresholdCurveDisplay, and so do the headings listed in the "On this
   page" column. Let them break where a reader expects it, after "_", ".",
   "=" or "," and between the words of a CamelCase name, by adding <wbr>
   there (an invisible break opportunity: copying the name copies no extra
   character), instead of anywhere inside a word. */
document.addEventListener("DOMContentLoaded", () => {
  for (const code of document.querySelectorAll(
    "table.wrap-table code, .bd-sidebar-secondary .nav-link")) {
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const parts = node.data.split(/(?<=[_.=,])(?=[^)])|(?<=[a-z])(?=[A-Z])/);
      if (parts.length < 2) continue;
      const fragment = document.createDocumentFragment();
      parts.forEach((part, i) => {
        if (i > 0) fragment.append(document.createElement("wbr"));
        fragment.append(part);
      });
      node.replaceWith(fragment);
    }
  }
});
