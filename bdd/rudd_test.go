package bdd

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collections is the number of times rudd's collector ran on r's BDD (its
// Stats line "# of GC:").
func (r *Rudd) collections(t *testing.T) int {
	t.Helper()
	for _, line := range strings.Split(r.b.Stats(), "\n") {
		var n int
		if _, err := fmt.Sscanf(line, "# of GC: %d", &n); err == nil {
			return n
		}
	}
	t.Fatalf("no collection count in rudd's stats:\n%s", r.b.Stats())
	return 0
}

// rudd decrements its reference counts in finalizers, on the finalizer
// goroutine. Go collections between a Rudd's operations must fire none of
// them: under -race (.ci/run) this test reported DATA RACE in rudd's
// retnode and markrec before Rudd cleared the finalizers.
func TestRuddSurvivesGoCollections(t *testing.T) {
	g0, g2 := sets3x3(t)
	o, _ := NamedOrder("natural", 3, 3, 6)
	k0, k2 := project(g0, 6), project(g2, 6)
	d0, err := Build(k0, o, false)
	require.NoError(t, err)
	d2, err := Build(k2, o, false)
	require.NoError(t, err)
	r2, err := BuildRudd(k2, o) // its table too small: rudd collects and grows it
	require.NoError(t, err)
	require.Positive(t, r2.collections(t), "the build must run rudd's collector")
	for range 4 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond) // room for the finalizer goroutine, no synchronisation with it
		assert.Equal(t, d2.NodeCount(), r2.NodeCount())
		r0, err := r2.Import(d0)
		require.NoError(t, err)
		diff, err := r2.Difference(r0)
		require.NoError(t, err)
		assert.Equal(t, int64(len(k2)-len(k0)), diff.Satcount().Int64())
		back, err := r2.Diagram()
		require.NoError(t, err)
		assert.Equal(t, encoded(t, d2), encoded(t, back), "the same file")
	}
}

// A table sized from the known node count never starts rudd's collector
// (CheckRudd and ToRudd size it so).
func TestRuddSizedTableNeverCollects(t *testing.T) {
	_, g2 := sets3x3(t)
	for _, name := range []string{"natural", "reverse"} {
		o, _ := NamedOrder(name, 3, 3, 9)
		d, err := Build(g2, o, false)
		require.NoError(t, err)
		r, err := buildRudd(g2, o, d.NodeCount())
		require.NoError(t, err)
		assert.Equal(t, 0, r.collections(t), name)
		assert.Equal(t, d.NodeCount(), r.NodeCount(), name)
		r, err = d.ToRudd()
		require.NoError(t, err)
		assert.Equal(t, 0, r.collections(t), name)
		assert.Equal(t, d.NodeCount(), r.NodeCount(), name)
		small, err := buildRudd(g2, o, d.NodeCount()/4)
		require.NoError(t, err)
		assert.Positive(t, small.collections(t), "%s: a quarter of the room is too small", name)
		assert.Equal(t, d.NodeCount(), small.NodeCount(), name)
	}
}
