// Command compose-check loads a compose file the way the modern `docker compose` CLI does (with
// compose-go, the loader that CLI is built on) and fails on anything it rejects. docker/validate.sh runs
// it next to Compose v1, so the file is checked against both without a Docker engine.
//
// Usage: compose-check <compose.yaml> <env-file>
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: compose-check <compose.yaml> <env-file>")
		os.Exit(2)
	}
	options, err := cli.NewProjectOptions(
		[]string{os.Args[1]},
		cli.WithEnvFiles(os.Args[2]),
		cli.WithDotEnv,
		cli.WithName("agora"),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d services, %d volumes\n", len(project.Services), len(project.Volumes))
}
