package bench

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReadTradeoff(t *testing.T) {
	in := "series,label,gap,bytes,node_ratio\n# a comment\nnone,md,-2,0,1\n8 cells,h_G:2,2,301989888,0.031\n8 cells,h_G:4,4,838860800,0.0063\n"
	pts, err := ReadTradeoff(strings.NewReader(in))
	require.NoError(t, err)
	require.Equal(t, []TradeoffPoint{
		{Series: "none", Label: "md", Gap: -2, Bytes: 0, NodeRatio: 1},
		{Series: "8 cells", Label: "h_G:2", Gap: 2, Bytes: 301989888, NodeRatio: 0.031},
		{Series: "8 cells", Label: "h_G:4", Gap: 4, Bytes: 838860800, NodeRatio: 0.0063},
	}, pts)

	for name, bad := range map[string]string{
		"header":     "label,gap\nx,1\n",
		"odd gap":    "series,label,gap,bytes,node_ratio\ns,l,3,0,1\n",
		"bytes":      "series,label,gap,bytes,node_ratio\ns,l,2,-1,1\n",
		"ratio zero": "series,label,gap,bytes,node_ratio\ns,l,2,0,0\n",
		"ratio NaN":  "series,label,gap,bytes,node_ratio\ns,l,2,0,NaN\n",
		"no points":  "series,label,gap,bytes,node_ratio\n",
		"empty name": "series,label,gap,bytes,node_ratio\n,l,2,0,1\n",
		"fields":     "series,label,gap,bytes,node_ratio\ns,l,2,0\n",
	} {
		_, err := ReadTradeoff(strings.NewReader(bad))
		require.Error(t, err, name)
	}
}

func TestTradeoffChartIsAPNG(t *testing.T) {
	pts := []TradeoffPoint{
		{Series: "a", Label: "md", Gap: -2, Bytes: 0, NodeRatio: 1},
		{Series: "a", Label: "h_G:2", Gap: 2, Bytes: 300 << 20, NodeRatio: 0.03},
		{Series: "b", Label: "h_G:8", Gap: 8, Bytes: 2 << 30, NodeRatio: 7e-4},
	}
	b, err := TradeoffChart(pts, "test")
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	require.Greater(t, img.Bounds().Dx(), img.Bounds().Dy(), "two panels side by side")
	_, err = TradeoffChart(nil, "empty")
	require.Error(t, err)
}
