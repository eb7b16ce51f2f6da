package gapset

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResultWrite(t *testing.T) {
	r := Result{Rows: 3, Cols: 3, MaxGap: 2, Exact: true, Members: 7,
		Layers:  []LayerCount{{Gap: 0, Manhattan: 0, Count: 1}, {Gap: 2, Manhattan: 12, Count: 6}},
		Outputs: []OutputFile{{Cells: 4, Name: "G2x_4", Path: "/d/G2x_4.keys", Count: 5}},
		Elapsed: 1500 * time.Millisecond, CPU: 3 * time.Second, PeakRSS: 5 << 20, PeakDisk: 2 << 20, Spills: 1}
	var text bytes.Buffer
	require.NoError(t, r.Write(&text, "text"))
	assert.Equal(t, "# 3x3, gap = 2: members per layer\n"+
		"gap  manhattan count\n"+
		"0    0         1\n"+
		"2    12        6\n"+
		"members 7\n"+
		"set G2x_4 cells 4 count 5 file /d/G2x_4.keys\n"+
		"seconds 1.5\ncpu_seconds 3.0\npeak_rss_mib 5\npeak_disk_mib 2\nspills 1\n", text.String())

	r.Exact = false
	text.Reset()
	require.NoError(t, r.Write(&text, "text"))
	assert.Contains(t, text.String(), "# 3x3, gap <= 2: members per layer\n")

	var js bytes.Buffer
	require.NoError(t, r.Write(&js, "json"))
	var got map[string]any
	require.NoError(t, json.Unmarshal(js.Bytes(), &got))
	assert.InDelta(t, 1.5, got["seconds"], 1e-9)
	assert.InDelta(t, 3.0, got["cpu_seconds"], 1e-9)
	assert.EqualValues(t, 7, got["members"])
	assert.EqualValues(t, 5<<20, got["peak_rss_bytes"])
}

func TestProgressString(t *testing.T) {
	p := Progress{Gap: 2, Manhattan: 7, Layer: 12, Members: 300, Elapsed: 1500 * time.Millisecond, RSS: 3 << 20, PeakRSS: 5 << 20, Phase: "layer"}
	assert.Equal(t, "   1.5s gap 2 M  7:          12; members           300 (200/s); rss 3 MiB, peak 5 MiB", p.String())
	p.Phase = "merge"
	assert.Equal(t, "   1.5s merge: 12 keys; rss 3 MiB, peak 5 MiB", p.String())
}
