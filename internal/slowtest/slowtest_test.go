package slowtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Only "1" turns the slow tests on; anything else (unset, "0", "yes") does
// not.
func TestOn(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "yes": false, "1": true} {
		t.Setenv(Env, v)
		assert.Equal(t, want, On(), "%s=%q", Env, v)
	}
}

// Skip skips without the switch and lets the test go on with it.
func TestSkip(t *testing.T) {
	t.Setenv(Env, "")
	ran := false
	t.Run("off", func(t *testing.T) {
		Skip(t, "run it")
		ran = true
	})
	assert.False(t, ran, "skipped without the switch")
	t.Setenv(Env, "1")
	t.Run("on", func(t *testing.T) {
		Skip(t, "run it")
		ran = true
	})
	assert.True(t, ran, "ran with the switch")
}
