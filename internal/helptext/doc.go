// Package helptext prints the command line's help wrapped to the
// terminal's width, the flags grouped by their category, in place of
// urfave/cli's template, whose lines run as long as the longest flag's
// usage. It owns the layout only: which flag is in which group, and the
// groups' order, are the command line's.
package helptext
