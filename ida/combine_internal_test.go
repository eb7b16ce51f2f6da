package ida

import (
	"testing"

	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/require"
)

// The combined evaluator's keys (the board's and its transpose's) follow
// the position through pushes and pops along a random walk.
func TestCombinedKeysFollowThePath(t *testing.T) {
	h := Combined{Base: WalkingDistance{}, Gap: Gap{Levels: []Set{memset.New(nil, 8)}}, Transpose: true}
	ev, err := h.NewEvaluator(4, 4)
	require.NoError(t, err)
	ce := ev.(*combinedEval)
	walkEvaluator(t, ev, 2, func(i int, p *Position) {
		require.Equal(t, p.Key(), ce.key, "step %d", i)
		require.Equal(t, ce.transposeKey(p), ce.rkey, "step %d", i)
	})
}
