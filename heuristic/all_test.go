package heuristic

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolveAll(t *testing.T) {
	r := New(Options{Rows: 3, Cols: 3})
	hs, err := r.ResolveAll([]string{"md", "lc", "max(md,lc)"})
	require.NoError(t, err)
	var names []string
	for _, h := range hs {
		names = append(names, h.Name())
	}
	assert.Equal(t, []string{"md", "lc", "max(md,lc)"}, names)
	_, err = r.ResolveAll([]string{"md", "lc", "md"})
	assert.EqualError(t, err, `heuristic "md" given twice`)
	_, err = r.ResolveAll([]string{"md", "nosuch"})
	assert.Error(t, err)
	none, err := r.ResolveAll(nil)
	assert.NoError(t, err)
	assert.Empty(t, none)
}
