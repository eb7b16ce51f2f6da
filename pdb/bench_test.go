package pdb

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// BenchmarkPDB solves the first 10 Korf instances with additive databases
// and the transposed lookup, on one thread, with and without the prefetch of the
// children's entries (sub-benchmarks prefetch, noprefetch). 5-5-5 is built on the fly; GAPSET_PDB_DIR=DIR with
// GAPSET_PDB_PARTITION=7-8 (or 6-6-3) loads built files instead:
//
//	go test -run '^$' -bench PDB -count 3 ./pdb/
//	GAPSET_PDB_DIR=/tmp/pdb78 GAPSET_PDB_PARTITION=7-8 go test -run '^$' -bench PDB ./pdb/
func BenchmarkPDB(b *testing.B) {
	var set *Databases
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
	for _, in := range data.Korf100()[:10] {
		boards = append(boards, in.Board)
	}
	for _, v := range []struct {
		name string
		noPF bool
	}{{"prefetch", false}, {"noprefetch", true}} {
		b.Run(v.name, func(b *testing.B) {
			h := &Heuristic{DBs: set, Transpose: true, NoPrefetch: v.noPF}
			var nodes int64
			for i := 0; i < b.N; i++ {
				for _, bd := range boards {
					res, err := ida.Solve(bd, h, ida.Options{Threads: 1})
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

// BenchmarkBuild builds one group's table on one worker. The default is a
// 3x5 7-tile group (32.4 M placements, 8 free cells: the 8-tile 7-8 group's
// word layout at a sixteenth of its size); GAPSET_BUILD_GROUP=RxC:T,T,...
// picks another and GAPSET_BUILD_WORKERS the workers:
//
//	go test -run '^$' -bench Build -benchtime 1x -cpuprofile cpu.out ./pdb/
//	GAPSET_BUILD_GROUP=4x4:9,10,11,12,13,14,15 go test -run '^$' -bench Build -benchtime 1x ./pdb/
func BenchmarkBuild(b *testing.B) {
	rows, cols, group := 3, 5, []uint8{1, 2, 3, 4, 5, 6, 7}
	if spec := os.Getenv("GAPSET_BUILD_GROUP"); spec != "" {
		size, tiles, ok := strings.Cut(spec, ":")
		if _, err := fmt.Sscanf(size, "%dx%d", &rows, &cols); err != nil || !ok {
			b.Fatalf("GAPSET_BUILD_GROUP=%q: want RxC:T,T,...", spec)
		}
		group = nil
		for _, f := range strings.Split(tiles, ",") {
			t, err := strconv.Atoi(f)
			if err != nil {
				b.Fatalf("GAPSET_BUILD_GROUP=%q: %v", spec, err)
			}
			group = append(group, uint8(t))
		}
	}
	workers := 1
	if w, err := strconv.Atoi(os.Getenv("GAPSET_BUILD_WORKERS")); err == nil {
		workers = w
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := Build(context.Background(), rows, cols, group, workers, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(Entries(rows*cols, len(group)))*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
