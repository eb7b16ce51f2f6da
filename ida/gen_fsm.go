//go:build ignore

// gen_fsm writes fsm14.gz: the duplicate move strings of up to
// ida.DefaultFSMLength moves and their partners, learned by
// ida.LearnDuplicates (seconds and about a gigabyte; the search reads the
// file instead). TestStoredPairsMatchLearning checks the file.
//
//	go run gen_fsm.go
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/gapset/gapset/ida"
)

func main() {
	pairs, kept := ida.LearnDuplicates(ida.DefaultFSMLength)
	var b bytes.Buffer
	if err := ida.WriteDuplicatePairs(&b, pairs, ida.DefaultFSMLength, kept); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile("fsm14.gz", b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("fsm14.gz: %d pairs, %d strings kept, %d bytes\n", len(pairs), kept, b.Len())
}
