package keyset_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
)

// Write a key set and read it back.
func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "keyset-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	// The 3x3 goal and a board one move away, projected onto the last 4
	// cells: the nibbles of cells 5..8.
	var keys []uint64
	for _, s := range []string{"1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 0 8"} {
		b, _ := encode.Parse(s, 3, 3)
		keys = append(keys, encode.Project(b.Key(), 4))
	}
	if keys[0] > keys[1] {
		keys[0], keys[1] = keys[1], keys[0] // key sets are sorted
	}
	path := filepath.Join(dir, "small.keys")
	h := keyset.Header{Rows: 3, Cols: 3, Cells: 4, Gap: 0, Count: uint64(len(keys))}
	if err := keyset.WriteFile(path, h, keys); err != nil {
		fmt.Println(err)
		return
	}

	back, got, err := keyset.ReadAll(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(back.Name(), back.Count)
	for _, k := range got {
		fmt.Printf("%#x\n", k)
	}
	// Output:
	// Gap0_4 2
	// 0x6708
	// 0x6780
}
