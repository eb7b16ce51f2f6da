package encode_test

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/encode"
)

// Parse a board, print it and its key; an arrangement of the other parity
// is refused.
func ExampleParse() {
	b, err := encode.Parse("1 2 3, 4 0 5, 7 8 6", 3, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(b.Grid())
	fmt.Printf("key %#x, Manhattan distance %d\n", b.Key(), b.Manhattan())

	_, err = encode.Parse("2 1 3 4 5 6 7 8 0", 3, 3)
	fmt.Println(errors.Is(err, encode.ErrUnsolvable))
	// Output:
	// 1 2 3
	// 4 . 5
	// 7 8 6
	// key 0x123405786, Manhattan distance 2
	// true
}
