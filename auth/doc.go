// Package auth is readbench's OAuth client for MCP authorization: a
// server's challenge, its metadata, the grants (the machine grants, and
// the authorization code flow with PKCE for a person), tokens kept fresh
// through a run and cached per target (docs/auth.md).
//
// It is apart from the MCP client so that the client knows nothing of
// grants or metadata: it asks a Tokens for the bearer token of every HTTP
// request and says when the server refused one. What obtaining tokens cost
// a run is the list of Requests a Tokens made, which the driver turns into
// the result's auth block.
package auth
