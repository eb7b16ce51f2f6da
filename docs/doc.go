// Package docs holds the documentation pages and the committed results; its
// tests keep them honest: every link and every repository path the README
// names exists, the index lists every page and results folder and every
// results folder has a README, every figure of the README's findings is a
// row of headlines.tsv that agrees with the committed result it names (value
// and date), NOTES.md's contents name each dated entry, the heuristics page
// lists every registered name, the README's exit table states the command's
// contract (cmdline.ExitHelp), and no page, help text or committed result
// names a path of one machine.
package docs
