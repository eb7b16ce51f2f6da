package heuristic

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
