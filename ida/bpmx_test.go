package ida

import (
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// holeyMD is an admissible, inconsistent heuristic: the Manhattan distance,
// except 0 on about a third of the boards (by a hash of the key), so that
// neighbours' bounds differ by up to the whole distance.
type holeyMD struct{}

func (holeyMD) Name() string                                 { return "holey-md" }
func (holeyMD) NewEvaluator(int, int) (Evaluator, error)     { return holeyEval{}, nil }
func (holeyEval) Root(p *Position) int                       { return holeyBound(p) }
func (holeyEval) Push(p *Position, _ uint8, _, _, _ int) int { return holeyBound(p) }
func (holeyEval) Pop(*Position, uint8, int, int)             {}

type holeyEval struct{}

func holeyBound(p *Position) int {
	if (p.Key()*0x9E3779B97F4A7C15)>>61 < 3 {
		return 0
	}
	return p.MD
}

// With BPMX the lengths are the BFS distances, for an inconsistent
// heuristic (where it cuts nodes the plain search expands) and for
// consistent ones (where it expands the same nodes).
func TestBPMXOptimalAndCuts(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 400)
	gap := Gap{Levels: tr.levels(2, 9)}
	var plain, bpmx int64
	for i, b := range boards {
		p, err := Solve(b, holeyMD{}, Options{})
		require.NoError(t, err)
		x, err := Solve(b, holeyMD{}, Options{BPMX: true})
		require.NoError(t, err)
		require.Equal(t, dists[i], p.Length, "%s", b)
		require.Equal(t, dists[i], x.Length, "%s", b)
		plain += p.Expanded
		bpmx += x.Expanded
		for _, h := range []Heuristic{mdEvaluator{}, gap} {
			r, err := Solve(b, h, Options{BPMX: true, Threads: 2})
			require.NoError(t, err)
			require.Equal(t, dists[i], r.Length, "%s %s", h.Name(), b)
		}
		// Manhattan distance is consistent: BPMX raises nothing. It
		// searches the children in another order, so the last iterations
		// are compared to their ends.
		md, err := Solve(b, mdEvaluator{}, Options{AllSolutions: true})
		require.NoError(t, err)
		mdx, err := Solve(b, mdEvaluator{}, Options{BPMX: true, AllSolutions: true})
		require.NoError(t, err)
		require.Len(t, mdx.Iterations, len(md.Iterations))
		require.Equal(t, md.Solutions, mdx.Solutions, "%s", b)
		for k, it := range md.Iterations {
			// the same nodes; BPMX generates all of a node's children
			// before it searches one, so at the goal it has generated more
			require.Equal(t, it.Expanded, mdx.Iterations[k].Expanded, "%s", b)
			require.Equal(t, it.Limit, mdx.Iterations[k].Limit, "%s", b)
		}
	}
	t.Logf("holey md: %d nodes, %d with BPMX", plain, bpmx)
	assert.Less(t, bpmx, plain*9/10, "BPMX should cut at least a tenth of the nodes")
	_, err := Solve(encode.Goal(3, 3), holeyMD{}, Options{BPMX: true})
	require.NoError(t, err)
}
