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

func TestCountLabels(t *testing.T) {
	assert.Equal(t, "24,795,571", group(24795571))
	assert.Equal(t, "999", group(999))
	var labels []string
	for _, tk := range (countTicks{}).Ticks(0, 1.75e6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"0", "800k", "1.6M"}, labels)
}
