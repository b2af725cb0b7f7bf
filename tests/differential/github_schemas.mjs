// Validates GitHub webhook bodies against GitHub's payload schemas as octokit publishes them
// (@octokit/webhooks-schemas, pinned), for tests/it/differential.rs: a template that a receiver
// typed or validated on octokit's schemas would refuse is not what GitHub sends.
// JSON lines on stdin ({"event": "push", "body": {...}}), one {"event", "schema", "valid",
// "errors"} line each on stdout. The schema is `<event>$<action>` when the body has an action,
// else `<event>$event`. argv[2]: the directory holding node_modules (target/differential/node).
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

const require = createRequire(join(resolve(process.argv[2]), "package.json"));
const Ajv = require("ajv");
const addFormats = require("ajv-formats");
const schemas = require("@octokit/webhooks-schemas");

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schemas, "github");

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { event, body } = JSON.parse(line);
  const schema = `${event}$${body.action ?? "event"}`;
  const validate = ajv.getSchema(`github#/definitions/${schema}`);
  if (!validate) {
    console.log(JSON.stringify({ event, schema, valid: false, errors: ["octokit has no such schema"] }));
    continue;
  }
  const valid = validate(body);
  const errors = valid ? [] : validate.errors.map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  console.log(JSON.stringify({ event, schema, valid, errors }));
}
