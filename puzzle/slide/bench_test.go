package slide

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/search"
)

// Farthest positions of the 2x3 and 3x3 boards with each duplicate
// detection (the linear scan only on 2x3: on 3x3 it needs about 1.6e10
// comparisons).
//
//	go test -run '^$' -bench . -count 5 ./puzzle/slide/
func BenchmarkFarthest(b *testing.B) {
	for _, size := range [][2]int{{2, 3}, {3, 3}} {
		p, err := New(size[0], size[1])
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range []search.Dedup{search.Linear, search.Open, search.Map} {
			if d == search.Linear && size[0]*size[1] > 6 {
				continue
			}
			name := string(rune('0'+size[0])) + "x" + string(rune('0'+size[1])) + "/" + d.String()
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, err := search.Farthest[State](p, p.Goal(), search.Options{Dedup: d}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// The same IDA* search (identical nodes, see TestSameSearchAsIDA) by the
// generic core and by package ida's specialised loop, on ten 4x4 boards 60
// random moves from the goal: the price of generality.
//
//	go test -run '^$' -bench IDA -count 5 ./puzzle/slide/
func BenchmarkIDA(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	var boards []encode.Board
	for i := 0; i < 10; i++ {
		boards = append(boards, walk(rng, 4, 4, 60))
	}
	p, err := New(4, 4)
	if err != nil {
		b.Fatal(err)
	}
	goal := p.Goal()
	b.Run("generic", func(b *testing.B) {
		var nodes int64
		for b.Loop() {
			nodes = 0
			for _, bd := range boards {
				r, err := search.IterativeDeepening[State](p, p.State(bd), func(k State) bool { return k == goal }, p.Manhattan(), search.DeepenOptions{NoUndo: true, MaxDepth: 80})
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Expanded
			}
		}
		b.ReportMetric(float64(nodes), "expanded/op")
		b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
	})
	b.Run("ida", func(b *testing.B) {
		var nodes int64
		for b.Loop() {
			nodes = 0
			for _, bd := range boards {
				r, err := ida.Solve(bd, ida.Manhattan{}, ida.Options{})
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Expanded
			}
		}
		b.ReportMetric(float64(nodes), "expanded/op")
		b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
	})
}
