package levelplot

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChartIsAPNG(t *testing.T) {
	b, err := Chart("t", []Series{{"natural", []int{1, 2, 4, 8, 4, 2, 1}}, {"found", []int{1, 2, 3, 3, 2, 1, 1}}})
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Greater(t, img.Bounds().Dx(), 100)
	_, err = Chart("t", nil)
	assert.Error(t, err)
	_, err = Chart("t", []Series{{"x", nil}})
	assert.Error(t, err)
}
