package report

import (
	"fmt"
	"html"
	"strings"
)

// Labels drawn on a chart (a marker's name, a shaded band's name) are
// placed here, from the SVG coordinates the chart emits, so that no label
// runs into another label or into a mark: the page needs no script to lay
// them out, and a test can check the boxes, which every label carries in
// its data-box attribute.

// box is a rectangle in SVG user units: x, y its top left corner.
type box struct{ x, y, w, h float64 }

// overlaps says whether two boxes share any area.
func (a box) overlaps(b box) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// label is a text to place next to x: to its right (start) or, when that
// leaves the plot, to its left (end).
//
// y, when not 0, is a horizontal line the label names: it is placed just
// above or below it, then farther away, instead of in the lanes from the
// plot's top.
type label struct {
	class, text, colour string
	x, y                float64
}

// Label geometry: the labels' font is 13px (labelCharW a character at
// most), one lane of labels below another from the plot's top.
const (
	labelCharW = 8.4
	labelH     = 16.0
	labelLanes = 18 // (plotH - padT - padB) / labelH
)

// placedLabel is a label with its box and text anchor.
type placedLabel struct {
	label
	b      box
	anchor string
}

// placeLabels places each label in the highest lane (from top, a lane
// below the one before) where its box overlaps neither a label placed
// before it nor an obstacle (a mark), trying the right side of its x then
// the left; boxes stay within the plot. When no lane is free the lowest
// lane is taken, so a label is never dropped.
func placeLabels(ls []label, obstacles []box, left, right, top float64) []placedLabel {
	var out []placedLabel
	for _, l := range ls {
		w := float64(len([]rune(l.text)))*labelCharW + 4
		var chosen *placedLabel
		for lane := 0; lane < labelLanes && chosen == nil; lane++ {
			y := top + 2 + float64(lane)*labelH
			if l.y != 0 { // above the line, below it, then farther each way
				step := float64(lane/2) * labelH
				y = l.y - labelH - step
				if lane%2 == 1 {
					y = l.y + 2 + step
				}
				if y < top {
					continue
				}
			}
			for _, c := range candidates(l.x, w) {
				if c.x < left || c.x+w > right {
					continue
				}
				b := box{c.x, y, w, labelH - 2}
				if !collides(b, out, obstacles) {
					chosen = &placedLabel{label: l, b: b, anchor: c.anchor}
					break
				}
			}
		}
		if chosen == nil {
			x := min(max(l.x+5, left), right-w)
			chosen = &placedLabel{label: l, b: box{x, top + 2 + float64(labelLanes-1)*labelH, w, labelH - 2}, anchor: "start"}
		}
		out = append(out, *chosen)
	}
	return out
}

// candidates are where a label of width w may start near x: just right
// of it, just left of it, then slid away on either side, a little farther
// each time (a crowd of labels at one place fans out).
func candidates(x, w float64) []struct {
	x      float64
	anchor string
} {
	type cand = struct {
		x      float64
		anchor string
	}
	cs := []cand{{x + 5, "start"}, {x - 5 - w, "end"}}
	for d := 20.0; d <= 240; d += 20 {
		cs = append(cs, cand{x + 5 + d, "start"}, cand{x - 5 - w - d, "end"})
	}
	return cs
}

func collides(b box, placed []placedLabel, obstacles []box) bool {
	for _, p := range placed {
		if b.overlaps(p.b) {
			return true
		}
	}
	for _, o := range obstacles {
		if b.overlaps(o) {
			return true
		}
	}
	return false
}

// drawLabels writes placed labels as text, each with its box.
func drawLabels(b *strings.Builder, ps []placedLabel) {
	for _, p := range ps {
		x := p.b.x + 2
		if p.anchor == "end" {
			x = p.b.x + p.b.w - 2
		}
		fmt.Fprintf(b, `<text class="chart-label %s" data-box="%.1f %.1f %.1f %.1f" x="%.1f" y="%.1f" text-anchor="%s" fill="%s">%s</text>`,
			p.class, p.b.x, p.b.y, p.b.w, p.b.h, x, p.b.y+p.b.h-3, p.anchor, p.colour, html.EscapeString(p.text))
	}
}
