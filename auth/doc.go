// Package auth is readbench's OAuth client for MCP authorization: reading a
// server's challenge, discovering its protected resource and authorization
// server metadata, obtaining tokens (the machine grants, and the
// authorization code flow with PKCE for a person), keeping them fresh
// through a run, and caching them per target.
//
// The client package asks a Tokens for the bearer token of every HTTP
// request and tells it when the server refused one; it knows nothing of
// grants or metadata. What obtaining tokens cost a run is the list of
// Requests a Tokens made, which the driver turns into the result's auth
// block (a Sequence splits them among runs that share one Tokens). Login
// proves its token with a check its caller passes in (LoginConfig.Check:
// a session of the client package, made by runner.LoginCheck).
//
// auth never imports client, driver, workload, stats, results, report,
// contract or simserver.
package auth
