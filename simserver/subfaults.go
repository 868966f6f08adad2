package simserver

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Subscription faults: a server that breaks the freshness loop's rules, so
// that readbench's verdicts on listeners can be tested against one. They
// are Wire values like the read's violations, enabled the same two ways:
// on one resource, by wire=MODE on a URI a listener follows (the stream or
// session that follows it misbehaves; a read of that URI is answered
// normally), or on every stream, by Options.SubscriptionFault (readbench
// serve --subscription-fault MODE). The limits that complete them are
// server-wide: Options.MaxListeners and Options.DropStreamsAfter.
const (
	// WireNoAck: a 2026-07-28 listen stream never sends
	// notifications/subscriptions/acknowledged (the notifications come
	// without it).
	WireNoAck Wire = "no_ack"
	// WireWrongSubscriptionID: every notification after the ack carries
	// another subscriptionId than the listen request's id (2026-07-28).
	WireWrongSubscriptionID Wire = "wrong_subscription_id"
	// WireNotifyBeforeAck: a notifications/resources/updated for the
	// first URI followed is sent before the ack (2026-07-28).
	WireNotifyBeforeAck Wire = "notify_before_ack"
	// WireUnrequested: with every notifications/resources/updated, a
	// notifications/tools/list_changed nobody asked for (both eras; the
	// server never advertises tools.listChanged).
	WireUnrequested Wire = "unrequested"
	// WireDuplicateNotify: every notifications/resources/updated is sent
	// twice (both eras).
	WireDuplicateNotify Wire = "duplicate_notify"
	// WireOtherURI: every notifications/resources/updated names another
	// uri than the one followed (the followed one with "#other" added):
	// a notification of a document nobody subscribed to (both eras).
	WireOtherURI Wire = "other_uri"
	// WireIgnoreUnsubscribe: an unsubscribe does not stop the
	// notifications: legacy resources/unsubscribe is answered and the
	// subscription kept; a 2026-07-28 listen over stdio ignores its
	// notifications/cancelled and keeps sending (over HTTP the client's
	// closing the stream ends it whatever the server wants).
	WireIgnoreUnsubscribe Wire = "ignore_unsubscribe"
)

// subscriptionFaults are the subscription faults, in the order the docs
// give them.
func subscriptionFaults() []Wire {
	return []Wire{WireNoAck, WireWrongSubscriptionID, WireNotifyBeforeAck, WireUnrequested, WireDuplicateNotify, WireOtherURI, WireIgnoreUnsubscribe}
}

// ParseSubscriptionFault is the fault a name gives (readbench serve
// --subscription-fault); "" is none.
func ParseSubscriptionFault(v string) (Wire, error) {
	w, err := parseWire(v)
	if v == "" || (err == nil && w.subscription()) {
		return w, nil
	}
	names := make([]string, 0, 7)
	for _, f := range subscriptionFaults() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown subscription fault %q: want one of %s", v, strings.Join(names, ", "))
}

// subscription reports whether w is a subscription fault.
func (w Wire) subscription() bool {
	for _, f := range subscriptionFaults() {
		if w == f {
			return true
		}
	}
	return false
}

// onRead is the violation a read of a URI with wire=w commits: none for a
// subscription fault, which is the listener's business.
func (w Wire) onRead() Wire {
	if w.subscription() {
		return WireNone
	}
	return w
}

// effective is the fault a note is rendered with: its URI's own, else
// the subscriber's.
func (sub *subscriber) effective(n note) Wire {
	if n.fault != WireNone {
		return n.fault
	}
	return sub.fault
}

// appendSubMeta appends the _meta members every notification of sub
// carries: in the 2026-07-28 era the subscriptionId (wrong with
// WireWrongSubscriptionID), then extra; the result has no trailing comma.
func (sub *subscriber) appendSubMeta(dst []byte, fault Wire, extra func([]byte) []byte) []byte {
	dst = append(dst, `"_meta":{`...)
	sep := false
	if sub.modern {
		id := sub.id
		if fault == WireWrongSubscriptionID {
			id = wrongID(id)
		}
		dst = append(dst, `"`+protocol.MetaSubscriptionID+`":`...)
		dst = append(dst, id...)
		sep = true
	}
	if extra != nil {
		if sep {
			dst = append(dst, ',')
		}
		dst = extra(dst)
	}
	return append(dst, '}')
}

// render is the messages a note becomes on sub's stream.
func (sub *subscriber) render(n note) [][]byte {
	fault := sub.effective(n)
	msg := make([]byte, 0, 192+len(n.uri)+len(sub.id))
	msg = append(msg, `{"jsonrpc":"2.0","method":"`+protocol.NotifyResourceUpdated+`","params":{"uri":`...)
	if fault == WireOtherURI {
		msg = appendJSONString(msg, n.uri+"#other")
	} else {
		msg = appendJSONString(msg, n.uri)
	}
	msg = append(msg, ',')
	msg = sub.appendSubMeta(msg, fault, func(b []byte) []byte {
		b = append(b, `"`+MetaChangeSeq+`":`...)
		b = strconv.AppendUint(b, n.ch.seq, 10)
		b = append(b, `,"`+MetaChangedAt+`":"`...)
		b = n.ch.at.UTC().AppendFormat(b, time.RFC3339Nano)
		return append(b, '"')
	})
	msg = append(msg, "}}"...)
	switch fault {
	case WireDuplicateNotify:
		return [][]byte{msg, msg}
	case WireUnrequested:
		return [][]byte{msg, sub.toolsListChanged()}
	}
	return [][]byte{msg}
}

// toolsListChanged is the un-requested notification of WireUnrequested.
func (sub *subscriber) toolsListChanged() []byte {
	msg := []byte(`{"jsonrpc":"2.0","method":"` + protocol.NotifyToolsListChanged + `"`)
	if sub.modern {
		msg = append(msg, `,"params":{`...)
		msg = sub.appendSubMeta(msg, WireNone, nil)
		msg = append(msg, '}')
	}
	return append(msg, '}')
}

// ack is the listen stream's first message: what it honours, with the
// subscriptionId in _meta as the official SDK sends it.
func (sub *subscriber) ack(honoured protocol.NotificationSubscriptions) []byte {
	msg := []byte(`{"jsonrpc":"2.0","method":"` + protocol.NotifySubscriptionsAcked + `","params":{"notifications":`)
	msg = append(msg, mustMarshal(honoured)...)
	msg = append(msg, ',')
	msg = sub.appendSubMeta(msg, WireNone, nil)
	return append(msg, "}}"...)
}
