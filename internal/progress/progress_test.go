package progress

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// On a terminal the bar is erased before each row, so it redraws in place.
func TestProgressRedraws(t *testing.T) {
	var b bytes.Buffer
	p := &Bar{w: &b, tty: true}
	p.Update(0, 2, true, "one")
	p.Clear()
	p.Update(1, 2, true, "two")
	p.Done()
	assert.Equal(t, 1, strings.Count(b.String(), "\n"), "%q", b.String())
	assert.Equal(t, 3, strings.Count(b.String(), "\r"), "%q", b.String())
}

// Off a terminal: plain lines, the first at once, later ones rate-limited;
// quiet writes nothing.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	p := New(&b, false)
	p.Update(1, 4, false, "first %d", 1)
	p.Update(2, 4, false, "dropped")
	p.Update(0, 0, false, "dropped too")
	p.Done()
	assert.Equal(t, "1/4 first 1\n", b.String())
	b.Reset()
	q := New(&b, true)
	q.Update(1, 4, true, "x")
	q.Done()
	assert.Empty(t, b.String())
}
