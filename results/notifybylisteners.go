package results

import "github.com/readbench/readbench/stats"

// ListenersNotify is the notification latency of the changes made while
// Min to Max subscriptions (Max 0: no upper bound) were open for the
// changed URI (subscriptions.notify_by_listeners): the fan-out's cost, one
// row per bucket of listeners that had a notification. The HTML report
// draws it as the fan-out chart; rows are filled where the listeners'
// accounting records them by listener count.
type ListenersNotify struct {
	Listeners string        `json:"listeners"`
	Min       int           `json:"min"`
	Max       int           `json:"max"`
	Latency   stats.Latency `json:"latency"`
}
