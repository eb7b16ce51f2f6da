package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReorderArgs(t *testing.T) {
	app := newApp(&env{})
	for _, c := range []struct{ in, want string }{
		{"gapset zdd F.bdd -n", "gapset zdd -n F.bdd"},
		{"gapset count F --format json", "gapset count --format json F"},
		{"gapset report F --verify G", "gapset report --verify F G"},
		{"gapset solve 1 2 3 -H md --rows 3", "gapset solve -H md --rows 3 1 2 3"},
		{"gapset solve -i - --format=json", "gapset solve -i - --format=json"},
		{"gapset --cpuprofile p solve B -q", "gapset --cpuprofile p solve -q B"},
		{"gapset pdb build --out d -p 4-4", "gapset pdb build --out d -p 4-4"},
		{"gapset pdb build x --out d", "gapset pdb build --out d x"},
		{"gapset solve B -- -H md", "gapset solve -- B -H md"},
		{"gapset solve -- B", "gapset solve -- B"},
		{"gapset solve B -q --", "gapset solve -q -- B"},
		{"gapset slide ida B --max-depth 3", "gapset slide ida --max-depth 3 B"},
		{"gapset solve B --format", "gapset solve --format B"},
	} {
		got, _, unknown := cmdline.Reorder(app, strings.Fields(c.in))
		assert.Empty(t, unknown, c.in)
		assert.Equal(t, c.want, strings.Join(got, " "), c.in)
	}
	_, path, unknown := cmdline.Reorder(app, []string{"gapset", "-q", "bogus", "x"})
	assert.Equal(t, "bogus", unknown)
	assert.Empty(t, path)
	_, path, _ = cmdline.Reorder(app, []string{"gapset", "pdb", "build"})
	assert.Equal(t, []string{"pdb", "build"}, path)
}

// Reordering never loses, adds (beyond one "--") or changes an argument,
// and keeps the order of the flags among themselves and of the positionals.
func FuzzReorderArgs(f *testing.F) {
	f.Add("solve\x001 2 3\x00-H\x00md\x00--\x00-x")
	f.Add("pdb\x00build\x00--out\x00d\x00x")
	f.Add("zdd\x00F\x00-n\x00--format=json\x00-")
	f.Add("-q\x00bogus\x00--")
	app := newApp(&env{})
	f.Fuzz(func(t *testing.T, joined string) {
		args := append([]string{"gapset"}, strings.Split(joined, "\x00")...)
		got, _, _ := cmdline.Reorder(app, args)
		require.Equal(t, "gapset", got[0])
		extra := len(got) - len(args)
		require.True(t, extra == 0 || extra == 1 || extra == -1, "%q -> %q", args, got)
		a, b := slices.Clone(args), slices.Clone(got)
		a = slices.DeleteFunc(a, func(s string) bool { return s == "--" })
		b = slices.DeleteFunc(b, func(s string) bool { return s == "--" })
		slices.Sort(a)
		slices.Sort(b)
		require.Equal(t, a, b, "%q -> %q", args, got)
	})
}
