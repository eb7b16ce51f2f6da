package bdd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/infile"
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

// An order file is read within its bound: the largest order written (16
// cells, 64 key bits) fits many times over; a file past the bound is
// refused before it is read (special files: internal/infile's tests).
func TestParseOrderArgBounded(t *testing.T) {
	o, err := NamedOrder("column-reverse", 4, 4, 16)
	require.NoError(t, err)
	assert.Less(t, 16*len(o.Format(4, 4)), MaxOrderFile)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.order")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("# padding\n", 2<<20)), 0o644))
	_, err = ParseOrderArg("@"+big, 4, 4, 8)
	require.ErrorIs(t, err, infile.ErrTooBig)
	assert.EqualError(t, err, big+": too big for an order file (more than 64 KiB)")
}
