package results

import "github.com/readbench/readbench/saved"

// The workload a result records is package saved's: the one form of the
// resolved workload that package workload converts to and from (tested to
// lose no field) and that this package keeps, reads and merges without
// knowing the workload file format. The names below are what this
// package and its readers (report, capacity) have always called them.
type (
	// Workload is the resolved workload as a result saves it.
	Workload = saved.Workload
	// AuthSpec is the workload's auth block, its secret Redacted.
	AuthSpec = saved.Auth
	// OAuthSpec is an OAuth client without its secret.
	OAuthSpec = saved.OAuth
	// LoadSpec is the load block as text.
	LoadSpec = saved.Load
	// StageSpec is one stage of the rate profile as text.
	StageSpec = saved.Stage
	// TurnSpec is the turn block as text.
	TurnSpec = saved.Turn
	// MixClass is one class of the mix as text.
	MixClass = saved.Class
)
