package client

// What each value of an answer is to the classification: the role of a
// member follows from the object it is in and its name, the role of an
// element from its array; a value's first byte starts what its role
// means (a new result, contents, entry or payload, the last of a repeated
// member winning).

// objectRole is the role of an object value with role r.
func objectRole(r uint8) uint8 {
	switch r {
	case rResult:
		return rResultObj
	case rEntry:
		return rEntryObj
	case rCapture:
		return rCaptureObj
	}
	return rSkip
}

// arrayRole is the role of an array value with role r.
func arrayRole(r uint8) uint8 {
	switch r {
	case rContents:
		return rContentArr
	case rCapture:
		return rCaptureArr
	}
	return rSkipArr
}

// elementRole is the role of the next element of the array on top.
func (s *answerScanner) elementRole() uint8 {
	switch s.stack[s.depth-1] {
	case rContentArr:
		return rEntry
	case rCaptureArr:
		return rCapture
	}
	return rSkip
}

// memberRole is the role of the value of the member whose name was just
// read, from the object it belongs to.
func (s *answerScanner) memberRole() uint8 {
	var k []byte // "" for a name too long to be one readbench looks for
	if s.keyLen <= len(s.key) {
		k = s.key[:s.keyLen]
	}
	if s.stack[s.depth-1] == rCaptureObj {
		return rCapture // inside a value being captured: keep what it is
	}
	s.capWhat = capNone
	set := func(w uint8) uint8 { s.capWhat = w; return rCapture }
	switch s.stack[s.depth-1] {
	case rTop:
		switch string(k) { // compared in place, not copied
		case "result":
			return rResult
		case "error":
			return set(capError)
		case "id":
			return set(capID)
		case "method":
			return set(capMethod)
		}
	case rResultObj:
		switch string(k) {
		case "contents":
			return rContents
		case "resultType":
			return set(capResultType)
		case "ttlMs":
			return set(capTTL)
		case "cacheScope":
			return set(capScope)
		}
	case rEntryObj:
		switch string(k) {
		case "uri":
			return set(capURI)
		case "mimeType":
			return set(capMIME)
		case "text":
			return rText
		case "blob":
			return rBlob
		}
	}
	return rSkip
}

// beginRole starts what a value of role r means, c being its first byte.
func (s *answerScanner) beginRole(r uint8, c byte, i int) {
	switch r {
	case rResult:
		s.msg.hasResult = true
		s.res = resultState{notObject: c != '{'}
		s.resetContents(contentsAbsent)
	case rContents:
		switch c {
		case '[':
			s.resetContents(contentsArray)
		case 'n':
			s.resetContents(contentsNull) // the literal must be null, or the syntax fails
		default:
			s.resetContents(contentsNotArray)
		}
		s.res.hasContent = true
	case rEntry:
		s.cont.entries++
		if c != '{' {
			s.cont.usable = false
			s.cont.detail = "contents entry is not an object"
			return
		}
		s.cont.objects++
		s.entry = entryState{}
	case rText, rBlob:
		s.beginPayload(r, c, i)
	}
}

// resetContents starts a "contents" member (the last one counts).
func (s *answerScanner) resetContents(kind uint8) {
	c := &s.cont
	uris := c.uris
	clear(uris)
	*c = contentsState{kind: kind, usable: true, uris: uris, uriKnown: c.uriKnown, uri: c.uri}
	s.dig.restart()
}
