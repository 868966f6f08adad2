package client

// ClassifyMessage says what a resources/read answer is, given the whole
// JSON-RPC response message that answered it (one JSON value, without
// its framing): the same scan, the same decision and the same digest as
// a read made by this client, so that what a proxy sees passing (package
// record) and what a replay of it reads are judged alike. uri is the
// request's, modern the era it was sent in (it decides what -32602
// means). The answer's WireBytes is len(msg); the caller adds the
// framing it knows of.
func ClassifyMessage(msg []byte, uri string, modern bool) Answer {
	a := scanWhole(msg, uri, modern, true)
	a.WireBytes = int64(len(msg))
	return a
}
