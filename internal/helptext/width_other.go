//go:build !unix

package helptext

import "os"

// terminalWidth is 0 where readbench does not ask the terminal its size:
// the help is DefaultWidth columns wide unless COLUMNS says otherwise.
func terminalWidth(*os.File) int { return 0 }
