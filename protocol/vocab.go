package protocol

// Protocol versions, oldest first. Two eras: the legacy ones negotiate with
// initialize and keep sessions; 2026-07-28 is stateless (per-request _meta).
const (
	V20241105 = "2024-11-05"
	V20250326 = "2025-03-26"
	V20250618 = "2025-06-18"
	V20251125 = "2025-11-25"
	V20260728 = "2026-07-28"

	// Latest is the newest version readbench speaks; auto-detection tries it first.
	Latest = V20260728
	// LatestLegacy is the newest handshake-era version, offered when a server
	// turns out to be legacy.
	LatestLegacy = V20251125
)

// Versions lists every version readbench speaks, newest first, the order in
// which a client prefers them.
func Versions() []string {
	return []string{V20260728, V20251125, V20250618, V20250326, V20241105}
}

// IsKnownVersion reports whether v is one of Versions.
func IsKnownVersion(v string) bool {
	for _, k := range Versions() {
		if k == v {
			return true
		}
	}
	return false
}

// IsModern reports whether v belongs to the stateless era (no initialize,
// per-request _meta, not-found as -32602). Version strings are dates, so
// they compare as strings.
func IsModern(v string) bool { return v >= V20260728 }

// SimServerName is the serverInfo name of readbench's simulated server.
// It names the server in results; no client behaves differently on it
// (what a server can do is what it advertises: CapabilitySimURIs).
const SimServerName = "readbench-simserver"

// How a server says that it serves any sim: URI, synthesizing the
// resource the URI describes (sim:///NAME?mime=TYPE&size=BYTES...; see
// docs/workload.md, "On readbench's simulated server: synthesized"): over MCP an experimental capability
// (capabilities.experimental in the initialize or server/discover result)
// named CapabilitySimURIs; over plain HTTP a header HeaderSimURIs: 1 on
// its answers. readbench's simulated server advertises it, and any server
// may. A client that learns it synthesizes a workload's mime+size classes
// as sim: URIs instead of discovering them, and the contract check reads
// sim: URIs of its own choosing.
const (
	CapabilitySimURIs = "io.github.readbench/simURIs"
	HeaderSimURIs     = "Readbench-Sim-Uris"
)

// Method names used by a resources/read client and its server.
const (
	MethodInitialize        = "initialize"
	MethodInitialized       = "notifications/initialized"
	MethodDiscover          = "server/discover"
	MethodPing              = "ping"
	MethodResourcesRead     = "resources/read"
	MethodResourcesList     = "resources/list"
	MethodResourceTemplates = "resources/templates/list"
	MethodCancelled         = "notifications/cancelled"
	MethodToolsList         = "tools/list"
	MethodToolsCall         = "tools/call"
)

// HTTP header names of the Streamable HTTP transport. Go canonicalises
// header keys, so these are only the spelling used on the wire.
const (
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderLastEventID     = "Last-Event-ID"
)

// Content types of the HTTP transports.
const (
	ContentTypeJSON = "application/json"
	ContentTypeSSE  = "text/event-stream"
	// AcceptBoth is what a Streamable HTTP client sends on every POST.
	AcceptBoth = "application/json, text/event-stream"
)

// JSON-RPC and MCP error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	// CodeResourceNotFound is the legacy era's not-found; 2026-07-28 retired
	// it in favour of CodeInvalidParams.
	CodeResourceNotFound = -32002
	// Codes new in 2026-07-28; over HTTP they come with status 400.
	CodeHeaderMismatch             = -32020
	CodeMissingClientCapability    = -32021
	CodeUnsupportedProtocolVersion = -32022
)

// _meta keys of the stateless era.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// Result types of the stateless era; an absent resultType means complete.
const (
	ResultComplete      = "complete"
	ResultInputRequired = "input_required"
)
