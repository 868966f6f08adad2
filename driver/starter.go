package driver

import (
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload/yamlfile"
)

// StarterInput hands what discovery found to the starter workload writer
// (yamlfile.Starter): text is the target as the user wrote it, target
// and headers how it was reached (header values are never written).
func (c *Catalog) StarterInput(text string, target targets.Target, headers map[string]string) yamlfile.StarterInput {
	in := yamlfile.StarterInput{
		TargetText: text, Target: target, Headers: headers,
		Server: c.Server.Name, Version: c.Server.Version, ProtocolVersion: c.ProtocolVersion,
		Pages: c.Pages, Sampled: c.Sampled, Warnings: c.Warnings, Resources: c.Resources,
	}
	for _, t := range c.Templates {
		in.Templates = append(in.Templates, yamlfile.StarterTemplate{URITemplate: t.URITemplate, Name: t.Name})
	}
	return in
}
