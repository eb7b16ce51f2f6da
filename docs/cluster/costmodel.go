//go:build ignore

// costmodel.go prints cost-model.csv: what the 4x4 gap sets of gap <= 6,
// 8 and 10 would cost as gapset-cluster jobs, from the figures measured on
// this project's machine (README.md in this folder gives each input and
// where it was measured):
//
//	go run docs/cluster/costmodel.go > docs/cluster/cost-model.csv
package main

import (
	"fmt"
	"math"
)

// Measured inputs.
const (
	// Exact levels G0, G2, G4, G6 of the 4x4 board (enumerated; G6 by the
	// exact gap <= 6 run of 2026-11-26, docs/gap-bound/gap6-layers.csv).
	g0, g2, g4, g6 = 88728780.0, 1243092017.0, 10080723128.0, 56196404624.0
	// Level growth: the ratio of consecutive levels falls by this factor a
	// level (3x4 board, gap 0 to 8: 0.72 each time; the 4x4 board's G6/G4
	// is 0.72 x 0.70 of G4/G2).
	decay = 0.72
	// The largest layer of a level holds this fraction of it (G2 1/14.0,
	// G4 1/13.7).
	largestShare = 1 / 13.7
	// Pipeline CPU per member at gap <= 2 (4x4, in-process Prism: 365.4 s
	// for 1,331,820,797 members) and the single-machine CPU per member at
	// gap <= 2 and gap <= 4 (194.1 s; 2,313 s for 11,412,543,925).
	clusterCPUGap2 = 365.4 / 1331820797
	singleCPUGap2  = 194.1 / 1331820797
	singleCPUGap4  = 2313.0 / 11412543925
	// Bytes a key of the layer runs at rest (key differences; measured on
	// the gap <= 6 run: G0 4.2, G2 3.95, G4 3.72, G6 3.56): about 0.18
	// fewer a level as the sets grow denser.
	bytesG6 = 3.56
	// Candidate pieces: the keys the expansion writes before
	// de-duplication, per key of the new layer, and their bytes a key (a
	// piece is a sparser sample of the layer).
	candidatesPerKey = 2.0
	pieceBytesExtra  = 0.8
	// Peak storage of a step against its largest layer's bytes (gap <= 2
	// pipeline: 2.03 GB peak, largest layer 88.5 M keys at 3.95 bytes).
	peakPerLargest = 2030878478.0 / (88526038 * 3.95)
	// Steps (depths) of the 4x4 enumeration: gap <= 2 took 61; each level
	// adds about 4 (the largest Manhattan distance of a level grows by 2
	// and its gap by 2).
	stepsGap2 = 61
	// Per-job start-up: 0.2 s measured on in-process Prism; the other
	// runners' are assumptions (not measured here).
	jobPrism, jobFlink, jobDataflow = 0.2, 10.0, 240.0
	// Cores a worker, and the share of them a step keeps busy.
	coresPerWorker, efficiency = 4.0, 0.75
	// Transposition-canonical layers (gapset-cluster enumerate
	// --transpose, the default): the layers, the candidate pieces and the
	// shuffle hold one key of each transposed pair; the CPU is the single
	// machine's measured ratio on the quiet gap <= 4 pair (1,941 s against
	// 3,127 s, docs/gap-bound/pair-gap4-canonical/).
	canonStore, canonCPU = 0.5, 1941.0 / 3127
	// Rank-coded runs (--rank-runs): 1.52 bytes a key on the gap-6 layers
	// against 3.56 with key differences.
	rankBytesRatio = 1.52 / 3.56
)

func main() {
	levels := []float64{g0, g2, g4, g6}
	r := g6 / g4
	for len(levels) < 6 {
		r *= decay
		levels = append(levels, levels[len(levels)-1]*r)
	}
	fmt.Println("gap,layers,members,steps,largest_layer_keys,bytes_per_key,layer_store_bytes_peak_step,shuffle_bytes_peak_step,shuffle_bytes_total,peak_storage_bytes,cpu_hours,wall_h_8_workers,wall_h_32_workers,wall_h_128_workers,partitions_needed_128,job_overhead_h_flink,job_overhead_h_dataflow")
	type mode struct {
		name       string
		store, cpu float64
	}
	modes := []mode{{"full", 1, 1}, {"canonical", canonStore, canonCPU}, {"canonical_rank_runs", canonStore * rankBytesRatio, canonCPU * 1.19}}
	for _, gap := range []int{6, 8, 10} {
		for _, m := range modes {
			row(levels, gap, m.name, m.store, m.cpu)
		}
	}
}

// row prints one enumeration's costs; store scales the bytes of the layers
// and pieces, cpuScale the CPU (the canonical modes against the full one;
// rank-coded runs cost 1.19x the CPU of key differences, the gap <= 2 run
// of 2026-11-26).
func row(levels []float64, gap int, name string, store, cpuScale float64) {
	// CPU per member grows as the sets get sparser: +39% from gap 2 to
	// gap 4 on one machine; assumed +20% a level beyond.
	cpuPerMember := clusterCPUGap2 * singleCPUGap4 / singleCPUGap2
	top := gap / 2
	members := 0.0
	for _, l := range levels[:top+1] {
		members += l
	}
	steps := stepsGap2 + 4*(top-1)
	largest := levels[top] * largestShare
	bpk := bytesG6 - 0.18*float64(top-3)
	layerBytes := largest * bpk * store
	shufflePeak := candidatesPerKey * largest * (bpk + pieceBytesExtra) * store
	shuffleTotal := candidatesPerKey * members * (bpk + pieceBytesExtra) * store
	peak := peakPerLargest * layerBytes
	cpu := members * cpuPerMember * math.Pow(1.2, float64(top-2)) * cpuScale
	wall := func(workers float64) float64 {
		return cpu/(workers*coresPerWorker*efficiency)/3600 + float64(steps)*jobPrism/3600
	}
	// A step's merges are (levels x partitions) tasks; 128 workers of 4
	// cores want several tasks a core.
	parts := 16
	for float64(parts*(top+1)) < 4*128*coresPerWorker && parts < 256 {
		parts *= 2
	}
	fmt.Printf("%d,%s,%.3g,%d,%.3g,%.2f,%.3g,%.3g,%.3g,%.3g,%.0f,%.1f,%.1f,%.2f,%d,%.2f,%.1f\n",
		gap, name, members, steps, largest, bpk, layerBytes, shufflePeak, shuffleTotal, peak, cpu/3600,
		wall(8), wall(32), wall(128), parts, float64(steps)*jobFlink/3600, float64(steps)*jobDataflow/3600)
}
