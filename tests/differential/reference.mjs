// The Node reference verifiers of the differential test (tests/it/differential.rs): GitHub's
// @octokit/webhooks-methods and the standardwebhooks package, as a receiver calls them.
// One long-lived process: JSON-lines cases on stdin ({"case", "reference", "secret", "headers",
// "body_b64", "now"}), {"case", "valid", "detail"} lines on stdout. Date.now is frozen at each
// case's "now" (standardwebhooks reads the clock through it). A throw is an invalid verdict.
// argv[2]: the directory holding node_modules (target/differential/node).
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const nodeDir = resolve(process.argv[2]);
const require = createRequire(join(nodeDir, "package.json"));
const { Webhook } = require("standardwebhooks");
// @octokit/webhooks-methods is ESM-only with an "import" export; load its Node entry by path.
const octokit = await import(
  pathToFileURL(join(nodeDir, "node_modules/@octokit/webhooks-methods/dist-node/index.js")).href
);

let now = 0;
Date.now = () => now * 1000;

const references = {
  // A raw-body receiver hands verify() the body as a string (the library requires one).
  async octokit(c, headers, body) {
    const ok = await octokit.verify(c.secret, body.toString("utf8"), headers["x-hub-signature-256"]);
    if (!ok) throw new Error("verify returned false");
    return "verify returned true";
  },
  async "standardwebhooks-node"(c, headers, body) {
    new Webhook(c.secret).verify(body, headers, { jsonParse: false });
    return "verify passed";
  },
};

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  now = c.now;
  const headers = {};
  for (const [name, value] of Object.entries(c.headers)) headers[name.toLowerCase()] = value;
  const body = Buffer.from(c.body_b64, "base64");
  let answer;
  try {
    answer = { case: c.case, valid: true, detail: await references[c.reference](c, headers, body) };
  } catch (err) {
    answer = { case: c.case, valid: false, detail: `${err.name}: ${err.message}`.slice(0, 300) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
