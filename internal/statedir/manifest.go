package statedir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/gapset/gapset/internal/infile"
)

// ManifestName is the file that describes a state directory's state (in
// the cluster's work directory: each step's directory).
const ManifestName = "manifest.json"

// MaxManifest bounds a manifest file, and every small file of a state
// directory or work location: a checkpoint's names its runs, about a
// hundred bytes each, some thousands over a whole enumeration.
const MaxManifest = 256 << 20

// ReadManifest reads the manifest file at path whole, refusing a special
// file and one past MaxManifest (infile.ReadAll).
func ReadManifest(path string) ([]byte, error) {
	return infile.ReadAll(path, "a manifest", MaxManifest)
}

// envelope is what every manifest file holds, whatever its payload: the
// payload's format, its CRC-32C, and the payload (a checkpoint's or a
// step's description, the cluster's list of outputs).
type envelope struct {
	Format  int             `json:"format"`
	Sum     string          `json:"checksum"`
	Payload json.RawMessage `json:"payload"`
}

// checksum is the seal of a payload: the CRC-32C of its compact JSON
// (indentation is not part of what it says).
func checksum(payload []byte) (string, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, payload); err != nil {
		return "", err
	}
	return fmt.Sprintf("crc32c:%08x", Update(0, b.Bytes())), nil
}

// Seal returns the bytes of a manifest file holding payload v of this
// format, sealed by its checksum.
func Seal(format int, v any) ([]byte, error) {
	p, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	sum, err := checksum(p)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(envelope{Format: format, Sum: sum, Payload: p}, "", " ")
}

// Unseal reads the manifest file b written by Seal (path names it, in dir,
// for the messages) into v: a file of another format (an older gapset's)
// is refused as outdated, any edit of the payload as damage; both say that
// --fresh starts over. Nothing of v is trusted before the checksum is.
func Unseal(dir, path string, b []byte, format int, v any) error {
	name := filepath.Base(path)
	var e envelope
	if err := json.Unmarshal(b, &e); err != nil {
		return Damaged(dir, "%s is not a manifest: %v", name, err)
	}
	if e.Format != format {
		return Damaged(dir, "%s is of format %d, this gapset reads format %d (written by another version?)", name, e.Format, format)
	}
	sum, err := checksum(e.Payload)
	if err != nil || len(e.Payload) == 0 || e.Sum != sum {
		return Damaged(dir, "%s fails its checksum", name)
	}
	if err := json.Unmarshal(e.Payload, v); err != nil {
		return Damaged(dir, "%s: %v", name, err)
	}
	return nil
}
