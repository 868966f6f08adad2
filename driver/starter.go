package driver

import (
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// StarterInput hands what discovery found to the starter workload writer
// (workload.Starter): text is the target as the user wrote it, target
// and headers how it was reached (header values are never written).
func (c *Catalog) StarterInput(text string, target targets.Target, headers map[string]string) workload.StarterInput {
	in := workload.StarterInput{
		TargetText: text, Target: target, Headers: headers,
		Server: c.Server.Name, Version: c.Server.Version, ProtocolVersion: c.ProtocolVersion,
		Pages: c.Pages, Sampled: c.Sampled, Warnings: c.Warnings, Resources: c.Resources,
	}
	for _, t := range c.Templates {
		in.Templates = append(in.Templates, workload.StarterTemplate{URITemplate: t.URITemplate, Name: t.Name})
	}
	return in
}
