package client

import "context"

// testRead is one whole resources/read through the session's transport,
// the way ReadDocument's readWhole makes it, returning the transport's own
// Response (with the Answer it was classified into, Response.read) and
// its own error, whose type the tests of the transports look at. digest
// asks for Answer.Digest.
func (s *Session) testRead(ctx context.Context, uri string, digest ...bool) (*Response, error) {
	return s.read(ctx, &readSpec{uri: uri, modern: s.modern, digest: len(digest) > 0 && digest[0]})
}

// scanned is the Answer the scanner concludes once every byte was fed
// (answer), by value, for the tests and benchmarks of the scanner.
func (s *answerScanner) scanned(uri string, modern bool) Answer {
	var a Answer
	s.answer(&a, uri, modern)
	return a
}
