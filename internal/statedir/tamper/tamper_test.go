package tamper

import (
	"encoding/json"
	"testing"

	"github.com/gapset/gapset/internal/statedir"
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

// DropPart drops the last part of the first run of several under the
// field, lowers the run's count to match and seals the manifest again.
func TestDropPart(t *testing.T) {
	payload := map[string]any{"runs": []any{[]any{
		map[string]any{"n": 1, "parts": []any{map[string]any{"p": 0, "n": 1}}},
		map[string]any{"n": 5, "parts": []any{map[string]any{"p": 0, "n": 2}, map[string]any{"p": 3, "n": 3}}},
	}}, "projections": map[string]any{"5": []any{map[string]any{"n": 9, "parts": []any{map[string]any{"n": 4}, map[string]any{"n": 5}}}}}}
	b, err := statedir.Seal(4, payload)
	require.NoError(t, err)
	out, ok, err := DropPart(b, "runs")
	require.NoError(t, err)
	require.True(t, ok)
	var got map[string]any
	require.NoError(t, statedir.Unseal("dir", "manifest.json", out, 4, &got), "sealed again")
	want := `{"runs": [[{"n": 1, "parts": [{"p": 0, "n": 1}]}, {"n": 2, "parts": [{"p": 0, "n": 2}]}]],
		"projections": {"5": [{"n": 9, "parts": [{"n": 4}, {"n": 5}]}]}}`
	gotJSON, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, want, string(gotJSON))
	_, ok, err = DropPart(out, "runs")
	require.NoError(t, err)
	assert.False(t, ok, "no run of several parts left")
}
