package heuristic

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitList(t *testing.T) {
	for list, want := range map[string][]string{
		"md":                            {"md"},
		"md,gap0, gap2:8/4 ":            {"md", "gap0", "gap2:8/4"},
		"max(pdb78,gap0),md":            {"max(pdb78,gap0)", "md"},
		"max(a,max(b,c)) , ,d":          {"max(a,max(b,c))", "d"},
		"":                              nil,
		" , ":                           nil,
		"pdb78+gap2r,max(md, lc),gap8r": {"pdb78+gap2r", "max(md, lc)", "gap8r"},
	} {
		assert.Equal(t, want, SplitList(list), list)
	}
}

// NameLines holds every name once, in order, in lines no wider than asked
// (one name wider than that alone on its line), each after the indent.
func TestNameLines(t *testing.T) {
	for _, width := range []int{1, 20, 100} {
		s := NameLines("  ", width)
		var got []string
		for _, line := range strings.Split(s, "\n") {
			require.True(t, strings.HasPrefix(line, "  "), "%q", line)
			fields := strings.Fields(line)
			assert.True(t, len(line) <= width || len(fields) == 1, "width %d: %q", width, line)
			for _, f := range fields {
				got = append(got, strings.TrimSuffix(f, ","))
			}
		}
		assert.Equal(t, Names(), got, "width %d", width)
	}
}
