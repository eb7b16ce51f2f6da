// Package docs holds the documentation pages and the committed results; its
// tests keep them honest: every link and every repository path the README
// names exists, the index lists every page and results folder, the
// heuristics page lists every registered name, the README's exit table
// states the command's contract (cmdline.ExitHelp), and no page, help text
// or committed result names a path of one machine.
package docs
