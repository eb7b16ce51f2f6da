package ida

import (
	"testing"

	"github.com/gapset/gapset/encode"
)

// BenchmarkHeuristics solves Korf 12, 42, 55, 79, 97 with each table-free
// heuristic and reports nodes per second and per pass:
//
//	go test -run '^$' -bench Heuristics -count 3 ./ida/
func BenchmarkHeuristics(b *testing.B) {
	var boards []encode.Board
	for _, id := range []int{12, 42, 55, 79, 97} {
		boards = append(boards, korf(b, id))
	}
	for _, h := range []Heuristic{
		LinearConflict{}, WalkingDistance{}, WalkingDistance{NoSkip: true},
		Max{Parts: []Heuristic{WalkingDistance{}, LinearConflict{}}},
	} {
		name := h.Name()
		if w, ok := h.(WalkingDistance); ok && w.NoSkip {
			name += "-noskip"
		}
		b.Run(name, func(b *testing.B) {
			var nodes int64
			for i := 0; i < b.N; i++ {
				for _, bd := range boards {
					res, err := Solve(bd, h, Options{})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Expanded
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
