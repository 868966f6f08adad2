package stats

// Listening is what a run's listeners recorded (docs/results.md,
// subscriptions): how many listened, how their streams opened, were
// refused and ended, what the notifications broke, the changes readbench
// made and the re-reads the notifications started, beside the
// freshness accounting itself (Freshness, summed up at the run's end).
// The counts are in the result's own form, so that the result keeps them
// as they are; the histograms are exported when the result is built. A
// run without listeners has none (nil).
type Listening struct {
	// Mode is how the listeners subscribed: ModeListen (2026-07-28
	// subscriptions/listen) or ModeSubscribe (legacy resources/subscribe);
	// "" when no listener's session opened.
	Mode       string
	Listeners  ListenerCounts
	Streams    StreamCounts
	Violations Violations
	// Unrouted are the notifications no open subscription of a listener
	// took (client.Session.Unrouted): after a close, for an unknown
	// subscription, list changes nobody asked for.
	Unrouted int64
	Changes  ChangeCounts
	// ChangeLag is each change's scheduling lag: its request's send minus
	// its intended time, as the reads' lag.
	ChangeLag *Histogram
	Rereads   RereadCounts
	Freshness FreshnessSummary
	// Lifetime is each acknowledged subscription's life, its
	// acknowledgement to its end (those readbench closed end at the run's
	// end: a lifetime as long as the run means "outlived it").
	Lifetime *Histogram
}

// The modes of Listening.Mode.
const (
	ModeListen    = "listen"
	ModeSubscribe = "subscribe"
)

// ListenerCounts count the listening sessions.
type ListenerCounts struct {
	Asked     int64 `json:"asked"`     // listen.listeners
	Connected int64 `json:"connected"` // sessions that opened
	Failed    int64 `json:"failed"`    // sessions that did not open (not started when the run ended included)
	Listening int64 `json:"listening"` // connected, with at least one subscription acknowledged
}

// StreamCounts count the subscriptions the listeners asked for: one a
// stream (2026-07-28: listen.streams per listener; legacy: one per
// listener, whatever streams says). Each asked ends exactly one way:
// opened, refused, not applicable or failed.
type StreamCounts struct {
	Asked   int64          `json:"asked"`
	Opened  int64          `json:"opened"` // acknowledged
	Refused StreamRefusals `json:"refused"`
	// NotApplicable: the server does not offer subscriptions (no
	// resources.subscribe capability, or -32601): not a failure.
	NotApplicable int64 `json:"not_applicable"`
	// Failed: no acknowledgement and no refusal (a transport error, the
	// acknowledgement's wait timed out, the run ended first). A re-listen
	// after a drop whose wait the run's end cut is withdrawn: not counted
	// as asked.
	Failed int64         `json:"failed"`
	Ended  StreamEndings `json:"ended"` // how the opened ones ended
	// Reconnects are streams opened again after the server or the network
	// ended one: 2026-07-28, a subscriptions/listen sent again after a
	// short backoff (each also counted in asked and ending one way);
	// legacy Streamable HTTP, the standalone GET stream reopened after the
	// server's retry, with Last-Event-ID when its events had ids.
	Reconnects int64 `json:"reconnects"`
	// KeepAlives are the SSE comment lines (": …") the subscriptions'
	// streams carried: the server's keep-alives, which is what keeps a
	// proxy's idle timeout from cutting a quiet stream.
	KeepAlives int64 `json:"keepalives"`
}

// StreamRefusals are subscriptions the server refused before
// acknowledging them, by how.
type StreamRefusals struct {
	// LimitReached: -32603 "Subscription limit reached" (inside an HTTP
	// 200 over Streamable HTTP, as the TypeScript SDK sends it).
	LimitReached int64 `json:"limit_reached"`
	HTTP         int64 `json:"http_error"` // an HTTP error status
	RPC          int64 `json:"rpc_error"`  // any other JSON-RPC error answer
}

// StreamEndings are how the acknowledged subscriptions ended
// (client.EndReason).
type StreamEndings struct {
	Closed  int64 `json:"closed"`  // by readbench, at the run's end
	Server  int64 `json:"server"`  // the server ended it gracefully
	Refused int64 `json:"refused"` // the server answered with an error after acknowledging it
	Dropped int64 `json:"dropped"` // its stream ended without an answer
}

// Violations count the notifications each protocol violation was seen
// on (client.Flags; a notification may carry several).
type Violations struct {
	BeforeAck           int64 `json:"before_ack"`
	NoSubscriptionID    int64 `json:"no_subscription_id"`
	WrongSubscriptionID int64 `json:"wrong_subscription_id"`
	UnaskedType         int64 `json:"unasked_type"`
	UnsubscribedURI     int64 `json:"unsubscribed_uri"`
	Unreadable          int64 `json:"unreadable"`
}

// Total is every violation seen.
func (v Violations) Total() int64 {
	return v.BeforeAck + v.NoSubscriptionID + v.WrongSubscriptionID + v.UnaskedType + v.UnsubscribedURI + v.Unreadable
}

// ChangeCounts describe the changes readbench made.
type ChangeCounts struct {
	Via  string  `json:"via"`  // tool, http, command or server
	Rate float64 `json:"rate"` // changes per second asked (0: none asked; via server: as expected of it)
}

// RereadCounts count the re-reads notifications started.
type RereadCounts struct {
	Class string `json:"class"` // the class they are recorded as
	Made  int64  `json:"made"`  // re-reads sent (scheduled), recorded as reads
	// SkippedFresh are re-reads not sent because the listener's last
	// answer's ttlMs said the document was still fresh (honour_ttl): the
	// reads a host honouring the hints saves.
	SkippedFresh int64 `json:"skipped_fresh"`
	// WouldSkip are, with honour_ttl false, the re-reads sent while the
	// last answer was still fresh: what honouring the hints would save.
	WouldSkip int64 `json:"would_skip"`
	// SkippedScope are re-reads not sent because a cache honouring
	// cacheScope answered them (honour_scope): the listener's own, with
	// an earlier answer of the same version (document and change) whose
	// scope was "public" or "private", or the cache shared between the
	// listeners, with another listener's answer of it whose scope was
	// "public". The origin reads such caches save. A re-read the ttl
	// counts (SkippedFresh, WouldSkip) is never counted here.
	SkippedScope int64 `json:"skipped_scope"`
	// WouldSkipScope are, with honour_scope false, the re-reads sent that
	// those caches would have answered: what honouring cacheScope would
	// save on top of what honouring ttlMs does.
	WouldSkipScope int64 `json:"would_skip_scope"`
}

// NewListening returns an empty Listening.
func NewListening() *Listening {
	out := &Listening{ChangeLag: NewHistogram(), Lifetime: NewHistogram(), Freshness: FreshnessSummary{Ack: NewHistogram(), Notify: NewHistogram(), Spread: NewHistogram(),
		NotifyByClass: map[string]*Histogram{}, NotifyByListeners: make([]*Histogram, NumListenerBuckets)}}
	for i := range out.Freshness.NotifyByListeners {
		out.Freshness.NotifyByListeners[i] = NewHistogram()
	}
	return out
}

// Merge adds o (another shard's) into l: every count adds and every
// histogram merges, so the merged accounting is exact and its identity
// holds when each shard's did; the timelines add second by second, so
// the caller places each on the run's clock first.
func (l *Listening) Merge(o *Listening) {
	if l.Mode == "" {
		l.Mode = o.Mode
	}
	add := func(dst *int64, v int64) { *dst += v }
	a, b := &l.Listeners, o.Listeners
	add(&a.Asked, b.Asked)
	add(&a.Connected, b.Connected)
	add(&a.Failed, b.Failed)
	add(&a.Listening, b.Listening)
	s, t := &l.Streams, o.Streams
	for _, p := range []struct {
		dst *int64
		v   int64
	}{
		{&s.Asked, t.Asked}, {&s.Opened, t.Opened}, {&s.NotApplicable, t.NotApplicable}, {&s.Failed, t.Failed},
		{&s.Refused.LimitReached, t.Refused.LimitReached}, {&s.Refused.HTTP, t.Refused.HTTP}, {&s.Refused.RPC, t.Refused.RPC},
		{&s.Ended.Closed, t.Ended.Closed}, {&s.Ended.Server, t.Ended.Server}, {&s.Ended.Refused, t.Ended.Refused}, {&s.Ended.Dropped, t.Ended.Dropped},
		{&s.Reconnects, t.Reconnects}, {&s.KeepAlives, t.KeepAlives},
		{&l.Violations.BeforeAck, o.Violations.BeforeAck}, {&l.Violations.NoSubscriptionID, o.Violations.NoSubscriptionID},
		{&l.Violations.WrongSubscriptionID, o.Violations.WrongSubscriptionID}, {&l.Violations.UnaskedType, o.Violations.UnaskedType},
		{&l.Violations.UnsubscribedURI, o.Violations.UnsubscribedURI}, {&l.Violations.Unreadable, o.Violations.Unreadable},
		{&l.Unrouted, o.Unrouted},
		{&l.Rereads.Made, o.Rereads.Made}, {&l.Rereads.SkippedFresh, o.Rereads.SkippedFresh}, {&l.Rereads.WouldSkip, o.Rereads.WouldSkip},
		{&l.Rereads.SkippedScope, o.Rereads.SkippedScope}, {&l.Rereads.WouldSkipScope, o.Rereads.WouldSkipScope},
	} {
		add(p.dst, p.v)
	}
	if l.Changes.Via == "" {
		l.Changes.Via = o.Changes.Via
	}
	// The shards of a run share one schedule of changes (readbench's first
	// shard makes them, the others record them: docs/results.md): the
	// changes, their rate and their failures are the schedule's, not a
	// sum over shards.
	l.Changes.Rate = max(l.Changes.Rate, o.Changes.Rate)
	if l.Rereads.Class == "" {
		l.Rereads.Class = o.Rereads.Class
	}
	l.Freshness.Counts.add(o.Freshness.Counts)
	for _, p := range []struct{ dst, src *Histogram }{
		{l.ChangeLag, o.ChangeLag}, {l.Freshness.Ack, o.Freshness.Ack}, {l.Freshness.Notify, o.Freshness.Notify}, {l.Freshness.Spread, o.Freshness.Spread},
		{l.Lifetime, o.Lifetime},
	} {
		if p.dst != nil && p.src != nil {
			p.dst.Merge(p.src)
		}
	}
	l.Freshness.mergeBreakdowns(o.Freshness)
	l.Freshness.Timeline = addListenSeconds(l.Freshness.Timeline, o.Freshness.Timeline)
}

// mergeBreakdowns adds o's notification latency by class and by listener
// count into s, making what s lacks.
func (s *FreshnessSummary) mergeBreakdowns(o FreshnessSummary) {
	if s.NotifyByClass == nil {
		s.NotifyByClass = map[string]*Histogram{}
	}
	for name, h := range o.NotifyByClass {
		if s.NotifyByClass[name] == nil {
			s.NotifyByClass[name] = NewHistogram()
		}
		s.NotifyByClass[name].Merge(h)
	}
	for len(s.NotifyByListeners) < len(o.NotifyByListeners) {
		s.NotifyByListeners = append(s.NotifyByListeners, NewHistogram())
	}
	for i, h := range o.NotifyByListeners {
		if h != nil {
			s.NotifyByListeners[i].Merge(h)
		}
	}
}

// add adds o's counts to c.
func (c *FreshnessCounts) add(o FreshnessCounts) {
	c.Changes = max(c.Changes, o.Changes) // one schedule: see Listening.Merge
	c.Failed = max(c.Failed, o.Failed)
	c.Subscriptions += o.Subscriptions
	c.Notifications += o.Notifications
	c.Expected += o.Expected
	c.Notified += o.Notified
	c.Coalesced += o.Coalesced
	c.Missed += o.Missed
	c.Duplicates += o.Duplicates
	c.Spontaneous += o.Spontaneous
	c.Unsubscribed += o.Unsubscribed
	c.LostInGaps += o.LostInGaps
}
