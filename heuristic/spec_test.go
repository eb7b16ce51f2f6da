package heuristic

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Spec
	}{
		{"md", Spec{Name: "md"}},
		{"pdb78-direct", Spec{Name: "pdb78-direct"}},
		{"pdb78+663", Spec{Name: "pdb78+663"}},
		{"gap2:8/4", Spec{Name: "gap2", Args: "8/4"}},
		{" max( md , gap0:8 ) ", Spec{Name: "max", Parts: []Spec{{Name: "md"}, {Name: "gap0", Args: "8"}}}},
		{"max(md,max(wd,lc))", Spec{Name: "max", Parts: []Spec{{Name: "md"}, {Name: "max", Parts: []Spec{{Name: "wd"}, {Name: "lc"}}}}}},
		{"pdb78+fsm", Spec{Name: "pdb78", Search: []string{"fsm"}}},
		{"pdb78-dual+bpmx+fsm", Spec{Name: "pdb78-dual", Search: []string{"bpmx", "fsm"}}},
		{"pdb78+663+fsm", Spec{Name: "pdb78+663", Search: []string{"fsm"}}},
		{"gap2:8/4+fsm", Spec{Name: "gap2", Args: "8/4", Search: []string{"fsm"}}},
		{"max(md,wd)+fsm+bpmx", Spec{Name: "max", Parts: []Spec{{Name: "md"}, {Name: "wd"}}, Search: []string{"fsm", "bpmx"}}},
		{"+fsm", Spec{Name: "+fsm"}},
	} {
		got, err := Parse(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
	}
	assert.Equal(t, "max(md,gap0:8)", Spec{Name: "max", Parts: []Spec{{Name: "md"}, {Name: "gap0", Args: "8"}}}.String())
	assert.Equal(t, "gap0:8+bpmx+fsm", Spec{Name: "gap0", Args: "8", Search: []string{"bpmx", "fsm"}}.String())
}

func TestParseErrors(t *testing.T) {
	for in, msg := range map[string]string{
		"":                         "empty name",
		"max(md,wd":                "closing parenthesis",
		"max(md)":                  "at least two parts",
		"max()":                    "unexpected",
		"md)":                      "unexpected",
		"gap0:":                    "nothing after ':'",
		"md wd":                    "unexpected",
		"max(md;wd)":               "unexpected",
		strings.Repeat("max(", 20): "nested deeper",
		strings.Repeat("x", 2000):  "at most",
		"md+fsm+fsm":               "given twice",
		"max(md+fsm,wd)":           "whole spec",
		"max(md,wd)+lc":            "after max",
	} {
		_, err := Parse(in)
		require.Error(t, err, "%q", in)
		assert.Contains(t, err.Error(), msg, "%q", in)
		assert.Less(t, len(err.Error()), 200, "the error does not echo a long spec whole")
	}
}

// Parsing never panics, and a parsed spec prints to a text that parses to
// the same spec.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"md", "gap2:8/4", "max(md,gap0:8)", "pdb78+663", "max(max(a,b),c:1)", "max(", "gap0:,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(sp.String())
		require.NoError(t, err, "%q -> %q", s, sp.String())
		require.Equal(t, sp, again)
	})
}
