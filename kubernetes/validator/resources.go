package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Checks of the custom resources against one another and the rest, beyond their schemas.

func field(value any, path ...string) any {
	for _, key := range path {
		object, ok := value.(map[string]any)
		if !ok {
			return nil
		}
		value = object[key]
	}
	return value
}

func text(value any, path ...string) string {
	s, _ := field(value, path...).(string)
	return s
}

func (c *cluster) byKind(kind string) map[string]object {
	found := map[string]object{}
	for _, o := range c.objects {
		if o.kind == kind {
			found[o.name] = o
		}
	}
	return found
}

func (c *cluster) checkDatabase() {
	clusters := c.byKind("Cluster")
	stores := c.byKind("ObjectStore")
	databases := map[string]bool{}
	for _, pg := range clusters {
		spec := pg.generic["spec"]
		instances, _ := field(spec, "instances").(json.Number).Int64()
		if sync, ok := field(spec, "postgresql", "synchronous").(map[string]any); ok {
			number, _ := sync["number"].(json.Number).Int64()
			if number >= instances {
				c.fail("%s: %d synchronous standbys need more than %d instances", pg, number, instances)
			}
		}
		roles := map[string]bool{}
		if initdb, ok := field(spec, "bootstrap", "initdb").(map[string]any); ok {
			databases[text(initdb, "database")] = true
			roles[text(initdb, "owner")] = true
			if secret := text(initdb, "secret", "name"); secret != "" {
				c.needSecret(pg.String(), secret, "username", nil)
				c.needSecret(pg.String(), secret, "password", nil)
			}
		}
		managed, _ := field(spec, "managed", "roles").([]any)
		for _, role := range managed {
			roles[text(role, "name")] = true
			if secret := text(role, "passwordSecret", "name"); secret != "" {
				c.needSecret(pg.String(), secret, "username", nil)
				c.needSecret(pg.String(), secret, "password", nil)
			}
		}
		plugins, _ := field(spec, "plugins").([]any)
		for _, plugin := range plugins {
			if text(plugin, "name") == "barman-cloud.cloudnative-pg.io" {
				store := text(plugin, "parameters", "barmanObjectName")
				if _, ok := stores[store]; !ok {
					c.fail("%s: archives WAL to ObjectStore %q, which is not in the manifests", pg, store)
				}
			}
		}
		for _, db := range c.byKind("Database") {
			if text(db.generic, "spec", "cluster", "name") != pg.name {
				continue
			}
			databases[text(db.generic, "spec", "name")] = true
			if owner := text(db.generic, "spec", "owner"); !roles[owner] {
				c.fail("%s: owner %s is not a role of Cluster %s", db, owner, pg.name)
			}
		}
	}
	for _, db := range c.byKind("Database") {
		if _, ok := clusters[text(db.generic, "spec", "cluster", "name")]; !ok {
			c.fail("%s: its Cluster is not in the manifests", db)
		}
	}
	for _, backup := range c.byKind("ScheduledBackup") {
		pg, ok := clusters[text(backup.generic, "spec", "cluster", "name")]
		if !ok {
			c.fail("%s: its Cluster is not in the manifests", backup)
			continue
		}
		if text(backup.generic, "spec", "method") == "plugin" {
			name := text(backup.generic, "spec", "pluginConfiguration", "name")
			found := false
			plugins, _ := field(pg.generic, "spec", "plugins").([]any)
			for _, plugin := range plugins {
				found = found || text(plugin, "name") == name
			}
			if !found {
				c.fail("%s: backs up through plugin %q, which Cluster %s does not run", backup, name, pg.name)
			}
		}
	}
	for _, store := range stores {
		for _, credential := range []string{"accessKeyId", "secretAccessKey"} {
			ref := field(store.generic, "spec", "configuration", "s3Credentials", credential)
			if ref != nil {
				c.needSecret(store.String(), text(ref, "name"), text(ref, "key"), nil)
			}
		}
	}
	// Each service's database exists in the cluster it connects to.
	for _, w := range c.workloads {
		for _, container := range w.pod.Containers {
			for _, e := range container.Env {
				if e.Name != "DATABASE_URL" || e.Value == "" {
					continue
				}
				u, err := url.Parse(strings.TrimPrefix(e.Value, "jdbc:"))
				if err == nil && !databases[strings.TrimPrefix(u.Path, "/")] {
					c.fail("%s %s: database %s is neither the Cluster's initdb database nor a Database resource",
						w.kind, w.name, strings.TrimPrefix(u.Path, "/"))
				}
			}
		}
	}
}

// Components of the core collector distribution (otel/opentelemetry-collector) this configuration may use.
var coreComponents = map[string]map[string]bool{
	"receivers":  {"otlp": true, "nop": true},
	"processors": {"batch": true, "memory_limiter": true},
	"exporters":  {"otlp": true, "otlphttp": true, "debug": true, "nop": true},
	"extensions": {"zpages": true, "memory_limiter": true},
}

func (c *cluster) checkCollector() {
	collectors := c.byKind("OpenTelemetryCollector")
	for _, collector := range collectors {
		config, _ := field(collector.generic, "spec", "config").(map[string]any)
		core := strings.HasPrefix(text(collector.generic, "spec", "image"), "otel/opentelemetry-collector:")
		used := map[string]bool{}
		pipelines, _ := field(config, "service", "pipelines").(map[string]any)
		if len(pipelines) == 0 {
			c.fail("%s: no pipelines", collector)
		}
		for name, pipeline := range pipelines {
			for _, section := range []string{"receivers", "processors", "exporters"} {
				list, _ := field(pipeline, section).([]any)
				if section != "processors" && len(list) == 0 {
					c.fail("%s: pipeline %s has no %s", collector, name, section)
				}
				for _, component := range list {
					id, _ := component.(string)
					if _, defined := field(config, section).(map[string]any)[id]; !defined {
						c.fail("%s: pipeline %s uses %s %q, which the configuration does not define", collector,
							name, section, id)
					}
					used[section+"/"+id] = true
				}
			}
		}
		for _, section := range []string{"receivers", "processors", "exporters"} {
			components, _ := field(config, section).(map[string]any)
			for id := range components {
				if !used[section+"/"+id] {
					c.fail("%s: %s %q is defined but in no pipeline", collector, section, id)
				}
				kind := strings.SplitN(id, "/", 2)[0]
				if core && !coreComponents[section][kind] {
					c.fail("%s: %s %q is not part of the core collector distribution", collector, section, kind)
				}
			}
		}
		// The services send to this collector's Service, on a port its OTLP/HTTP receiver listens on.
		endpoint := c.configMap["agora-settings"]["MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT"]
		u, err := url.Parse(endpoint)
		if err != nil || u.Hostname() != collector.name+"-collector" || u.Path != "/v1/traces" {
			c.fail("agora-settings: the OTLP endpoint %q is not http://%s-collector:<port>/v1/traces", endpoint,
				collector.name)
			continue
		}
		listen := text(config, "receivers", "otlp", "protocols", "http", "endpoint")
		if !strings.HasSuffix(listen, ":"+u.Port()) {
			c.fail("%s: its OTLP/HTTP receiver listens on %q, the services send to port %s", collector, listen,
				u.Port())
		}
	}
	if len(collectors) == 0 {
		c.fail("no OpenTelemetryCollector: the services' traces have nowhere to go")
	}
	_ = fmt.Sprint
}
