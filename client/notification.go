package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Notification is one message a subscription received, as it arrived: what
// a load run times against the change that caused it and counts. The
// client judges on its own what it can (Flags); judging what it cannot
// (was the change real, was the notification late) is the driver's.
type Notification struct {
	// Method is the notification's method: protocol.NotifyResourceUpdated,
	// protocol.NotifyResourcesListChanged, protocol.NotifySubscriptionsAcked
	// (2026-07-28: the acknowledgement is delivered too, first), or another
	// method a server sent on a listen stream (flagged UnaskedType). "" for
	// a message that could not be read at all (flagged Unreadable).
	Method string
	// URI is notifications/resources/updated's params.uri ("" otherwise).
	URI string
	// SubscriptionID is _meta["io.modelcontextprotocol/subscriptionId"]
	// exactly as received (raw JSON: 7, "7"); nil when absent.
	SubscriptionID json.RawMessage
	// At is when the message was whole and parsed, on the reader of the
	// stream that carried it, before any queueing: the arrival time a
	// change is timed against.
	At time.Time
	// Flags are the protocol violations the client sees in it (0: none).
	Flags Flags
}

// Flags are the ways a notification breaks the protocol that the client
// can tell by itself; a Notification carries any number of them.
type Flags uint16

const (
	// BeforeAck: it arrived before the subscription was acknowledged
	// (2026-07-28: before notifications/subscriptions/acknowledged, which
	// must be the stream's first message; legacy, on a stream that orders
	// both (stdio, HTTP+SSE): before resources/subscribe's answer).
	BeforeAck Flags = 1 << iota
	// NoSubscriptionID: a 2026-07-28 notification without
	// _meta["io.modelcontextprotocol/subscriptionId"].
	NoSubscriptionID
	// WrongSubscriptionID: a 2026-07-28 notification whose subscriptionId
	// is not the id of the listen request it was delivered for.
	WrongSubscriptionID
	// UnaskedType: a notification type the subscription did not ask for
	// (2026-07-28: or asked for and not acknowledged), or a message on a
	// listen stream that is no notification of a subscription at all.
	UnaskedType
	// UnsubscribedURI: notifications/resources/updated for a uri the
	// subscription does not hold (2026-07-28: not in the acknowledgement),
	// or with no uri.
	UnsubscribedURI
	// Unreadable: a message that is not JSON-RPC, or passed the size bound
	// of a notification (maxNotification); Method is then "".
	Unreadable
)

// flagNames are the Flags' names, in bit order, as String writes them.
var flagNames = [...]string{"before-ack", "no-subscription-id", "wrong-subscription-id", "unasked-type", "unsubscribed-uri", "unreadable"}

// String names the flags set, comma-separated ("" for none).
func (f Flags) String() string {
	var b strings.Builder
	for i, name := range flagNames {
		if f&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(name)
		}
	}
	return b.String()
}

// maxNotification bounds the bytes of one message kept to be read as a
// notification: a notification is a few hundred bytes; a bigger message on
// a subscription's stream is delivered as Unreadable, never buffered whole.
const maxNotification = 64 << 10

// notice is one message of a subscription's stream, read: a notification,
// or (on a 2026-07-28 listen stream) the listen request's answer, or a
// request from the server.
type notice struct {
	method   string
	id       json.RawMessage // a request's or a response's id (nil for a notification)
	response bool            // a result or an error member
	rpcErr   *protocol.Error // the response's error (nil for a result)
	uri      string
	hasURI   bool
	subID    json.RawMessage // _meta's subscriptionId, copied (nil: absent)
	acked    protocol.NotificationSubscriptions
}

// noticeParams are the params of every subscription notification, read at
// once: uri (updated), notifications (acknowledged) and _meta's
// subscriptionId.
type noticeParams struct {
	URI           *string                            `json:"uri"`
	Notifications protocol.NotificationSubscriptions `json:"notifications"`
	Meta          struct {
		SubscriptionID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
	} `json:"_meta"`
}

// readNotice reads one message of a subscription's stream. It is outside
// input: any bytes give a notice or an error (the message is then
// Unreadable), never a panic (FuzzReadNotice). Nothing of msg is kept: the
// caller's buffer is reused for the next message.
//
// The params of the usual notification (a uri, _meta's subscriptionId)
// are read in the message's one decoding pass (protocol.DecodeVisit, see
// noticeVisit), without encoding/json: its reflection allocates per
// notification and its recursion grows the stack of the goroutine that
// reads the stream — thousands of them, each parked between
// notifications with the stack its last notification grew (a collection
// halves an idle stack at most once per cycle). Anything else is read by
// encoding/json (noticeParamsJSON), whose reading stands
// (FuzzReadNoticeVisit holds the two together).
func readNotice(msg []byte) (notice, error) {
	v := &noticeVisit{}
	m, visited, err := protocol.DecodeVisit(msg, v.visit)
	if err != nil {
		return notice{}, err
	}
	n := notice{method: m.Method, response: m.Method == "" && (m.Result != nil || m.Error != nil), rpcErr: m.Error}
	if len(m.ID) > 0 {
		n.id = bytes.Clone(m.ID)
	}
	if n.method == "" || len(m.Params) == 0 || string(m.Params) == "null" {
		return n, nil
	}
	if !visited {
		noticeParamsJSON(&n, m.Params)
		return n, nil
	}
	n.uri, n.hasURI = v.uri, v.hasURI
	if len(v.subID) > 0 && string(v.subID) != "null" {
		n.subID = bytes.Clone(v.subID)
	}
	return n, nil
}

// noticeParamsJSON reads params into n by encoding/json (noticeParams).
func noticeParamsJSON(n *notice, params json.RawMessage) {
	var p noticeParams
	if err := json.Unmarshal(params, &p); err != nil {
		// Params that are not the expected shape (a uri that is a number,
		// params an array): the method stands, its params are not readable.
		n.subID = metaSubscriptionID(params)
		return
	}
	if p.URI != nil {
		n.uri, n.hasURI = *p.URI, true
	}
	n.acked = p.Notifications
	if len(p.Meta.SubscriptionID) > 0 && string(p.Meta.SubscriptionID) != "null" {
		n.subID = bytes.Clone(p.Meta.SubscriptionID)
	}
}

// errNoticeJSON stops noticeVisit's visits: the params are left to
// encoding/json.
var errNoticeJSON = errors.New("params left to encoding/json")

// noticeVisit reads the params of a notification member by member, as
// protocol.DecodeVisit hands them over, the way encoding/json reads them
// into noticeParams: the last of repeated members wins, a null uri is
// none. Whatever encoding/json might read differently is left to it
// (errNoticeJSON): a key with an escape or in another letter case than
// the one noticeParams spells (encoding/json folds case), a uri that is
// not a plain string, a _meta that is not an object, a repeated _meta
// (encoding/json merges them), and notifications (the 2026-07-28
// acknowledgement, once per stream).
type noticeVisit struct {
	uri    string
	hasURI bool
	subID  []byte // raw, a slice of the message's own copy
	metas  int
}

func (v *noticeVisit) visit(parent, key, value []byte) error {
	if bytes.IndexByte(key, '\\') >= 0 || bytes.IndexByte(parent, '\\') >= 0 {
		return errNoticeJSON
	}
	if parent != nil {
		switch {
		case string(parent) != "_meta":
			if strings.EqualFold(string(parent), "_meta") {
				return errNoticeJSON
			}
		case string(key) == protocol.MetaSubscriptionID:
			v.subID = value
		case strings.EqualFold(string(key), protocol.MetaSubscriptionID):
			return errNoticeJSON
		}
		return nil
	}
	switch string(key) {
	case "uri":
		if string(value) == "null" {
			v.uri, v.hasURI = "", false
			return nil
		}
		s, ok := protocol.Unquote(value)
		if !ok {
			return errNoticeJSON
		}
		v.uri, v.hasURI = s, true
	case "_meta":
		if v.metas++; v.metas > 1 || (value[0] != '{' && string(value) != "null") {
			return errNoticeJSON
		}
	default:
		k := string(key)
		if strings.EqualFold(k, "uri") || strings.EqualFold(k, "_meta") || strings.EqualFold(k, "notifications") {
			return errNoticeJSON
		}
	}
	return nil
}

// metaSubscriptionID digs the subscriptionId out of params whose other
// members did not read (nil when it cannot be found).
func metaSubscriptionID(params json.RawMessage) json.RawMessage {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	v, ok := p.Meta[protocol.MetaSubscriptionID]
	if !ok || string(v) == "null" {
		return nil
	}
	return bytes.Clone(v)
}

// sameID reports whether a raw subscriptionId names the listen request
// whose integer id is want: 7 does, and so does "7" (a server that keeps
// ids as strings names the same request; JSON-RPC ids may be either).
func sameID(raw json.RawMessage, want int64) bool {
	if n, ok := protocol.ParseIntID(raw); ok {
		return n == want
	}
	if s, ok := protocol.Unquote(raw); ok {
		n, ok := protocol.ParseIntID([]byte(s))
		return ok && n == want
	}
	return false
}

// subscriptionMethod reports whether method is a notification that only a
// subscription asks for.
func subscriptionMethod(method string) bool {
	switch method {
	case protocol.NotifyResourceUpdated, protocol.NotifyResourcesListChanged, protocol.NotifySubscriptionsAcked:
		return true
	}
	return false
}
