package main

import (
	"embed"
	"fmt"
	"strings"
)

// helpFiles hold the long descriptions of the commands, a text file per
// command path (help/pdb-build.txt), written as --help prints them;
// help/spec.txt is the heuristic grammar of solve and bench. help_test.go
// checks that every command prints its file whole.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help is the description of a command without its final newline; the
// file's fmt verbs take args (lists that packages own, such as the order
// names).
func help(name string, args ...any) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err) // a file missing from help/: every test of the command finds it
	}
	s := strings.TrimSuffix(string(b), "\n")
	if len(args) > 0 {
		s = fmt.Sprintf(s, args...)
	}
	return s
}
