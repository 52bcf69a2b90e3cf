#!/usr/bin/env node
// The `strata` command line: bin/lib/main.mjs runs the command with this process's streams and environment;
// this file exits with its code. See docs/cli.md.
import { runCli } from "./lib/main.mjs";

runCli(process.argv.slice(2)).then((code) => process.exit(code));
