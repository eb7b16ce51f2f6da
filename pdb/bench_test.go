package pdb

import (
	"context"
	"os"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// BenchmarkPDB solves the first 10 Korf instances with additive databases
// and reflection. 5-5-5 is built on the fly; GAPSET_PDB_DIR=DIR with
// GAPSET_PDB_PARTITION=7-8 (or 6-6-3) loads built files instead:
//
//	go test -run '^$' -bench PDB -count 3 ./pdb/
//	GAPSET_PDB_DIR=/tmp/pdb78 GAPSET_PDB_PARTITION=7-8 go test -run '^$' -bench PDB ./pdb/
func BenchmarkPDB(b *testing.B) {
	var set *Set
	if dir := os.Getenv("GAPSET_PDB_DIR"); dir != "" {
		part, err := ParsePartition(os.Getenv("GAPSET_PDB_PARTITION"), 4, 4)
		if err != nil {
			b.Fatal(err)
		}
		if set, err = Load(dir, part); err != nil {
			b.Fatal(err)
		}
	} else {
		part, _ := ParsePartition("5-5-5", 4, 4)
		var err error
		if set, err = BuildSet(context.Background(), part, 2, nil); err != nil {
			b.Fatal(err)
		}
	}
	var boards []encode.Board
	for _, in := range korf(b)[:10] {
		boards = append(boards, in.Board)
	}
	h := &Heuristic{Set: set, Reflect: true}
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, bd := range boards {
			res, err := ida.Solve(bd, h, ida.Options{})
			if err != nil {
				b.Fatal(err)
			}
			nodes += res.Expanded
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
