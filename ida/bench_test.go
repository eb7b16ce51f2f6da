package ida

import (
	"testing"

	"github.com/gapset/gapset/encode"
)

// BenchmarkManhattan solves fixed Korf instances with Manhattan distance and
// reports nodes expanded per second (the solver's raw speed).
//
//	go test -run '^$' -bench Manhattan -count 5 ./ida/
func BenchmarkManhattan(b *testing.B) {
	var boards []encode.Board
	for _, id := range []int{12, 42, 55, 79, 97, 8, 9} {
		boards = append(boards, korf(b, id))
	}
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, bd := range boards {
			res, err := Solve(bd, Manhattan{}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			nodes += res.Expanded
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
