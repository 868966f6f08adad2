package stats

import "time"

// What a new session costs: the handshake of each session opened (the
// initial ones and, with churn, every replacement) and the first read sent
// on each. The first read is recorded in Read as every read is, and in
// FirstRead besides (ReadSample.FirstOnSession), so "what does a new host
// cost" is a number beside the steady state.

// Handshake records how long opening one session took.
func (r *Recorder) Handshake(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.run.Handshake.Record(d)
}
