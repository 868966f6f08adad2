package protocol

// The freshness loop around a read: a client asks to be told when a
// document changes, the server tells it, and the client reads it again.
// Two eras, as for reads (docs/subscriptions.md):
//
//   - Legacy (2024-11-05 … 2025-11-25): resources/subscribe {uri} is
//     answered at once; notifications/resources/updated {uri} then come on
//     the session's standalone GET stream (Streamable HTTP), on the SSE
//     stream (HTTP+SSE) or on stdout (stdio); resources/unsubscribe {uri}
//     stops them. A server that can advertises capabilities.resources.subscribe.
//   - 2026-07-28 (SEP-2575): subscriptions/listen {notifications: {...}} is
//     one long-lived request whose answer stream carries the notifications
//     (over Streamable HTTP, the POST's SSE response). The server's first
//     message on it must be notifications/subscriptions/acknowledged with
//     the subset it will honour; every notification on it carries the
//     listen request's id in _meta[MetaSubscriptionID]; it must not send a
//     type the client did not ask for. The stream is not resumable: after a
//     drop the client listens again. The client ends it by closing the
//     stream (HTTP) or with notifications/cancelled (stdio); a server that
//     ends it gracefully answers the request with an empty result.

// Method and notification names of subscriptions.
const (
	MethodSubscribe            = "resources/subscribe"
	MethodUnsubscribe          = "resources/unsubscribe"
	MethodSubscriptionsListen  = "subscriptions/listen"
	NotifySubscriptionsAcked   = "notifications/subscriptions/acknowledged"
	NotifyResourceUpdated      = "notifications/resources/updated"
	NotifyResourcesListChanged = "notifications/resources/list_changed"
	// NotifyToolsListChanged is named here because a listen stream must
	// not carry it unless the client asked (toolsListChanged): a server
	// that sends it anyway breaks the rule a client has to notice.
	NotifyToolsListChanged = "notifications/tools/list_changed"
)

// MetaSubscriptionID is the _meta key of a 2026-07-28 notification naming
// the subscriptions/listen request (its JSON-RPC id) it was sent for.
const MetaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// CodeSubscriptionLimit is not a code of its own: the TypeScript SDK
// refuses a listen stream past its limit with CodeInternal and the message
// SubscriptionLimitMessage, inside an HTTP 200, where a dashboard of HTTP
// statuses never sees it. A client tells it apart by the message.
const SubscriptionLimitMessage = "Subscription limit reached"

// NotificationSubscriptions is what a subscriptions/listen request asks
// for, and what its acknowledgement says the server will honour: each
// field an explicit opt-in.
type NotificationSubscriptions struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// ListenParams are subscriptions/listen's params (besides the era's
// per-request _meta, which the client adds as to every request).
type ListenParams struct {
	Notifications NotificationSubscriptions `json:"notifications"`
}

// AckedParams are notifications/subscriptions/acknowledged's params: the
// subset of what was asked that the server will honour.
type AckedParams struct {
	Notifications NotificationSubscriptions `json:"notifications"`
}

// SubscribeParams are resources/subscribe's and resources/unsubscribe's
// params (legacy era).
type SubscribeParams struct {
	URI string `json:"uri"`
}

// ResourceUpdatedParams are notifications/resources/updated's params, in
// both eras (a 2026-07-28 one also carries _meta[MetaSubscriptionID]).
type ResourceUpdatedParams struct {
	URI string `json:"uri"`
}
