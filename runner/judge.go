package runner

import "github.com/readbench/readbench/results"

// Exit is how a job ended for the command that made it: what its exit
// code says (README, "Exit codes"). The rule and the statuses live in
// results (results.Judge), beside the document, because every view of a
// result opens and ends with the same judgement that decides the exit
// status (results.Judgement.Line); these names keep the commands' words.
type Exit = results.Exit

// The statuses, from best to worst for a CI job (results.Exit).
const (
	Passed      = results.Passed
	Failed      = results.Failed
	Misused     = results.Misused
	Interrupted = results.Interrupted
	NotSaved    = results.NotSaved
)

// Judgement is what a saved result came to (results.Judgement).
type Judgement = results.Judgement

// Facts are what the result alone does not say of how it was made
// (results.Facts).
type Facts = results.Facts

// Judge decides what a saved result comes to: results.Judge, the one rule
// for every command and every view.
func Judge(res *results.Result, f Facts) Judgement { return results.Judge(res, f) }
