package heuristic

import "strings"

// SplitList splits a comma-separated list of specs (the --heuristics of
// bench) at the commas outside parentheses, so max(a,b) stays one spec;
// blanks around the specs and empty entries are dropped.
func SplitList(list string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	depth, start := 0, 0
	for i, r := range list {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				add(list[start:i])
				start = i + 1
			}
		}
	}
	add(list[start:])
	return out
}
