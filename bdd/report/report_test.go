package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/bdd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewRowAndWrite(t *testing.T) {
	paper := bdd.Info{Rows: 4, Cols: 4, Cells: 8, Gap: 0, Order: bdd.Order{Name: "natural", Bits: []uint8{31, 30}},
		FileSize: 8000000, Nodes: 1600000, Count: 4233704, BuildTime: 2500 * time.Millisecond}
	custom := bdd.Info{Rows: 3, Cols: 3, Cells: 4, Gap: 2, Encoding: bdd.Ranks, Order: bdd.Order{Name: "sifted", Bits: []uint8{3, 1, 2, 0}},
		FileSize: 100, Nodes: 0, ZDDNodes: 7, Count: 12, Version: 4, RefBytes: 4, OutOfCore: true, PeakMemory: 3 << 29, WidestLevel: 5}
	a, b := NewRow("a.bdd", paper), NewRow("b.bdd", custom)
	assert.Equal(t, "Gap0_8", a.Set)
	assert.Equal(t, "4x4", a.Board)
	assert.Equal(t, int64(1489108), a.PaperNodes, "Table 1 holds Gap0_8 of the 15-puzzle")
	assert.InDelta(t, 5.0, a.BytesPerNode, 1e-9)
	assert.Zero(t, b.PaperNodes)
	assert.Zero(t, b.BytesPerNode, "no nodes: no ratio")

	var md bytes.Buffer
	require.NoError(t, Write(&md, "md", []Row{a, b}))
	lines := strings.Split(strings.TrimSpace(md.String()), "\n")
	require.Len(t, lines, 4)
	assert.Equal(t, "| Gap0_8 | natural | 8,000,000 | 1,600,000 | 5.00 |  | 4,233,704 | 2.5 | 7,870,996 | 1,489,108 | 4,233,704 (same) |  |  |  |", lines[2])
	assert.Equal(t, "| Gap2_4 | sifted [3 1 2 0] (ranks) | 100 | 0 | 0.00 | 7 | 12 | 0.0 |  |  |  | 5 | 1.50 GiB | out of core |", lines[3])
	assert.Equal(t, "in memory", NewRow("c.bdd", bdd.Info{Rows: 3, Cols: 3, Cells: 4, Version: 4, RefBytes: 4}).Builder)

	var csv bytes.Buffer
	require.NoError(t, Write(&csv, "csv", []Row{b}))
	assert.Equal(t, "file,set,board,cells,order,file_size,nodes,bytes_per_node,zdd_nodes,patterns,build_seconds,"+
		"paper_file_size,paper_nodes,paper_patterns,encoding,order_bits,widest_level,peak_memory,builder\n"+
		"b.bdd,Gap2_4,3x3,4,sifted,100,0,0.000,7,12,0.00,,,,ranks,3 1 2 0,5,1610612736,out of core\n", csv.String())

	var js bytes.Buffer
	require.NoError(t, Write(&js, "json", []Row{a, b}))
	var back []Row
	require.NoError(t, json.Unmarshal(js.Bytes(), &back))
	assert.Equal(t, []Row{a, b}, back)
}
