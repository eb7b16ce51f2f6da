// Package report describes BDD files beside Table 1 of Hasegawa & Yamamoto:
// one row per file (set, order, size, nodes, patterns, build time and the
// paper's values for the same set), written as Markdown, CSV or JSON.
package report
