package docs

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exitStatuses reads the contract as --help states it: each status and the
// parts of its meaning ("3 a limit reached (nodes, depth, ...)": "nodes",
// "depth", ...; a status without a list: its words).
func exitStatuses(help string) map[int][]string {
	help = strings.Join(strings.Fields(strings.TrimPrefix(help, "Exit status:")), " ")
	entry := regexp.MustCompile(`(?:^|, )(\d+) ([^,(]+(?:\([^)]*\))?)`)
	out := map[int][]string{}
	for _, m := range entry.FindAllStringSubmatch(help, -1) {
		code, _ := strconv.Atoi(m[1])
		text := strings.TrimSuffix(strings.TrimSpace(m[2]), ".")
		var parts []string
		if _, list, ok := strings.Cut(text, "("); ok {
			for _, p := range strings.Split(strings.TrimSuffix(list, ")"), ",") {
				p = strings.TrimSpace(p)
				p, _, _ = strings.Cut(p, ":") // "files: one line naming it"
				parts = append(parts, strings.TrimPrefix(p, "a "))
			}
		} else {
			parts = []string{text}
		}
		out[code] = parts
	}
	return out
}

// readmeExits reads the README's exit-status table: status -> meaning.
func readmeExits(t *testing.T) map[int]string {
	row := regexp.MustCompile(`(?m)^\s*\|\s*(\d+)\s*\|\s*(.*?)\s*\|\s*$`)
	text := read(t, "README.md")
	start := strings.Index(text, "**Exit status**")
	require.GreaterOrEqual(t, start, 0, "the README states the exit statuses")
	out := map[int]string{}
	for _, m := range row.FindAllStringSubmatch(text[start:min(len(text), start+2000)], -1) {
		code, _ := strconv.Atoi(m[1])
		out[code] = m[2]
	}
	return out
}

// The README's exit table has a row for every status of cmdline.ExitHelp
// and no other, and each row names every part of the status's meaning (the
// limits of status 3, ...), so a status or limit added to the contract
// fails here until the README says it.
func TestReadmeExitTableIsTheContract(t *testing.T) {
	want := exitStatuses(cmdline.ExitHelp)
	require.Len(t, want, 5, "statuses read from ExitHelp: %v", want)
	require.GreaterOrEqual(t, len(want[3]), 5, "the limits of status 3: %v", want[3])
	got := readmeExits(t)
	codes := func(m map[int]string) []int {
		var c []int
		for k := range m {
			c = append(c, k)
		}
		return c
	}
	var wantCodes []int
	for c := range want {
		wantCodes = append(wantCodes, c)
	}
	assert.ElementsMatch(t, wantCodes, codes(got), "the README's statuses against ExitHelp")
	for c, parts := range want {
		for _, p := range parts {
			assert.Contains(t, strings.ToLower(got[c]), strings.ToLower(p), "the README's row for status %d does not name %q (ExitHelp does)", c, p)
		}
	}
}

// The parser finds a missing limit: a table without the BDD level's size
// fails.
func TestExitStatusesReadTheLimits(t *testing.T) {
	s := exitStatuses("Exit status: 0 done, 2 bad input (flags, files: one line),\n3 a limit reached (nodes, a BDD level's size), 1 anything else, 130 interrupted.")
	assert.Equal(t, map[int][]string{0: {"done"}, 2: {"flags", "files"}, 3: {"nodes", "BDD level's size"}, 1: {"anything else"}, 130: {"interrupted"}}, s)
}
