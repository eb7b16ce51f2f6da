package six

import (
	"testing"

	"github.com/gapset/gapset/search"
)

// The pages' measurements, repeated on the generic core: duplicate
// detection by linear scan, open addressing and Go's map (BFS, bidirectional
// BFS, farthest positions), and iterative deepening with and without the
// lower bound.
//
//	go test -run '^$' -bench . -count 5 ./puzzle/six/

func benchDedup(b *testing.B, run func(search.Options) (int64, error)) {
	for _, d := range []search.Dedup{search.Linear, search.Open, search.Map} {
		b.Run(d.String(), func(b *testing.B) {
			var gen int64
			for b.Loop() {
				g, err := run(search.Options{Dedup: d})
				if err != nil {
					b.Fatal(err)
				}
				gen = g
			}
			b.ReportMetric(float64(gen), "generated/op")
		})
	}
}

func BenchmarkBFS(b *testing.B) {
	start := MustParse("1 5 2 6 3 4 0")
	benchDedup(b, func(opt search.Options) (int64, error) {
		r, err := search.BFS[Board](Puzzle{}, start, isGoal, opt)
		return r.Generated, err
	})
}

func BenchmarkBidirectional(b *testing.B) {
	start := MustParse("1 5 2 6 3 4 0")
	benchDedup(b, func(opt search.Options) (int64, error) {
		r, err := search.Bidirectional[Board](Puzzle{}, start, Goal(), opt)
		return r.Generated, err
	})
}

func BenchmarkFarthest(b *testing.B) {
	benchDedup(b, func(opt search.Options) (int64, error) {
		opt.NoUndo = true // as the page's farthest-position program
		l, err := search.Farthest[Board](Puzzle{}, Goal(), opt)
		return l.Work.Generated, err
	})
}

func BenchmarkIterativeDeepening(b *testing.B) {
	start := MustParse("4 6 5 1 3 2 0")
	for _, c := range []struct {
		name string
		lb   search.Bound[Board]
	}{{"plain", nil}, {"bound", NewBound()}} {
		b.Run(c.name, func(b *testing.B) {
			var gen int64
			for b.Loop() {
				r, err := search.IterativeDeepening[Board](Puzzle{}, start, isGoal, c.lb, search.DeepenOptions{NoUndo: true, MaxDepth: 20})
				if err != nil || r.Length() != 15 {
					b.Fatal(err, r.Length())
				}
				gen = r.Generated
			}
			b.ReportMetric(float64(gen), "generated/op")
		})
	}
}
