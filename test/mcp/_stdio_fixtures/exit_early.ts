// Exits at once with code 3 after writing to stderr, including a secret from its environment.
import process from "node:process";

process.stderr.write("starting fixture\n");
process.stderr.write(`using token ${process.env.FIXTURE_TOKEN}\n`);
process.stderr.write("fatal: no configuration found\n");
process.exit(3);
