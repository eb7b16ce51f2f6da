package encode

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/infile"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bare numbers form one board; quoted boards are one each.
func TestParseArgs(t *testing.T) {
	one, err := ParseArgs([]string{"8", "6", "7", "2", "5", "4", "3", "0", "1"}, 3, 3)
	require.NoError(t, err)
	require.Len(t, one, 1)
	assert.Equal(t, "arg1", one[0].ID)
	assert.Equal(t, "8 6 7 2 5 4 3 0 1", one[0].Board.String())
	two, err := ParseArgs([]string{"8 6 7 2 5 4 3 0 1", "1,2,3,4,5,6,7,0,8"}, 3, 3)
	require.NoError(t, err)
	require.Len(t, two, 2)
	assert.Equal(t, Instance{ID: "arg2", Line: 2, Board: two[1].Board}, two[1])
	_, err = ParseArgs([]string{"8 6 7 2 5 4 3 0 1", "1 2 3"}, 3, 3)
	assert.ErrorContains(t, err, "argument 2: ")
}

func TestReadInstanceFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "i.txt")
	require.NoError(t, os.WriteFile(path, []byte("# two\n17 8 6 7 2 5 4 3 0 1\n\n1 2 3 4 5 6 7 0 8\n"), 0o644))
	insts, err := ReadInstanceFile(path, 3, 3)
	require.NoError(t, err)
	require.Len(t, insts, 2)
	assert.Equal(t, "17", insts[0].ID)
	assert.Equal(t, 4, insts[1].Line)
	empty := filepath.Join(dir, "empty.txt")
	require.NoError(t, os.WriteFile(empty, []byte("# nothing\n"), 0o644))
	_, err = ReadInstanceFile(empty, 3, 3)
	assert.EqualError(t, err, empty+": no boards found")
	_, err = ReadInstanceFile(filepath.Join(dir, "missing"), 3, 3)
	assert.ErrorIs(t, err, os.ErrNotExist)
	require.NoError(t, os.WriteFile(path, []byte("1 2 3\n"), 0o644))
	_, err = ReadInstanceFile(path, 3, 3)
	var le *LineError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, path, le.Source)
}

// The same seed gives the same solvable boards, numbered from 1.
func TestRandomInstances(t *testing.T) {
	a, b := RandomInstances(7, 20, 3, 3), RandomInstances(7, 20, 3, 3)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, RandomInstances(8, 20, 3, 3))
	for i, in := range a {
		assert.Equal(t, strconv.Itoa(i+1), in.ID)
		assert.True(t, in.Board.Solvable())
	}
	assert.Empty(t, RandomInstances(1, 0, 4, 4))
}

// lines repeats a line without end.
type lines struct {
	line string
	at   int
}

func (l *lines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = l.line[l.at]
		l.at = (l.at + 1) % len(l.line)
	}
	return len(p), nil
}

// A stream of boards, or of comments, that never ends is refused at the
// bound, not read until the machine runs out of memory or time.
func TestReadInstancesBounded(t *testing.T) {
	board := "1 2 3 4 5 6 7 0 8\n"
	_, err := readInstances(&lines{line: board}, "stdin", 3, 3, 1000, 1<<30)
	assert.EqualError(t, err, "stdin: more than 1000 boards; split the file")
	_, err = readInstances(&lines{line: "# a comment\n"}, "stdin", 3, 3, 1000, 1<<20)
	assert.EqualError(t, err, "stdin: more than 1048576 bytes; split the file")
	insts, err := readInstances(strings.NewReader(strings.Repeat(board, 1000)), "f", 3, 3, 1000, int64(1000*len(board)))
	require.NoError(t, err, "at the bounds")
	assert.Len(t, insts, 1000)
}

// A FIFO (nobody writes it) is refused at once, not waited for.
func TestReadInstanceFileRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	done := make(chan error, 1)
	go func() { _, err := ReadInstanceFile(fifo, 3, 3); done <- err }()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, infile.ErrNotRegular)
	case <-time.After(10 * time.Second):
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			f.Close() // let the reader go
		}
		t.Fatal("still waiting for a writer after 10 s")
	}
}
