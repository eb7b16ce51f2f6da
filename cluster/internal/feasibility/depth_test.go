package feasibility

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/stretchr/testify/require"
)

// fanOutFn stands for "expand a part": the element is the depth it
// belongs to; it sends one reference to each of P target parts.
type fanOutFn struct {
	P int
}

func (f *fanOutFn) ProcessElement(depth int, emit func(int, int)) {
	for p := range f.P {
		emit(p, depth)
	}
}

// mergeFn stands for "merge a target part": every input must come
// from the same depth (a depth never sees another's data), and the merged
// part belongs to the next depth.
type mergeFn struct {
	Want int // inputs per target part (after the first depth)
}

func (f *mergeFn) ProcessElement(p int, depths func(*int) bool) (int, error) {
	n, d0 := 0, -1
	var d int
	for depths(&d) {
		if d0 >= 0 && d != d0 {
			return 0, fmt.Errorf("part %d: inputs from depths %d and %d", p, d0, d)
		}
		d0 = d
		n++
	}
	if d0 > 0 && n != f.Want {
		return 0, fmt.Errorf("part %d at depth %d: %d inputs, want %d", p, d0, n, f.Want)
	}
	return d0 + 1, nil
}

func init() {
	register.DoFn2x0[int, func(int, int)](&fanOutFn{})
	register.DoFn2x2[int, func(*int) bool, int, error](&mergeFn{})
	register.Emitter2[int, int]()
	register.Iter1[int]()
}

// deepGraph chains depths steps of fanOut -> GroupByKey -> merge over p
// parts in one graph, as "one graph for the whole enumeration" would.
func deepGraph(depths, p int) *beam.Pipeline {
	pipe, s := beam.NewPipelineWithRoot()
	col := beam.Create(s, 0)
	for d := range depths {
		sd := s.Scope(fmt.Sprintf("depth%d", d))
		col = beam.ParDo(sd, &mergeFn{Want: p}, beam.GroupByKey(sd, beam.ParDo(sd, &fanOutFn{P: p}, col)))
	}
	want := make([]any, p)
	for i := range want {
		want[i] = depths
	}
	passert.Equals(s, col, want...)
	return pipe
}

// numDepths is GAPSET_BEAM_DEPTHS, default 10: the measurements in
// cluster/README.md used 100.
func numDepths(t *testing.T) int {
	v := os.Getenv("GAPSET_BEAM_DEPTHS")
	if v == "" {
		return 10
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err)
	return n
}

// depthGraph is one depth as a job of its own: the driver feeds it the
// previous job's parts (one at depth 0, p after).
func depthGraph(d, p int) *beam.Pipeline {
	pipe, s := beam.NewPipelineWithRoot()
	in := []int{d}
	if d > 0 {
		in = slices.Repeat(in, p)
	}
	col := beam.ParDo(s, &mergeFn{Want: p}, beam.GroupByKey(s, beam.ParDo(s, &fanOutFn{P: p}, beam.CreateList(s, in))))
	want := make([]any, p)
	for i := range want {
		want[i] = d + 1
	}
	passert.Equals(s, col, want...)
	return pipe
}

// TestDeepGraph measures one graph with many chained GroupByKeys on Prism
// in-process.
func TestDeepGraph(t *testing.T) {
	depths := numDepths(t)
	const p = 4
	start := time.Now()
	_, err := prism.Execute(context.Background(), deepGraph(depths, p))
	require.NoError(t, err)
	t.Logf("one graph, %d depths x %d parts: %v", depths, p, time.Since(start))
}

// TestJobPerDepth measures the same work as TestDeepGraph as one job per
// depth against the in-process server.
func TestJobPerDepth(t *testing.T) {
	depths := numDepths(t)
	const p = 4
	start := time.Now()
	for d := range depths {
		_, err := prism.Execute(context.Background(), depthGraph(d, p))
		require.NoError(t, err)
	}
	t.Logf("one job per depth, %d depths x %d parts: %v", depths, p, time.Since(start))
}

// TestDeepGraphCatchesWrongCount checks that the assertion above can fail:
// merge demanding the wrong fan-in fails the pipeline.
func TestDeepGraphCatchesWrongCount(t *testing.T) {
	pipe, s := beam.NewPipelineWithRoot()
	col := beam.Create(s, 0)
	for range 2 {
		col = beam.ParDo(s, &mergeFn{Want: 3}, beam.GroupByKey(s, beam.ParDo(s, &fanOutFn{P: 4}, col)))
	}
	_, err := prism.Execute(context.Background(), pipe)
	require.Error(t, err)
	require.Contains(t, err.Error(), "4 inputs, want 3")
}
