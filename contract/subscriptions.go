package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
)

// The subscription rows (docs/check.md, subscriptions): the rules of the
// freshness loop a host relies on, checked on one subscription and one
// change at a time. A server that does not offer resources.subscribe is
// not applicable, never failed.
const (
	rowSubAck     = "subscribe ack"     // acknowledged, and nothing before the acknowledgement
	rowSubIDs     = "subscription ids"  // 2026-07-28: every notification carries the listen request's id
	rowSubTypes   = "requested types"   // no notification type that was not asked for
	rowSubURI     = "subscribed uri"    // a resources/updated names a subscribed uri
	rowSubStopped = "unsubscribe stops" // no notification of a document after its unsubscribe (or the listen's cancel)
)

// subscriptionRows are the rows, in report order.
func subscriptionRows() []string {
	return []string{rowSubAck, rowSubIDs, rowSubTypes, rowSubURI, rowSubStopped}
}

// Documents the rows subscribe to on a server that serves any sim: URI.
const (
	simSubFirst  = "sim:///readbench-check/followed-a.md?mime=text/markdown&size=256"
	simSubSecond = "sim:///readbench-check/followed-b.md?mime=text/markdown&size=256"
	defaultTouch = "touch" // the change tool used when the server lists one of this name
)

// heard collects a subscription's notifications and says when one came.
type heard struct {
	mu    sync.Mutex
	notes []client.Notification
	came  chan struct{} // a signal per resources/updated, never blocking
}

func newHeard() *heard { return &heard{came: make(chan struct{}, 1)} }

func (h *heard) on(n client.Notification) {
	h.mu.Lock()
	h.notes = append(h.notes, n)
	h.mu.Unlock()
	if n.Method == protocol.NotifyResourceUpdated {
		select {
		case h.came <- struct{}{}:
		default:
		}
	}
}

// all is what came so far.
func (h *heard) all() []client.Notification {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.notes)
}

// waitFor waits until ok holds for what came, at most d; it reports
// whether it did.
func (h *heard) waitFor(ctx context.Context, d time.Duration, ok func([]client.Notification) bool) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for !ok(h.all()) {
		select {
		case <-h.came:
		case <-t.C:
			return ok(h.all())
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// subscriptions checks the subscription rows: one subscription to a
// document, changes made to it (a tool taking {uri}: --change-tool, or
// touch when the server lists one), then the subscription closed and
// another opened to a second document, which is changed after the first.
func (c *checker) subscriptions(ctx context.Context) {
	all := func(st results.CheckStatus, why string) {
		for _, r := range subscriptionRows() {
			c.rep.add(r, st, "", why)
		}
	}
	if caps := c.s.Capabilities(); caps.Known && !caps.Subscribe {
		all(results.CheckNA, "the server does not declare resources.subscribe")
		return
	}
	first, second := c.subscribeURIs()
	if first == "" {
		all(results.CheckSkip, "nothing listed to subscribe to")
		return
	}
	h := newHeard()
	sctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	sub, err := c.s.Subscribe(sctx, client.SubscribeSpec{URIs: []string{first}}, h.on)
	cancel()
	switch {
	case errors.Is(err, client.ErrSubscriptionsUnsupported):
		all(results.CheckNA, err.Error())
		return
	case noStream(err):
		// The subscription was never asked for: the stream its
		// notifications would come on could not be opened. No row can be
		// judged; the detail says what a host would meet.
		all(results.CheckSkip, "cannot subscribe: "+err.Error())
		return
	case err != nil:
		c.rep.add(rowSubAck, results.CheckFail, first, "no acknowledgement: "+err.Error())
		for _, r := range subscriptionRows()[1:] {
			c.rep.add(r, results.CheckSkip, first, "the subscription was never acknowledged")
		}
		return
	}
	tool := c.changeTool(ctx)
	// Two changes, each waited for: whatever the server sent after the
	// first one's notification (an un-requested type, say) has come by the
	// second's, on the same stream.
	changed := tool != ""
	for i := 1; changed && i <= 2; i++ {
		changed = c.change(ctx, tool, first) == nil
		if changed && !h.waitFor(ctx, c.o.Timeout, func(ns []client.Notification) bool { return updates(ns, "") >= i }) {
			break
		}
	}
	sent, acked := sub.AckTimes()
	c.judgeHeard(h.all(), first, acked.Sub(sent), changed, tool)
	c.stops(ctx, sub, tool, first, second)
}

// noStream says whether err is a legacy Streamable HTTP session's
// standalone GET stream refused (a server that declares
// resources.subscribe and answers that GET 405): readbench opens it before
// it subscribes, so the server was never asked.
func noStream(err error) bool {
	var r *client.RefusedError
	return errors.As(err, &r) && strings.HasPrefix(r.Method, "GET")
}

// subscribeURIs are the two documents the rows subscribe to: fixed sim:
// URIs on the simulated server, else the first two listed (the second
// "" when only one is).
func (c *checker) subscribeURIs() (first, second string) {
	if c.sim {
		return simSubFirst, simSubSecond
	}
	if len(c.listed) > 0 {
		first = c.listed[0].URI
	}
	if len(c.listed) > 1 {
		second = c.listed[len(c.listed)-1].URI
	}
	return first, second
}

// judgeHeard adds the ack, ids, types and uri rows from what the first
// subscription heard.
func (c *checker) judgeHeard(ns []client.Notification, uri string, ack time.Duration, changed bool, tool string) {
	flagged := func(f client.Flags) (n int, first client.Notification) {
		for _, x := range ns {
			if x.Flags&f != 0 {
				if n == 0 {
					first = x
				}
				n++
			}
		}
		return n, first
	}
	n := updates(ns, "")
	ns = slices.DeleteFunc(ns, func(x client.Notification) bool { return x.Method == protocol.NotifySubscriptionsAcked })
	if k, x := flagged(client.BeforeAck); k > 0 {
		c.rep.add(rowSubAck, results.CheckFail, uri, fmt.Sprintf("%d notifications before the acknowledgement, the first %s", k, describeNote(x)))
	} else {
		c.rep.add(rowSubAck, results.CheckPass, uri, fmt.Sprintf("acknowledged in %s, nothing before it", numfmt.Duration(ack)))
	}
	unseen := "no change could be made to judge it: the server lists no tool named " + defaultTouch + " (--change-tool NAME, a tool taking {uri})"
	if tool != "" {
		unseen = fmt.Sprintf("no notification came within %s of a change made with %s", numfmt.Duration(c.o.Timeout), tool)
		if !changed {
			unseen = "the change tool " + tool + " failed: nothing to judge"
		}
	}
	rows := []struct {
		name string
		flag client.Flags
		na   string
		what string
	}{
		{rowSubIDs, client.NoSubscriptionID | client.WrongSubscriptionID, legacyNoID(c.s.Modern()), "without the listen request's subscriptionId"},
		{rowSubTypes, client.UnaskedType, "", "of a type that was not asked for"},
		{rowSubURI, client.UnsubscribedURI, "", "naming no subscribed uri"},
	}
	for _, r := range rows {
		k, x := flagged(r.flag)
		switch {
		case r.na != "":
			c.rep.add(r.name, results.CheckNA, uri, r.na)
		case k > 0:
			c.rep.add(r.name, results.CheckFail, uri, fmt.Sprintf("%d of %d notifications %s, the first %s", k, len(ns), r.what, describeNote(x)))
		case n == 0:
			c.rep.add(r.name, results.CheckSkip, uri, unseen)
		default:
			c.rep.add(r.name, results.CheckPass, uri, fmt.Sprintf("%d notifications, none %s", len(ns), r.what))
		}
	}
}

// legacyNoID is why the ids row is not applicable ("" in the 2026-07-28
// era, where it is).
func legacyNoID(modern bool) string {
	if modern {
		return ""
	}
	return "the handshake era's notifications carry no subscriptionId"
}

// updates counts the resources/updated in ns naming uri ("": any).
func updates(ns []client.Notification, uri string) int {
	n := 0
	for _, x := range ns {
		if x.Method == protocol.NotifyResourceUpdated && (uri == "" || x.URI == uri) {
			n++
		}
	}
	return n
}

// describeNote is a notification in a row's words.
func describeNote(n client.Notification) string {
	s := n.Method
	if n.URI != "" {
		s += " " + n.URI
	}
	if n.SubscriptionID != nil {
		s += " subscriptionId " + string(n.SubscriptionID)
	}
	return s + " (" + n.Flags.String() + ")"
}

// changeTool is the tool that changes a document: --change-tool, or
// touch when tools/list has it ("" when neither).
func (c *checker) changeTool(ctx context.Context) string {
	if c.o.ChangeTool != "" {
		return c.o.ChangeTool
	}
	found := ""
	_, _ = c.s.Paginate(ctx, protocol.MethodToolsList, maxToolPages, c.o.Timeout, func(raw json.RawMessage) (string, error) {
		var res struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return "", err
		}
		for _, t := range res.Tools {
			if t.Name == defaultTouch {
				found = t.Name
			}
		}
		return res.NextCursor, nil
	})
	return found
}

// change calls tool with {uri} (as a run's changes do: the request
// carries the tool's name where the era wants it in a header); an error
// answer or isError fails.
func (c *checker) change(ctx context.Context, tool, uri string) error {
	cctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	req, err := c.s.NewRequest(protocol.MethodToolsCall, tool, map[string]any{"name": tool, "arguments": map[string]any{"uri": uri}})
	if err != nil {
		return err
	}
	resp, err := c.s.Do(cctx, req)
	if err != nil {
		return err
	}
	m, err := protocol.Decode(resp.Body)
	switch {
	case err != nil:
		return err
	case m.Error != nil:
		return m.Error
	}
	var res struct {
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		return fmt.Errorf("%s: result: %w", tool, err)
	}
	if res.IsError {
		return fmt.Errorf("%s answered isError: %.200s", tool, m.Result)
	}
	return nil
}
