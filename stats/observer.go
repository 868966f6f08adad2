package stats

// Observer is told of every sample a Recorder keeps, as it keeps it: live
// metrics (package metrics, wired by cmd/readbench) count exactly what the
// phase counts, so a dashboard's totals equal the result's. It is called
// with the Recorder's lock held, from the goroutine that finished the read
// or turn: it must be cheap (atomic counters) and never block.
type Observer interface {
	ObserveRead(ReadSample)
	ObserveTurn(TurnSample)
}

// SetObserver makes o (nil: none) see every read and turn recorded from
// now on. Call it before the first sample; what was recorded before is
// not replayed.
func (r *Recorder) SetObserver(o Observer) {
	r.mu.Lock()
	r.obs = o
	r.mu.Unlock()
}
