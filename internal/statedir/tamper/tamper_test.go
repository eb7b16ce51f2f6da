package tamper

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every field, the envelope's and the payload's, is listed and changed.
func TestEdit(t *testing.T) {
	b := []byte(`{"format": 4, "checksum": "crc32c:00", "payload": {"step": 3, "done": false, "runs": [[1]], "proj": {}}}`)
	fs, err := Fields(b)
	require.NoError(t, err)
	assert.Equal(t, []string{"checksum", "format", "payload", "payload.done", "payload.proj", "payload.runs", "payload.step"}, fs)
	for _, f := range fs {
		out, err := Edit(b, f)
		require.NoError(t, err)
		var a, c map[string]any
		require.NoError(t, json.Unmarshal(b, &a))
		require.NoError(t, json.Unmarshal(out, &c))
		assert.NotEqual(t, a, c, f)
	}
	out, err := Edit(b, "payload.step")
	require.NoError(t, err)
	assert.JSONEq(t, `{"format": 4, "checksum": "crc32c:00", "payload": {"step": 4, "done": false, "runs": [[1]], "proj": {}}}`, string(out))
}
