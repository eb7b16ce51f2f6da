package bdd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An order argument is a name, a bit list, or @FILE as WriteOrderFile writes it.
func TestParseOrderArg(t *testing.T) {
	o, _ := NamedOrder("column-reverse", 4, 4, 8)
	o.Name = "found"
	path := filepath.Join(t.TempDir(), "o.order")
	require.NoError(t, WriteOrderFile(path, o, 4, 4))
	back, err := ParseOrderArg("@"+path, 4, 4, 8)
	require.NoError(t, err)
	assert.Equal(t, o, back)
	named, err := ParseOrderArg("reverse", 4, 4, 8)
	require.NoError(t, err)
	assert.Equal(t, "reverse", named.Name)
	_, err = ParseOrderArg("@"+path+".missing", 4, 4, 8)
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = ParseOrderArg("@"+path, 4, 4, 10)
	assert.ErrorContains(t, err, path+": ", "a bad file is named")
}
