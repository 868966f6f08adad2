package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Message is one JSON-RPC 2.0 message of any kind, decoded only as far as
// routing needs: params, result and error data stay raw. A request has ID and
// Method, a notification Method alone, a response ID and Result or Error.
//
// It suits small messages (requests, handshakes, errors). The driver never
// decodes a resources/read result this way: it scans the bytes (see Scan).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// IsRequest reports whether m expects an answer.
func (m *Message) IsRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// IsNotification reports whether m is a one-way message.
func (m *Message) IsNotification() bool { return m.Method != "" && len(m.ID) == 0 }

// IsResponse reports whether m answers a request.
func (m *Message) IsResponse() bool { return m.Method == "" && (m.Result != nil || m.Error != nil) }

// Error is a JSON-RPC error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error makes *Error usable as a Go error, so a server handler can return one.
func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// NewError builds an Error whose data is v encoded as JSON (nil: no data).
func NewError(code int, message string, data any) *Error {
	e := &Error{Code: code, Message: message}
	if data != nil {
		if b, err := json.Marshal(data); err == nil {
			e.Data = b
		}
	}
	return e
}

// Decode parses one JSON-RPC message. It rejects anything that is not a
// JSON object with "jsonrpc":"2.0", so that garbage on a pipe is reported as
// a protocol error instead of being half understood. The usual shapes take
// a one-pass path (decode.go); its answer is the one encoding/json gives.
func Decode(b []byte) (*Message, error) {
	m, _, err := DecodeVisit(b, nil)
	return m, err
}

// decodeJSON is Decode by encoding/json: the judge of every message the
// one-pass path does not take, and of every error.
func decodeJSON(b []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decode JSON-RPC message: %w", err)
	}
	if m.JSONRPC != "2.0" {
		return nil, fmt.Errorf("decode JSON-RPC message: jsonrpc is %q, want \"2.0\"", m.JSONRPC)
	}
	return &m, nil
}

// IntID renders a numeric request id, the only kind the driver issues.
func IntID(id int64) json.RawMessage { return strconv.AppendInt(nil, id, 10) }

// ParseIntID reads back an id issued by IntID; ok is false for string ids,
// null or anything else.
func ParseIntID(raw []byte) (id int64, ok bool) {
	raw = bytes.TrimSpace(raw)
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil
}

// AppendRequest appends the encoding of a request (id non-nil) or a
// notification (id nil) with the given params (nil: none) to dst.
func AppendRequest(dst []byte, id json.RawMessage, method string, params any) ([]byte, error) {
	if dst == nil {
		dst = make([]byte, 0, 512) // a read request fits: one allocation
	}
	dst = append(dst, `{"jsonrpc":"2.0"`...)
	if id != nil {
		dst = append(dst, `,"id":`...)
		dst = append(dst, id...)
	}
	dst = append(dst, `,"method":`...)
	dst = strconv.AppendQuote(dst, method)
	if params != nil {
		var err error
		dst = append(dst, `,"params":`...)
		if dst, err = appendParams(dst, params); err != nil {
			return nil, fmt.Errorf("encode params of %s: %w", method, err)
		}
	}
	return append(dst, '}'), nil
}

// AppendResult appends a success response carrying an already encoded result.
func AppendResult(dst []byte, id json.RawMessage, result []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = appendID(dst, id)
	dst = append(dst, `,"result":`...)
	dst = append(dst, result...)
	return append(dst, '}')
}

// AppendError appends an error response. A nil id is written as null, as
// JSON-RPC requires when the request's id could not be read.
func AppendError(dst []byte, id json.RawMessage, e *Error) []byte {
	b, _ := json.Marshal(e) // Error has only marshalable fields
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = appendID(dst, id)
	dst = append(dst, `,"error":`...)
	dst = append(dst, b...)
	return append(dst, '}')
}

func appendID(dst []byte, id json.RawMessage) []byte {
	if len(id) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, id...)
}
