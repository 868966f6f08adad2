package client

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// ReadDocument reads uri over plain HTTP: one GET, or with spec.Chunk > 0
// Range requests of Chunk bytes until the last byte. The body goes to
// spec.Sink as it arrives. An error status ends the read, its outcome
// decided from the status (decide); an error body is wire bytes, never
// document bytes.
func (d *Documents) ReadDocument(ctx context.Context, uri string, spec ReadSpec) (*Answer, error) {
	if !spec.Deadline.IsZero() {
		at := spec.Deadline
		spec.Deadline = time.Time{}
		return withinDeadline(ctx, at, spec.DeadlineCause, func(ctx context.Context) (*Answer, error) { return d.ReadDocument(ctx, uri, spec) })
	}
	sink, maxBytes := sinkOf(spec)
	length := int64(-1)
	if spec.Chunk > 0 {
		length = spec.Chunk
	}
	a := new(Answer)
	for off, n := int64(0), 0; ; n++ {
		if err := ctx.Err(); err != nil {
			return a, err // ended before this part was sent: never send it
		}
		if n == maxParts || off > maxBytes {
			return partsDone(ctx, a, unusablePart(fmt.Sprintf("no last byte after %d parts and %d bytes", n, off)))
		}
		da, err := d.Get(ctx, uri, off, length, sink)
		if err != nil {
			return partsDone(ctx, a, ending{failed: err})
		}
		whole := da.Status == http.StatusOK && off == 0 // asked for, or a server that ignores Range
		part := da.Status == http.StatusPartialContent && length > 0
		if part && (da.Start != off || da.Size < 0 || da.BodyBytes != da.End-da.Start+1) {
			a.part(da.Sent, da.FirstByte, da.Done, da.BodyBytes, 0)
			return partsDone(ctx, a, unusablePart(fmt.Sprintf("asked bytes %d-%d, got Content-Range %q with %d bytes", off, off+length-1, da.ContentRange, da.BodyBytes)))
		}
		disk := int64(0)
		if whole || part {
			disk = da.BodyBytes // an error body is wire, not document
		}
		a.part(da.Sent, da.FirstByte, da.Done, da.BodyBytes, disk)
		if disk > 0 && a.FirstUsable.IsZero() {
			a.FirstUsable = da.FirstByte
		}
		switch {
		case whole:
			return partsDone(ctx, a, ending{})
		case part:
			if da.EOF() {
				return partsDone(ctx, a, ending{})
			}
			off = da.End + 1
		case da.Status == http.StatusRequestedRangeNotSatisfiable && off == 0 && da.Size == 0:
			return partsDone(ctx, a, ending{}) // an empty document has no byte 0
		default:
			return partsDone(ctx, a, ending{status: da.Status, reason: da.Message,
				detail: fmt.Sprintf("HTTP %d for bytes from %d: %s %s", da.Status, off, da.Code, clipText(da.Message))})
		}
	}
}
