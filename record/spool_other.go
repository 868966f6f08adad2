//go:build !unix

package record

import (
	"errors"
	"os"
)

// canSpill is false where a file cannot be removed while it is open (or
// mapped): a message is kept in memory whole, up to the limit.
const canSpill = false

func spillFile(string) (*os.File, error) { return nil, errors.New("no spill file on this system") }

func mapFile(*os.File, int64) ([]byte, func(), error) {
	return nil, func() {}, errors.New("no spill file on this system")
}
