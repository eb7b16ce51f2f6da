package heuristic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pdb44Dir builds the 4-4 databases of the 3x3 board into a directory.
func pdb44Dir(t *testing.T) string {
	dir := t.TempDir()
	part, err := pdb.ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	for _, g := range part.Groups {
		table, step, err := pdb.Build(context.Background(), 3, 3, g, 1, nil)
		require.NoError(t, err)
		require.NoError(t, pdb.Write(filepath.Join(dir, pdb.FileName(3, 3, g)), 3, 3, g, table, step))
	}
	return dir
}

// Every spec built here finds the BFS optimum of random 3x3 boards.
func TestResolveSolvesOptimally(t *testing.T) {
	truth := encode.Distances(3, 3)
	r := New(Options{Rows: 3, Cols: 3, Cells: []int{9, 5}, PDBDir: pdb44Dir(t)})
	specs := []string{"md", "lc", "wd", "gap0:9", "gap0:9/5", "gap0:5", "pdb44", "max(pdb44,gap0:9)", "max(md,max(wd,gap0:5))",
		"md+fsm", "gap0:9/5+fsm", "pdb44+bpmx+fsm", "max(pdb44,gap0:9)+fsm"}
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 15; i++ {
		b := encode.Random(rng, 3, 3)
		for _, s := range specs {
			h, err := r.Resolve(s)
			require.NoError(t, err, s)
			res, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err, s)
			assert.Equal(t, truth[b.Key()], res.Length, "%s on %s", s, b)
		}
	}
	h, err := r.Resolve("max(pdb44,gap0:9)")
	require.NoError(t, err)
	assert.Equal(t, "max(pdb44,gap0:9)", h.Name())
	h, err = r.Resolve("gap0:9/5")
	require.NoError(t, err)
	assert.Equal(t, "gap0(Gap0[Gap0_5])", h.Name())
	assert.Len(t, r.SetNotes(), 4, "header, rule and the two sets")
}

// A spec's search options make a variant of its own name that searches
// with them: fewer nodes with the duplicate-move automaton, same lengths.
func TestResolveSearchOptions(t *testing.T) {
	r := New(Options{Rows: 3, Cols: 3, PDBDir: pdb44Dir(t)})
	plain, err := r.Resolve("pdb44")
	require.NoError(t, err)
	for spec, want := range map[string]ida.Variant{
		"pdb44+fsm":      {Heuristic: plain, FSM: ida.DefaultFSM(), Label: "pdb44+fsm"},
		"pdb44+bpmx":     {Heuristic: plain, BPMX: true, Label: "pdb44+bpmx"},
		"pdb44+bpmx+fsm": {Heuristic: plain, FSM: ida.DefaultFSM(), BPMX: true, Label: "pdb44+bpmx+fsm"},
	} {
		h, err := r.Resolve(spec)
		require.NoError(t, err, spec)
		assert.Equal(t, want, h, spec)
		assert.Equal(t, spec, h.Name())
	}
	for _, spec := range []string{"md", "pdb44"} {
		plain, err := r.Resolve(spec)
		require.NoError(t, err)
		h, err := r.Resolve(spec + "+fsm")
		require.NoError(t, err)
		var without, with int64
		rng := rand.New(rand.NewPCG(3, 9))
		for i := 0; i < 30; i++ {
			b := encode.Random(rng, 3, 3)
			p, err := ida.Solve(b, plain, ida.Options{})
			require.NoError(t, err)
			f, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err)
			assert.Equal(t, p.Length, f.Length)
			assert.Equal(t, spec+"+fsm", f.Heuristic)
			without += p.Expanded
			with += f.Expanded
		}
		t.Logf("%s: %d nodes, %d with +fsm", spec, without, with)
		assert.Less(t, with, without, spec)
		if spec == "md" {
			assert.Less(t, with, without*9/10, "md+fsm prunes more than a tenth")
		}
	}
	_, err = r.Resolve("max(pdb44+fsm,md)")
	assert.ErrorContains(t, err, "whole spec")
}

func TestResolveUses(t *testing.T) {
	r := New(Options{Rows: 3, Cols: 3, Cells: []int{9}})
	_, err := r.Resolve("md")
	require.NoError(t, err)
	for _, o := range []string{OptKeys, OptBDD, OptCells, OptDense, OptNoSkip, OptPDB} {
		assert.False(t, r.Uses(o), o)
	}
	_, err = r.Resolve("gap0")
	require.NoError(t, err)
	assert.True(t, r.Uses(OptCells))
	assert.False(t, r.Uses(OptPDB))
}

func TestResolveErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for spec, c := range map[string]struct {
		opt Options
		msg string
	}{
		"nope":       {Options{Rows: 3, Cols: 3}, "unknown heuristic"},
		"md:3":       {Options{Rows: 3, Cols: 3}, "takes no arguments"},
		"gap0:x":     {Options{Rows: 3, Cols: 3, Cells: []int{9}}, "bad heuristic gap0"},
		"gap0:99":    {Options{Rows: 3, Cols: 3, Cells: []int{9}}, "bad heuristic gap0"},
		"gap0":       {Options{Rows: 3, Cols: 3}, "no Gap0 set given"},
		"gap0:9/9":   {Options{Rows: 3, Cols: 3, Cells: []int{9}}, "fewer cells"},
		"pdb44":      {Options{Rows: 3, Cols: 3, PDBDir: file}, "not a directory"},
		"pdb78":      {Options{Rows: 3, Cols: 3}, "for 4x4 boards"},
		"max(md,xx)": {Options{Rows: 3, Cols: 3}, "unknown heuristic \"xx\""},
	} {
		_, err := New(c.opt).Resolve(spec)
		require.Error(t, err, spec)
		assert.Contains(t, err.Error(), c.msg, spec)
	}
	assert.Error(t, CheckDense([]int{99}))
	assert.Error(t, CheckDense([]int{-1}))
	assert.NoError(t, CheckDense([]int{0, 4}))
}

func ExampleResolver_Resolve() {
	r := New(Options{Rows: 3, Cols: 3, Cells: []int{9}})
	h, err := r.Resolve("max(md,gap0)")
	if err != nil {
		panic(err)
	}
	b, _ := encode.Parse("8 6 7 2 5 4 3 0 1", 3, 3)
	res, _ := ida.Solve(b, h, ida.Options{})
	fmt.Println(h.Name(), res.Length)
	// Output: max(md,gap0) 31
}

// gapG:K takes a level that has no set on K cells from the set of that gap
// on the most cells below K: exact levels on the whole board, gap 4 on 6
// cells; still the BFS optimum.
func TestGapLevelsOnFewerCells(t *testing.T) {
	sets, err := gapset.LevelSets(context.Background(), 3, 3, 4, []int{9, 6, 5}, nil)
	require.NoError(t, err)
	dir := t.TempDir()
	var keys []string
	for _, f := range []struct{ k, level int }{{9, 0}, {9, 1}, {6, 2}, {5, 2}} {
		h := keyset.Header{Rows: 3, Cols: 3, Cells: f.k, Gap: 2 * f.level}
		p := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, keyset.WriteFile(p, h, sets[f.k][f.level]))
		keys = append(keys, p)
	}
	r := New(Options{Rows: 3, Cols: 3, Keys: keys, Dense: DefaultDense()})
	h, err := r.Resolve("gap4:9")
	require.NoError(t, err)
	assert.Equal(t, "gap4(Gap0+Gap2+Gap4_6)", h.Name(), "the largest set below 9 cells")
	truth := encode.Distances(3, 3)
	rng := rand.New(rand.NewPCG(3, 9))
	for i := 0; i < 30; i++ {
		b := encode.Random(rng, 3, 3)
		res, err := ida.Solve(b, h, ida.Options{})
		require.NoError(t, err)
		assert.Equal(t, truth[b.Key()], res.Length, "%s", b)
	}
	_, err = r.Resolve("gap4:5")
	assert.ErrorContains(t, err, "no Gap0 set on 5 cells or fewer")
}
