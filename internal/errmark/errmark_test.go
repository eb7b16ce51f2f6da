package errmark

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

var errKind = errors.New("kind")

// A marked error is of its kind, keeps its text and its chain; If marks
// only the errors of the targets; nil stays nil.
func TestAs(t *testing.T) {
	inner := fmt.Errorf("open x: %w", os.ErrNotExist)
	m := As(inner, errKind)
	assert.ErrorIs(t, m, errKind)
	assert.ErrorIs(t, m, os.ErrNotExist)
	assert.Equal(t, inner.Error(), m.Error())
	var pe *os.PathError
	assert.False(t, errors.As(m, &pe))
	assert.NoError(t, As(nil, errKind))

	assert.ErrorIs(t, If(inner, errKind, os.ErrPermission, os.ErrNotExist), errKind)
	other := errors.New("disk on fire")
	assert.Equal(t, other, If(other, errKind, os.ErrNotExist))
	assert.NoError(t, If(nil, errKind, os.ErrNotExist))
}
