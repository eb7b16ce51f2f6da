package ida_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/memset"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// world3x3 is every 3x3 board's BFS distance, the true gap sets (gap <= 2i)
// made from it, and the 4-4 databases.
type world3x3 struct {
	dist map[uint64]int
	gaps [2][]uint64
	db   *pdb.Heuristic
}

var worldOnce = sync.OnceValues(func() (*world3x3, error) {
	w := &world3x3{dist: encode.Distances(3, 3)}
	for key, d := range w.dist {
		b, _ := encode.FromKey(key, 3, 3)
		for i := range w.gaps {
			if d <= b.Manhattan()+2*i {
				w.gaps[i] = append(w.gaps[i], key)
			}
		}
	}
	part, err := pdb.ParsePartition("4-4", 3, 3)
	if err != nil {
		return nil, err
	}
	set, err := pdb.BuildSet(context.Background(), part, 2, nil)
	if err != nil {
		return nil, err
	}
	w.db = &pdb.Heuristic{DBs: set, Transpose: true}
	return w, nil
})

func world(t testing.TB) *world3x3 {
	t.Helper()
	w, err := worldOnce()
	require.NoError(t, err)
	return w
}

// gap is h_G:2(n-1) on the true sets projected onto the last k cells.
func (w *world3x3) gap(n, k int) ida.Gap {
	var g ida.Gap
	for i := 0; i < n; i++ {
		g.Levels = append(g.Levels, memset.New(w.gaps[i], k))
	}
	return g
}

type combo struct {
	levels, cells       int
	transpose, gapFirst bool
}

func (c combo) String() string {
	return fmt.Sprintf("levels %d cells %d transpose %v gap-first %v", c.levels, c.cells, c.transpose, c.gapFirst)
}

func (w *world3x3) combined(c combo, noSkip bool) ida.Combined {
	return ida.Combined{Base: w.db, Gap: w.gap(c.levels, c.cells), Transpose: c.transpose, GapFirst: c.gapFirst, NoSkip: noSkip}
}

func combos() []combo {
	var out []combo
	for _, n := range []int{1, 2} {
		for _, k := range []int{9, 4} {
			for _, m := range []bool{false, true} {
				for _, f := range []bool{false, true} {
					out = append(out, combo{n, k, m, f})
				}
			}
		}
	}
	return out
}

func position(b encode.Board) ida.Position {
	p := ida.Position{Rows: b.Rows, Cols: b.Cols, Blank: b.Blank(), MD: b.Manhattan()}
	copy(p.Tiles[:], b.Tiles)
	return p
}

// On every 3x3 board the combined bound is at most the BFS distance and
// equals the larger of the database's bound and h_G:2N's of the board (and,
// with the transpose query, of its transpose, whose optimum is the same);
// the transpose query raises the bound on some boards when the sets are
// projected. (The order of the questions does not change a full bound.)
func TestCombinedBoundOnEvery3x3Board(t *testing.T) {
	w := world(t)
	type subject struct {
		c       combo
		ev, gev ida.Evaluator
		raised  int
	}
	var subs []*subject
	for _, c := range combos() {
		if c.gapFirst {
			continue
		}
		ev, err := w.combined(c, false).NewEvaluator(3, 3)
		require.NoError(t, err)
		gev, err := w.gap(c.levels, c.cells).NewEvaluator(3, 3)
		require.NoError(t, err)
		subs = append(subs, &subject{c: c, ev: ev, gev: gev})
	}
	dbt, err := w.db.NewTracker(3, 3)
	require.NoError(t, err)
	tr, err := encode.NewSquareTransposition(3, 3) // tested in encode
	require.NoError(t, err)
	for key, d := range w.dist {
		b, _ := encode.FromKey(key, 3, 3)
		p := position(b)
		m, err := encode.FromKey(tr.Key(key), 3, 3)
		require.NoError(t, err)
		mp := position(m)
		require.Equal(t, d, w.dist[m.Key()], "the transpose of %s has the same optimum", b)
		dbt.Reset(&p)
		db := dbt.Bound(&p, 1<<30)
		for _, s := range subs {
			h := s.ev.Root(&p)
			g := s.gev.Root(&p)
			gm := g
			if s.c.transpose {
				gm = max(g, s.gev.Root(&mp))
			}
			require.LessOrEqual(t, h, d, "%s: %s", s.c, b)
			require.Equal(t, max(db, gm), h, "%s: %s", s.c, b)
			if h > max(db, g) {
				s.raised++
			}
		}
	}
	for _, s := range subs {
		if s.c.transpose && s.c.cells < 9 {
			assert.Positive(t, s.raised, "%s: the transpose query should add something", s.c)
		}
		t.Logf("%s: the transpose query raised %d bounds", s.c, s.raised)
	}
}

// Solves on a sample of 3x3 boards: every length is the BFS distance; the
// combination never expands more nodes than the database alone; skipping
// the questions (and the database's bound) changes no cut; every push asks
// or skips.
func TestCombinedSolvesOptimallyWithFewerNodes(t *testing.T) {
	w := world(t)
	keys := shuffledKeys(w.dist, 13)[:250]
	base := map[uint64]ida.Result{}
	var baseNodes int64
	for _, k := range keys {
		b, _ := encode.FromKey(k, 3, 3)
		r, err := ida.Solve(b, w.db, ida.Options{})
		require.NoError(t, err)
		base[k] = r
		baseNodes += r.Expanded
	}
	for _, c := range combos() {
		var nodes, asked, queries, saved, extra int64
		for _, k := range keys {
			b, _ := encode.FromKey(k, 3, 3)
			r, err := ida.Solve(b, w.combined(c, false), ida.Options{})
			require.NoError(t, err)
			full, err := ida.Solve(b, w.combined(c, true), ida.Options{})
			require.NoError(t, err)
			require.Equal(t, w.dist[k], r.Length, "%s: %s", c, b)
			require.Equal(t, w.dist[k], full.Length, "%s: %s", c, b)
			require.LessOrEqual(t, r.Expanded, base[k].Expanded, "%s: %s", c, b)
			if !c.gapFirst {
				require.Equal(t, full.Iterations, r.Iterations, "%s: %s: skipping changed the nodes", c, b)
			} else if len(r.Iterations) != len(full.Iterations) {
				extra++
			}
			require.Equal(t, r.Generated, r.Counters["asked"]+r.Counters["skipped"], "%s: %s", c, b)
			nodes += r.Expanded
			asked += r.Counters["asked"]
			queries += r.Counters["queries"]
			saved += r.Counters["base_saved"]
		}
		assert.Less(t, nodes, baseNodes, "%s", c)
		assert.Positive(t, asked, "%s", c)
		if c.gapFirst {
			assert.Positive(t, saved, "%s", c)
		}
		t.Logf("%s: nodes %d (database alone %d), pushes asking %d, questions %d, database bounds saved %d, solves with an extra iteration %d", c, nodes, baseNodes, asked, queries, saved, extra)
	}
}

func TestCombinedErrorsAndName(t *testing.T) {
	w := world(t)
	_, err := ida.Combined{Gap: w.gap(1, 9)}.NewEvaluator(3, 3)
	assert.Error(t, err)
	_, err = ida.Combined{Base: w.db, Gap: w.gap(1, 9), Transpose: true}.NewEvaluator(2, 3)
	assert.Error(t, err)
	_, err = ida.Combined{Base: w.db}.NewEvaluator(3, 3)
	assert.Error(t, err, "no gap sets")
	assert.Equal(t, "pdb4-4+r+gap2r", ida.Combined{Base: w.db, Gap: w.gap(2, 9), Transpose: true}.Name())
	assert.Equal(t, "x", ida.Combined{Label: "x"}.Name())
}

// The base may be a maximum of databases (pdb78+78mid+gapG on the 4x4):
// with the 4-4 databases and a second split of the 3x3 tiles as the base,
// every length is the BFS distance, the skipping (and the prefetch of both
// databases' entries that comes with it) changes no iteration's nodes, the
// combination expands no more than its base alone, and the second database
// lowers the nodes of the first combination.
func TestCombinedOverMaxOfDatabases(t *testing.T) {
	w := world(t)
	part, err := pdb.ParsePartition("1,4,7/2,3,5,6,8", 3, 3)
	require.NoError(t, err)
	set, err := pdb.BuildSet(context.Background(), part, 2, nil)
	require.NoError(t, err)
	other := &pdb.Heuristic{DBs: set, Transpose: true}
	both := ida.Max{Parts: []ida.Heuristic{w.db, other}}
	keys := shuffledKeys(w.dist, 17)
	var one, two, alone int64
	for _, k := range keys[:200] {
		b, _ := encode.FromKey(k, 3, 3)
		for _, tp := range []bool{false, true} {
			c := ida.Combined{Base: both, Gap: w.gap(2, 4), Transpose: tp}
			r, err := ida.Solve(b, c, ida.Options{})
			require.NoError(t, err)
			c.NoSkip = true
			full, err := ida.Solve(b, c, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, w.dist[k], r.Length, "%s", b)
			require.Equal(t, full.Iterations, r.Iterations, "%s: skipping changed the nodes", b)
			base, err := ida.Solve(b, both, ida.Options{})
			require.NoError(t, err)
			require.LessOrEqual(t, r.Expanded, base.Expanded, "%s", b)
			first, err := ida.Solve(b, ida.Combined{Base: w.db, Gap: w.gap(2, 4), Transpose: tp}, ida.Options{})
			require.NoError(t, err)
			two += r.Expanded
			one += first.Expanded
			alone += base.Expanded
		}
	}
	assert.Less(t, two, one, "the second database should cut some nodes")
	t.Logf("nodes: max of two databases with gap sets %d, one database with gap sets %d, the two databases alone %d", two, one, alone)
}

// shuffledKeys is the boards of dist (keys) in a deterministic random
// order: seed s gives the same order on every run.
func shuffledKeys(dist map[uint64]int, s uint64) []uint64 {
	keys := make([]uint64, 0, len(dist))
	for k := range dist {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rng := rand.New(rand.NewPCG(s, s))
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys
}
